"""What the studio lets run: the open spec and the subgraph and program files it pulls in, as
the user approved them. Every Run re-reads the files; one that changed since (or is new) asks again, and
the run gets the spec with the files inlined from the bytes just checked (never a second read).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from graphspec.errors import Finding
from graphspec.model import GraphSpec
from graphspec.trust import Closure, closure, code_sites
from studio.document import GraphDocument
from studio.i18n import translate


class TrustGate(QObject):
    review_needed = Signal(object, str)
    """(list of Finding, why): code the user has not approved; the window shows the banner."""

    def __init__(self, document: GraphDocument) -> None:
        super().__init__()
        self.document = document
        self.approved: dict[str, str] = {}
        """Subgraph file -> digest of the bytes the user approved along with the spec."""
        self.shown: Closure | None = None
        """The closure the banner lists: the one Trust approves (not a later read)."""
        self._run: tuple[GraphSpec, dict[str, str], GraphSpec] | None = None

    def opened(self, found: Closure, trusted: bool) -> None:
        """A spec was loaded with the closure read alongside it (trusted or not)."""
        self.approved = dict(found.files) if trusted else {}
        self.shown = found
        self._run = None
        if found.sites and not trusted:
            self.review_needed.emit(found.sites, "")

    def current(self) -> Closure:
        return closure(self.document.spec, self.document.base_dir)

    def pending(self, found: Closure) -> list[Finding]:
        """Code in `found` the user has not approved: all of it, if anything changed."""
        approved = self.document.trusted and found.files == self.approved
        return [] if approved else found.sites

    def check(self) -> str | None:
        """Re-read the closure now: None if it may run, else why not (the banner shows it)."""
        found = self.current()
        if found.errors:
            return translate("trust_gate", "Cannot run: {value}").format(value=found.errors[0])
        if sites := self.pending(found):
            self.shown = found
            changed = self.document.trusted and found.files != self.approved
            self.review_needed.emit(sites, "changed" if changed else "")
            return translate(
                "trust_gate", "This spec needs trust: trust it (banner above the canvas) to run it"
            )
        key = (self.document.spec, found.files)
        if self._run is None or self._run[0] is not key[0] or self._run[1] != key[1]:
            self._run = (*key, found.spec)  # one object per content: the runner caches by id
        return None

    def run_spec(self) -> GraphSpec:
        """What the last successful `check` approved to run (the spec itself before any)."""
        return self._run[2] if self._run is not None else self.document.spec

    def approve(self) -> Closure:
        """The user trusted what the banner showed."""
        found = self.shown if self.shown is not None else self.current()
        self.document.trusted = True
        self.approved = dict(found.files)
        return found

    def pasted(self, part: GraphSpec) -> None:
        """Pasted elements carrying code are reviewed like opened code."""
        if sites := code_sites(part):
            self.document.trusted = False
            self.shown = self.current()
            self.review_needed.emit(sites, "pasted")
