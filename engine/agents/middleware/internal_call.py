"""The mark of a model call a middleware makes for itself (a tool selector's, a summary's), in
the call's metadata as langchain's `internal_call_metadata()` puts it."""

from __future__ import annotations

import secrets
from typing import Any

INTERNAL_CALL_METADATA_KEY = "lc_internal_call"
# per process, so a caller's own metadata cannot pass for an internal call
_TOKEN = secrets.token_hex(16)


def internal_call_metadata() -> dict[str, Any]:
    """What to merge into an internal call's `config["metadata"]`."""
    return {INTERNAL_CALL_METADATA_KEY: _TOKEN}


__all__ = ["INTERNAL_CALL_METADATA_KEY", "internal_call_metadata"]
