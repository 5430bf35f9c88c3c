"""What `langgraph dev` gives a langgraph.json project's graph besides the graph itself, so a
project runs here as its server runs it (a module file opened on its own runs as a script
invokes it: no context, no store but its own).

The server hands every run a run context: the one the caller gave, else an empty one, which
the graph makes into its context_schema (a dataclass of defaults: langgraph's templates read
`runtime.context.model` without anyone passing it). And it runs every graph with its store when
the graph has none of its own, configured by langgraph.json's "store" (an embedding `index`:
`dims`, `fields`, and `embed`, a "provider:model" name or a "./file.py:function" of the
project). One store per opened project: its data outlives a run and a thread, as the server's.
And it mirrors a run context given as a dict into the run's configurable.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graphspec.errors import SpecError
from graphspec.program_project import Project


@dataclass(frozen=True)
class Served:
    store: Any
    """The server's store: the project's graphs run with it when they have none."""

    def graph(self, graph: Any) -> Any:
        """`graph` with the server's store where it has none of its own."""
        if getattr(graph, "store", None) is not None:
            return graph
        return graph.copy({"store": self.store})

    @staticmethod
    def context(graph: Any, context: Any) -> Any:
        """The run context: the one given, else an empty one for a graph with a context_schema
        (a schema with required fields fails naming them, as the server's run does)."""
        if context is None and getattr(graph, "context_schema", None) is not None:
            return {}
        return context

    @staticmethod
    def configurable(configurable: dict, context: Any) -> dict:
        """The run's configurable with the run context's keys mirrored into it, as the server
        mirrors them (a graph of the config_schema days reads `config["configurable"]`); the
        run's own keys (its thread) win."""
        return {**context, **configurable} if isinstance(context, dict) else configurable


def served(project: Project) -> Served:
    """How the server would serve `project`'s graphs; loads the embedding function it names
    (the user agreed to run the project's code). SpecError says why the settings do not do."""
    from engine.store.memory import InMemoryStore

    index = project.store.get("index")
    if not isinstance(index, dict):
        return Served(InMemoryStore())
    return Served(InMemoryStore(index={**index, "embed": _embed(project, index.get("embed"))}))


def _embed(project: Project, embed: Any) -> Any:
    """The index's embeddings: a project file's function (`./embed.py:fn`), else the name as
    the store resolves it ("openai:text-embedding-3-small")."""
    if not isinstance(embed, str) or ".py:" not in embed:
        return embed
    from graphspec.importer import load_module

    file, _, name = embed.rpartition(":")
    path = (project.folder / file).resolve()
    if not path.is_relative_to(project.folder.resolve()):
        raise SpecError(f"langgraph.json: the store's embed {embed!r} points outside the project")
    function = getattr(load_module(str(path), on_engine=True), name, None)
    if function is None:
        raise SpecError(f"langgraph.json: the store's embed {embed!r}: {file} has no {name}")
    return function


__all__ = ["Served", "served"]
