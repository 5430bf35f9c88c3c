"""Spec -> a Mermaid flowchart: a shape per node kind, dashed conditional routes and gotos."""

from __future__ import annotations

import json
import re

from engine.constants import END, START
from graphspec.model import GraphSpec
from graphspec.node_kinds import by_kind
from graphspec.routes import drawn_routes

_SHAPES = by_kind(
    {
        "function": ("[", "]"),
        "set_state": ("[", "]"),
        "model": ("(", ")"),
        "tools": ("[/", "/]"),
        "agent": ("([", "])"),
        "interrupt": ("{{", "}}"),
        "subgraph": ("[[", "]]"),
    },
    "Mermaid export",
)
"""Each node kind's Mermaid shape (its opening and closing brackets)."""


_MERMAID_WORDS = {
    "end", "graph", "subgraph", "flowchart", "style", "classdef", "class", "click", "linkstyle",
    "direction", "call", "href", "default",
}  # fmt: skip
_MERMAID_ENTITIES = {"#": "#35;", '"': "#quot;", "<": "#lt;", ">": "#gt;", "|": "#124;"}


class _MermaidIds:
    """Each graph name -> a distinct Mermaid id: the name when it is a plain word, otherwise
    (edge targets may be any text) the name with other characters replaced, made unique."""

    def __init__(self, names: list[str]) -> None:
        self.ids: dict[str, str] = {}
        self.used: set[str] = set()
        for name in sorted(names, key=lambda n: not self._plain(n)):  # plain names keep theirs
            self(name)

    @staticmethod
    def _plain(name: str) -> bool:
        return bool(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name)) and (
            name.lower() not in _MERMAID_WORDS
        )

    def __call__(self, name: str) -> str:
        if name not in self.ids:
            wanted = name if self._plain(name) else re.sub(r"[^A-Za-z0-9_]", "_", name) + "_"
            if not wanted[0].isalpha() and wanted[0] != "_":
                wanted = f"n{wanted}"
            while wanted in self.used:
                wanted += "_"
            self.used.add(wanted)
            self.ids[name] = wanted
        return self.ids[name]


def _mermaid_text(text: str) -> str:
    """A label for inside `"..."`: one line (breaks become <br>), quotes and markup as entities."""

    def escape(line: str) -> str:
        return "".join(
            _MERMAID_ENTITIES.get(ch, ch) if ch.isprintable() else f"#{ord(ch)};" for ch in line
        )

    return "<br>".join(escape(line) for line in str(text).splitlines())


def to_mermaid(spec: GraphSpec) -> str:
    _mermaid_id = _MermaidIds([START, END, *(n.id for n in spec.nodes)])
    lines = []
    if spec.name:
        lines += ["---", f"title: {json.dumps(spec.name)}", "---"]
    lines += ["flowchart TD", "    __start__([START])"]
    for node in spec.nodes:
        left, right = _SHAPES[node.kind]
        label = _mermaid_text(node.label or node.id)
        lines.append(f'    {_mermaid_id(node.id)}{left}"{label}"{right}')
    lines.append("    __end__([END])")
    for _, _, sources, target in spec.all_edges():
        for source in sources:
            lines.append(f"    {_mermaid_id(source)} --> {_mermaid_id(target)}")
    for edge in spec.conditional_edges:
        src = _mermaid_id(edge.source)
        for label, target in drawn_routes(spec, edge):
            text = _mermaid_text(label)
            lines.append(f'    {src} -.->|"{text}"| {_mermaid_id(target)}')
    for node in spec.nodes:
        for dest in getattr(node, "destinations", []):
            lines.append(f"    {_mermaid_id(node.id)} -.->|goto| {_mermaid_id(dest)}")
    return "\n".join(lines) + "\n"


__all__ = ["to_mermaid"]
