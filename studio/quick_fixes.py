"""One-click fixes for validator findings (the Problems panel's Fix buttons): what the finding's
`fix` text says, done as one undoable edit.

    unknown-key   add the key to the state; a node's `messages_key` gets a conversation key
                  (type messages, add_messages reducer), any other a key of type any
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from graphspec.model import StateKey
from studio import edits
from studio.editor import Editor
from studio.i18n import translate
from studio.panels.state_panel import typed

UNKNOWN_KEY = re.compile(r"^'([A-Za-z_][A-Za-z0-9_]*)' is not a state key")
"""graphspec.validator's unknown-key message: the key's name is quoted first."""


def quick_fix(finding: Any) -> tuple[str, Callable[[Editor], bool]] | None:
    """(button text, apply) for a finding the studio can fix by itself, else None."""
    if getattr(finding, "code", "") != "unknown-key" or getattr(finding, "file", None):
        return None  # a subgraph file's finding is fixed in that file
    match = UNKNOWN_KEY.match(finding.message)
    if match is None:
        return None
    name = match.group(1)
    kind = "messages" if finding.path.endswith(".messages_key") else "any"

    def apply(editor: Editor) -> bool:
        keys = list(editor.document.spec.state)
        if any(k.name == name for k in keys):
            return False  # already added (a second click, or an edit meanwhile)
        key = typed(StateKey(name=name), kind)
        return editor.push(
            edits.SetStateKeysEdit,
            [*keys, key],
            translate("quick_fixes", "Add state key {name}").format(name=name),
        )

    return translate("quick_fixes", "Add {name!r} to the state").format(name=name), apply


__all__ = ["quick_fix"]
