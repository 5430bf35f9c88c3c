# Source: fancier21/ai-langchain, src/model/context.py at commit 324bc7f33af2d78713cc9f004c859ccc7ccba45c
#   (https://github.com/fancier21/ai-langchain/blob/324bc7f33af2d78713cc9f004c859ccc7ccba45c/src/model/context.py),
#   the app's run-scoped context (a dataclass).
# License: none found (no license file among the repository's indexed files).
# Adapted: nothing.
from dataclasses import dataclass


@dataclass
class Context:
    """Custom runtime context schema."""

    user_id: str
