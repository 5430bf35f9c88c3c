"""Checks a spec as a graph (`graphspec.digraph`) before it runs.

Each finding has a severity (error: it will not compile or will fail at run time; warning: it
runs but probably not as meant), a code, a message, the id of the element at fault, its JSON
path and, where there is one, the fix. Checks:

    duplicate ids, unknown targets and keys, expressions outside the whitelist
    no entry point, unreachable nodes, nodes that cannot reach END, cycles with no exit
    a key without a reducer written by nodes that can run in the same superstep (with the fix)
    subgraph key mismatches with the parent state
    agent middleware mistakes (`graphspec.agent_checks`): jumps without can_jump_to, tools named
    by interrupt_on or a limit that the agent lacks, call limits without a limit, duplicate
    middleware, summarization that cannot summarize, settings a middleware's constructor
    refuses, unknown or uninstalled model providers
    inline code that does not parse or does not define its function (`graphspec.code_checks`)
    a model pointed at a server that would get the user's API key (`graphspec.endpoints`)

`validate` never raises on a loaded spec: every problem becomes a finding.
"""

from __future__ import annotations

import builtins
import itertools
import os
from collections.abc import Iterable
from typing import Any

from engine.constants import END, START
from graphspec import expressions
from graphspec.agent_checks import check_agents, check_models
from graphspec.code_checks import check_code
from graphspec.deep_agent_checks import check_deep_agents
from graphspec.digraph import DiGraph, ancestors, descendants, strongly_connected_components
from graphspec.endpoints import endpoint_sites
from graphspec.errors import Finding, Severity, SpecError
from graphspec.io import resolve_subgraph
from graphspec.model import (
    AgentNode,
    ConditionalEdge,
    ExpressionRouter,
    FunctionNode,
    GraphSpec,
    InterruptNode,
    ModelNode,
    SendRouter,
    SetStateNode,
    SubgraphNode,
    ToolsNode,
)
from graphspec.node_kinds import by_kind
from graphspec.routes import literal_results, possible_targets

MAX_STATES = 2000
"""How many abstract supersteps the parallel-write check explores before it stops."""

PYTHON_BUILTINS = frozenset(n for n in dir(builtins) if not n.startswith("_"))
"""Names an expression cannot call: read bare they are state keys, never Python's builtins."""


class _Checker:
    def __init__(self, spec: GraphSpec, base_dir: Any, depth: int) -> None:
        self.spec = spec
        self.base_dir = base_dir
        self.depth = depth
        self.findings: list[Finding] = []
        self.nodes = {n.id for n in spec.nodes}
        self.keys = {k.name: k for k in spec.state}
        self.children: dict[str, GraphSpec] = {}

    def add(self, severity: Severity, code: str, message: str, element: str | None, path: str,
            fix: str | None = None) -> None:  # fmt: skip
        self.findings.append(Finding(path, message, element, severity=severity, code=code, fix=fix))

    # -------------------------------------------------------------- names and references

    def duplicates(self) -> None:
        groups = {
            "state": [k.name for k in self.spec.state],
            "nodes": [n.id for n in self.spec.nodes],
            "edges": [e.id for e in self.spec.edges],
            "conditional_edges": [e.id for e in self.spec.conditional_edges],
            "agents": [a.id for a in self.spec.agents],
            "subgraphs": [s.id for s in self.spec.subgraphs],
        }
        for group, ids in groups.items():
            seen: set[str] = set()
            for i, element in enumerate(ids):
                if element in seen:
                    self.add("error", "duplicate-id", f"{element!r} is used twice in {group}",
                             element, f"$.{group}[{i}]", "give each one its own id")  # fmt: skip
                seen.add(element)

    def target(self, name: str, element: str, path: str, *, start: bool = False,
               end: bool = True) -> None:  # fmt: skip
        if name in self.nodes or (start and name == START) or (end and name == END):
            return
        if name in (START, END):
            self.add("error", "bad-endpoint", f"{name} cannot be used here", element, path)
            return
        close = [n for n in self.nodes if n.lower() == name.lower()]
        self.add("error", "unknown-target", f"unknown node {name!r}", element, path,
                 f"did you mean {close[0]!r}?" if close else "add the node or fix the name")  # fmt: skip

    def key(self, name: str, element: str, path: str, *, writing: bool = False) -> None:
        key = self.keys.get(name)
        if key is None:
            self.add("error", "unknown-key", f"{name!r} is not a state key", element, path,
                     f"add {name!r} to the state")  # fmt: skip
        elif writing and key.managed:
            self.add("error", "managed-key", f"{name!r} is filled in by the runtime; nodes cannot "
                     "write it", element, path)  # fmt: skip

    def expression(self, text: str, element: str, path: str, *, extra: Iterable[str] = ()) -> bool:
        try:
            names = expressions.free_names(text)
        except expressions.ExpressionError as exc:
            self.add("error", "bad-expression", str(exc), element, path)
            return False
        for name in sorted(expressions.early_names(text)):
            self.add("error", "unbound-name", f"reads {name!r} before the comprehension's `for` "
                     "binds it", element, path, f"move the condition after `for {name} in ...`")  # fmt: skip
        unknown = names - set(self.keys) - set(extra)
        for name in sorted(unknown & PYTHON_BUILTINS):  # a reader (or exported code) takes it
            self.add("error", "forbidden-name", f"{name!r} is not an expression function; outside "
                     "a comprehension that binds it, it reads a state key of that name, which "
                     "does not exist", element, path,
                     f"use one of {', '.join(sorted(expressions.FUNCTIONS))}")  # fmt: skip
        for name in sorted(unknown - PYTHON_BUILTINS):
            self.add("warning", "unknown-name", f"reads {name!r}, which is not a state key (it "
                     "reads as None unless a Send brings it)", element, path)  # fmt: skip
        return True

    # -------------------------------------------------------------- elements

    def state(self) -> None:
        for i, key in enumerate(self.spec.state):
            path = f"$.state[{i}]"
            if key.reducer == "custom" and key.custom_reducer is None:
                self.add("error", "missing-reducer-code", "a custom reducer needs custom_reducer",
                         key.name, f"{path}.custom_reducer")  # fmt: skip
            if key.reducer != "custom" and key.custom_reducer is not None:
                self.add("warning", "unused-reducer-code", "custom_reducer is ignored unless "
                         "reducer is custom", key.name, f"{path}.custom_reducer")  # fmt: skip
            if key.managed and key.reducer != "none":
                self.add("error", "managed-reducer", f"{key.type} keys take no reducer",
                         key.name, f"{path}.reducer")  # fmt: skip

    def node(self, i: int, node: Any) -> None:
        path = f"$.nodes[{i}]"
        for j, dest in enumerate(getattr(node, "destinations", [])):
            self.target(dest, node.id, f"{path}.destinations[{j}]")
        _NODE_CHECKS[node.kind](self, node, path)

    def set_state_node(self, node: SetStateNode, path: str) -> None:
        for key, expr in node.values.items():
            self.key(key, node.id, f"{path}.values.{key}", writing=True)
            self.expression(expr, node.id, f"{path}.values.{key}")
        if node.goto is not None:
            self.expression(node.goto, node.id, f"{path}.goto")
            if not node.destinations:
                self.add("warning", "goto-without-destinations", "goto without destinations:"
                         " the drawn graph cannot show where it goes", node.id, f"{path}.goto",
                         "list the possible targets in destinations")  # fmt: skip

    def function_node(self, node: FunctionNode, path: str) -> None:
        for j, key in enumerate(node.writes):
            self.key(key, node.id, f"{path}.writes[{j}]", writing=True)

    def interrupt_node(self, node: InterruptNode, path: str) -> None:
        self.key(node.resume_key, node.id, f"{path}.resume_key", writing=True)
        if node.payload is not None:
            self.expression(node.payload, node.id, f"{path}.payload")

    def messages_node(self, node: ModelNode | ToolsNode | AgentNode, path: str) -> None:
        self.key(node.messages_key, node.id, f"{path}.messages_key", writing=True)

    def agent_node(self, node: AgentNode, path: str) -> None:
        self.messages_node(node, path)
        if self.spec.agent(node.agent) is None:
            self.add("error", "unknown-agent", f"unknown agent {node.agent!r}", node.id,
                     f"{path}.agent")  # fmt: skip
        if node.messages_key != "messages":
            self.add("error", "agent-messages", "an agent keeps its conversation in "
                     "'messages'", node.id, f"{path}.messages_key")  # fmt: skip

    def subgraph_node(self, node: SubgraphNode, path: str) -> None:
        sub = self.spec.subgraph(node.subgraph)
        if sub is None:
            self.add("error", "unknown-subgraph", f"unknown subgraph {node.subgraph!r}", node.id,
                     f"{path}.subgraph")  # fmt: skip
            return
        try:
            child = resolve_subgraph(sub, self.base_dir, self.depth)
        except SpecError as exc:
            self.add("error", "bad-subgraph", str(exc), node.id, f"{path}.subgraph")
            return
        self.children[node.id] = child
        child_dir = self.base_dir
        if sub.file is not None and self.base_dir is not None:
            child_dir = os.path.dirname(os.path.join(self.base_dir, sub.file))
        for finding in validate(child, base_dir=child_dir, _depth=self.depth + 1):
            if finding.severity == "error":
                self.add("error", "subgraph-error", f"subgraph {sub.id}: {finding.labelled()}", node.id,
                         f"{path}.subgraph")  # fmt: skip
            elif finding.code == "model-endpoint":
                self.add("warning", "model-endpoint", f"subgraph {sub.id}: {finding}", node.id,
                         f"{path}.subgraph")  # fmt: skip
        shared = [k for k in child.state if not k.managed and k.name in self.keys]
        if child.state and not shared:
            self.add("error", "subgraph-keys", f"subgraph {sub.id} shares no state key with this "
                     "graph: it receives nothing and returns nothing", node.id, f"{path}.subgraph",
                     "use the same key names in both, or wrap the subgraph in a function node"
                     " that maps keys")  # fmt: skip
            return
        # keys of the subgraph's own (not in this state) are private to it: ordinary, no warning

    def edges(self) -> None:
        for i, edge in enumerate(self.spec.edges):
            path = f"$.edges[{i}]"
            join = len(edge.sources) > 1
            for j, source in enumerate(edge.sources):
                self.target(source, edge.id, f"{path}.sources[{j}]", start=not join, end=False)
            self.target(edge.target, edge.id, f"{path}.target")
        for j, name in enumerate(self.spec.entry):
            self.target(name, f"entry:{name}", f"$.entry[{j}]")
        for j, name in enumerate(self.spec.finish):
            self.target(name, f"finish:{name}", f"$.finish[{j}]", end=False)
        for i, edge in enumerate(self.spec.conditional_edges):
            self.conditional(i, edge)
        for which in ("before", "after"):
            for j, name in enumerate(getattr(self.spec.breakpoints, which)):
                self.target(name, name, f"$.breakpoints.{which}[{j}]", end=False)
        for j, point in enumerate(self.spec.breakpoints.points):
            self.breakpoint(point, f"$.breakpoints.points[{j}]")

    def breakpoint(self, point: Any, path: str) -> None:
        """A debugger breakpoint never stops a run from starting: what is wrong is a warning."""
        if point.node != "*" and point.node not in self.nodes:
            self.add("warning", "unknown-target", f"a breakpoint is on {point.node!r}, which "
                     "this graph does not have", point.node, f"{path}.node",
                     "remove it in the Breakpoints dock")  # fmt: skip
        if point.condition.strip():
            try:
                expressions.parse(point.condition)
            except expressions.ExpressionError as exc:
                self.add("warning", "bad-expression", f"breakpoint condition: {exc}", point.node,
                         f"{path}.condition", "a safe expression such as len(messages) > 4")  # fmt: skip

    def conditional(self, i: int, edge: ConditionalEdge) -> None:
        path = f"$.conditional_edges[{i}]"
        self.target(edge.source, edge.id, f"{path}.source", start=True, end=False)
        targets = edge.path_map.values() if isinstance(edge.path_map, dict) else edge.path_map or []
        for label, name in zip(_labels(edge), targets, strict=False):
            self.target(name, edge.id, f"{path}.path_map[{label!r}]".replace("'", '"'))
        router = edge.router
        if isinstance(router, SendRouter):
            self.target(router.target, edge.id, f"{path}.router.target", end=False)
            self.expression(router.over, edge.id, f"{path}.router.over")
            for key, expr in router.input.items():
                self.expression(expr, edge.id, f"{path}.router.input.{key}", extra=["item"])
        elif isinstance(router, ExpressionRouter):
            if not self.expression(router.expression, edge.id, f"{path}.router.expression"):
                return
            literals = literal_results(router.expression)
            for value in sorted(literals or ()):
                if isinstance(edge.path_map, dict):
                    if value not in edge.path_map:
                        self.add("error", "unknown-label", f"the router can return {value!r}, "
                                 "which path_map does not map", edge.id, f"{path}.path_map",
                                 f"add {value!r} to path_map")  # fmt: skip
                elif edge.path_map is not None and value not in edge.path_map:
                    self.add("error", "unlisted-target", f"the router can return {value!r}, "
                             "which path_map does not list", edge.id, f"{path}.path_map")  # fmt: skip
                elif edge.path_map is None:  # a listed one was checked as a route above
                    self.target(value, edge.id, f"{path}.router.expression")

    # -------------------------------------------------------------- the graph as a whole

    def graph(self) -> tuple[DiGraph, set[str]]:
        """The drawn graph; also the nodes whose routers may go anywhere (code, no path_map)."""
        g = DiGraph()
        g.add_nodes_from([START, END, *self.nodes])
        for _, _, sources, target in self.spec.all_edges():
            g.add_edges_from((s, target) for s in sources)
        anywhere: set[str] = set()
        for edge in self.spec.conditional_edges:
            targets = possible_targets(edge)
            if targets is None:
                anywhere.add(edge.source)
                targets = {*self.nodes, END}
            g.add_edges_from((edge.source, t) for t in targets)
        for node in self.spec.nodes:
            destinations = getattr(node, "destinations", [])
            if destinations and _goto_may_not_happen(node) and not g.out_degree(node.id):
                # a Command destination is possible, not certain (langgraph draws it dashed, as
                # a conditional edge): a node only those follow may return a plain update, and
                # nothing runs after it
                g.add_edge(node.id, END)
            g.add_edges_from((node.id, t) for t in destinations)
        g.remove_nodes_from([n for n in list(g) if n not in self.nodes and n not in (START, END)])
        g.remove_edges_from([*g.in_edges(START), *g.out_edges(END)])
        # a node nothing follows ends the run there (langgraph stops when no node is triggered)
        g.add_edges_from((n, END) for n in self.nodes if n in g and not g.out_degree(n))
        return g, anywhere

    def shape(self) -> None:
        g, anywhere = self.graph()
        index = {n.id: i for i, n in enumerate(self.spec.nodes)}
        if not any(True for _ in g.successors(START)):
            self.add("error", "no-entry", "nothing starts the graph: no edge from START", None,
                     "$.entry", "add an entry node")  # fmt: skip
            return
        reachable = descendants(g, START)
        for node in self.spec.nodes:
            if node.id not in reachable:
                self.add("warning", "unreachable", f"{node.id!r} can never run: no path from START",
                         node.id, f"$.nodes[{index[node.id]}]", "connect it or delete it")  # fmt: skip
        finishing = ancestors(g, END)
        for node in self.spec.nodes:
            if node.id in reachable and node.id not in finishing and not _is_function(node):
                self.add("warning", "dead-end", f"{node.id!r} cannot reach END", node.id,
                         f"$.nodes[{index[node.id]}]", "add an edge towards END")  # fmt: skip
        for component in strongly_connected_components(g):
            nodes = sorted(component)
            if len(nodes) == 1 and not g.has_edge(nodes[0], nodes[0]):
                continue
            if anywhere & component or any(_is_function(self.spec.node(n)) for n in nodes):
                continue  # code may leave the loop
            exits = [t for n in nodes for t in g.successors(n) if t not in component]
            if not exits:
                loop = " -> ".join([*nodes, nodes[0]])
                self.add("error", "endless-loop", f"the cycle {loop} has no exit: it runs until "
                         "the recursion limit", nodes[0], f"$.nodes[{index[nodes[0]]}]",
                         "add a conditional edge that leaves the loop")  # fmt: skip

    def parallel_writes(self) -> None:
        plain = {k.name for k in self.spec.state if k.reducer == "none" and not k.managed}
        writes = {n.id: self.writes(n) & plain for n in self.spec.nodes}
        conflicts: dict[str, set[str]] = {}
        for tasks in _supersteps(self.spec):
            for key in plain:
                writers = [t for t in tasks if key in writes.get(t[0], ())]
                if len(writers) > 1 or any(multi for _, multi in writers):
                    conflicts.setdefault(key, set()).update(name for name, _ in writers)
        for key, names in sorted(conflicts.items()):
            i = next(j for j, k in enumerate(self.spec.state) if k.name == key)
            who = " and ".join(sorted(names))
            many = " (several Send tasks of it)" if len(names) == 1 else ""
            self.add("error", "parallel-write", f"{who}{many} can run in the same superstep and "
                     f"write {key!r}, which has no reducer: the run fails with "
                     "InvalidUpdateError", key, f"$.state[{i}].reducer",
                     f"give {key!r} a reducer (add for lists, merge for dicts, or custom), or "
                     "make the writers run one after the other")  # fmt: skip

    def endpoints(self) -> None:
        for site in endpoint_sites(self.spec):
            self.add("warning", "model-endpoint", f"would {site.message}, not to the provider's own "
                     "server or a base URL you set: it runs only when trusted", site.element_id,
                     site.path, "trust the spec only if you trust that server; or remove the "
                     "param, or set the base URL in Settings → Model providers")  # fmt: skip

    def pregel(self) -> None:
        """A graph built by hand: function nodes wired to channels, no edges."""
        spec = self.spec
        if spec.edges or spec.conditional_edges or spec.entry or spec.finish:
            self.add("error", "pregel-edges", "a graph built by hand has no edges: its nodes run "
                     "when a channel they subscribe to is written", None, "$.pregel",
                     "wire the nodes with their channels, or turn pregel off")  # fmt: skip
        for i, node in enumerate(spec.nodes):
            path = f"$.nodes[{i}]"
            wiring = getattr(node, "channels", None)
            if wiring is None:
                self.add("error", "pregel-node", f"{node.id!r} is not wired to channels: in a graph "
                         "built by hand each node is a function that subscribes to channels",
                         node.id, path)  # fmt: skip
                continue
            if (wiring.subscribe_only is None) == (not wiring.subscribe_to):
                self.add("error", "pregel-node", f"{node.id!r} needs subscribe_only (one channel) "
                         "or subscribe_to (channels), one of them", node.id, f"{path}.channels")  # fmt: skip
            reads = [wiring.subscribe_only] if wiring.subscribe_only else wiring.subscribe_to
            for field, names in (("subscribe", reads), ("write_to", wiring.write_to)):
                for name in names:
                    self.key(name, node.id, f"{path}.channels.{field}", writing=field == "write_to")
        if not any(k.input for k in spec.state):
            self.add("error", "pregel-input", "no input channel: nothing a run is given reaches "
                     "the nodes", None, "$.state", "mark a key as input")  # fmt: skip

    def graph_is_node(self) -> None:
        """A graph that is its one node's graph has nothing around that node to run."""
        spec = self.spec
        nodes = spec.nodes
        fit = len(nodes) == 1 and (
            isinstance(nodes[0], AgentNode)
            or (isinstance(nodes[0], FunctionNode) and nodes[0].import_path is not None)
        )
        if not fit:
            self.add("error", "graph-is-node", "graph_is_node needs exactly one node, an agent or "
                     "a function by import path (a compiled graph such as an @entrypoint)", None,
                     "$.graph_is_node", "turn graph_is_node off to run the nodes as a graph")  # fmt: skip
        elif (
            spec.edges or spec.conditional_edges or [*spec.entry, *spec.finish] != [nodes[0].id] * 2
        ):
            self.add("error", "graph-is-node", f"the graph is node {nodes[0].id!r} itself: it "
                     "can have no edges of its own besides START → it → END", nodes[0].id,
                     "$.graph_is_node", "turn graph_is_node off to add edges")  # fmt: skip
        elif isinstance(nodes[0], AgentNode):
            for when in ("before", "after"):
                if nodes[0].id in getattr(spec.breakpoints, when):
                    self.add("warning", "graph-is-node", f"the graph is agent {nodes[0].id!r} "
                             f"itself: a run starts and ends with it, so a breakpoint {when} it "
                             "never pauses", nodes[0].id, f"$.breakpoints.{when}",
                             "use Step to pause after each superstep")  # fmt: skip

    def writes(self, node: Any) -> set[str]:
        return _NODE_WRITES[node.kind](self, node)

    def run(self) -> list[Finding]:
        self.duplicates()
        self.state()
        for i, node in enumerate(self.spec.nodes):
            self.node(i, node)
        check_agents(self.spec, self.add)
        check_deep_agents(self.spec, self.add, self.base_dir)
        check_models(self.spec, self.add)
        check_code(self.spec, self.add)
        self.endpoints()
        if self.spec.pregel:  # channels, not edges: none of the StateGraph shape rules apply
            self.pregel()
            return self.findings
        self.edges()
        for i, node in enumerate(self.spec.nodes):
            if getattr(node, "channels", None) is not None:
                self.add("warning", "pregel-node", f"{node.id!r} is wired to channels, which only "
                         "a graph built by hand (pregel) uses", node.id, f"$.nodes[{i}].channels")  # fmt: skip
        if self.spec.graph_is_node:
            self.graph_is_node()
        if not any(
            f.code in ("duplicate-id", "unknown-target", "bad-endpoint") for f in self.findings
        ):
            self.shape()
            self.parallel_writes()
        return self.findings


def _is_function(node: Any) -> bool:
    return isinstance(node, FunctionNode) and not node.destinations


def _goto_may_not_happen(node: Any) -> bool:
    """Whether the node may return without going to any of its destinations: code (a function,
    an agent's tools) may or may not return a Command; a set-state node's `goto` always goes."""
    return not isinstance(node, SetStateNode) or not node.goto


def _labels(edge: ConditionalEdge) -> list[Any]:
    if isinstance(edge.path_map, dict):
        return list(edge.path_map)
    return list(range(len(edge.path_map or [])))


def _choices(spec: GraphSpec, source: str) -> list[list[frozenset[tuple[str, bool]]]]:
    """For each router and goto leaving `source`: the task sets it may start (one per choice).

    Code routers are taken to pick one target; Sends made in code are not analysed."""
    out = []
    for edge in spec.conditional_edges:
        if edge.source != source:
            continue
        if isinstance(edge.router, SendRouter):
            out.append([frozenset({(edge.router.target, True)}), frozenset()])
            continue
        targets = sorted(t for t in (possible_targets(edge) or set()) if t != END)
        many = isinstance(edge.router, ExpressionRouter) and expressions.returns_many(
            edge.router.expression
        )
        if many:
            out.append([frozenset((t, False) for t in targets)])
        else:
            out.append([frozenset({(t, False)}) for t in targets] or [frozenset()])
    node = spec.node(source)
    dests = [d for d in getattr(node, "destinations", []) if d != END]
    if dests:
        out.append([frozenset({(d, False)}) for d in dests] + [frozenset()])
    return out


def _supersteps(spec: GraphSpec) -> Iterable[frozenset[tuple[str, bool]]]:
    """Task sets (node, sent-several-times) that can run together, explored abstractly."""
    plain: dict[str, set[str]] = {}
    joins: list[tuple[frozenset[str], str]] = []
    for _, _, sources, target in spec.all_edges():
        if len(sources) == 1:
            plain.setdefault(sources[0], set()).add(target)
        else:
            joins.append((frozenset(sources), target))

    def step(tasks: frozenset, seen: frozenset) -> Iterable[tuple[frozenset, frozenset]]:
        fixed: set[tuple[str, bool]] = set()
        options: list[list[frozenset]] = []
        names = {name for name, _ in tasks}
        for name in sorted(names):
            fixed |= {(t, False) for t in plain.get(name, ()) if t != END}
            options += _choices(spec, name)
        seen = seen | {
            (j, n) for j, (sources, _) in enumerate(joins) for n in names if n in sources
        }
        for j, (sources, target) in enumerate(joins):
            if all((j, s) in seen for s in sources):
                seen = frozenset(x for x in seen if x[0] != j)
                if target != END:
                    fixed.add((target, False))
        for combo in itertools.islice(itertools.product(*options), 256):
            yield frozenset(fixed.union(*combo)), seen

    first = list(step(frozenset({(START, False)}), frozenset()))
    frontier = [(_merge_pulls(t), s) for t, s in first]
    visited: set = set()
    while frontier and len(visited) < MAX_STATES:
        state = frontier.pop()
        if state in visited or not state[0]:
            continue
        visited.add(state)
        yield state[0]
        frontier += [(_merge_pulls(t), s) for t, s in step(*state)]


def _merge_pulls(tasks: frozenset[tuple[str, bool]]) -> frozenset[tuple[str, bool]]:
    """A node pulled by several edges runs once; a sent node runs once per Send."""
    sent = {n for n, multi in tasks if multi}
    return frozenset((n, multi) for n, multi in tasks if multi or n not in sent) | frozenset(
        (n, True) for n in sent if (n, False) in tasks
    )


def validate(
    spec: GraphSpec, *, base_dir: str | os.PathLike[str] | None = None, _depth: int = 0
) -> list[Finding]:
    """Every finding for a loaded spec, errors first; never raises."""
    findings = _Checker(spec, base_dir, _depth).run()
    return sorted(findings, key=lambda f: f.severity != "error")


_NODE_CHECKS = by_kind(
    {
        "function": _Checker.function_node,
        "set_state": _Checker.set_state_node,
        "model": _Checker.messages_node,
        "tools": _Checker.messages_node,
        "agent": _Checker.agent_node,
        "interrupt": _Checker.interrupt_node,
        "subgraph": _Checker.subgraph_node,
    },
    "the validator's node checks",
)

_NODE_WRITES = by_kind(
    {
        "function": lambda checker, node: set(node.writes),
        "set_state": lambda checker, node: set(node.values),
        "model": lambda checker, node: {node.messages_key},
        "tools": lambda checker, node: {node.messages_key},
        "agent": lambda checker, node: {node.messages_key},
        "interrupt": lambda checker, node: {node.resume_key},
        "subgraph": lambda checker, node: (
            {k.name for k in checker.children[node.id].state if k.output and not k.managed}
            if node.id in checker.children
            else set()
        ),
    },
    "the keys each node kind writes",
)

__all__ = ["validate"]
