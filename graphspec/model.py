"""The spec models: what a drawn graph saves as JSON.

A spec is a `GraphSpec`: state keys with their reducers, nodes of several kinds, plain, join and
conditional edges, agents, subgraphs, breakpoints, run inputs and the canvas view. Models forbid
unknown fields, so a typo is reported with its JSON path instead of being dropped. Graph-level
checks (unknown targets, unreachable nodes, ...) are the validator's job, not the loader's.

The on-disk form (`graphspec.io`) writes fields in declaration order and leaves out defaults, so
loading and saving an unchanged spec gives the same bytes.
"""

from __future__ import annotations

import ast
import keyword
from typing import Annotated, Any, Literal, Union

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    StringConstraints,
    model_validator,
)

from engine.agents.hooks import HOOKS
from engine.constants import END, START
from graphspec.field_docs import describe_fields
from graphspec.state_types import MANAGED_TYPES, STATE_TYPES

SPEC_VERSION = 2
"""The version this code writes. `graphspec.io.migrate` upgrades older documents step by step."""

RESERVED_NAMES = frozenset({"START", "END", "state", "item", START, END})
"""Names no state key or node may take: they mean something in expressions or to the engine."""

MAX_TEXT = 100_000


def _not_keyword(name: str) -> str:
    if keyword.iskeyword(name) or name in RESERVED_NAMES:
        raise ValueError(f"{name!r} is a reserved name")
    return name


Identifier = Annotated[
    str,
    StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,63}$"),
    AfterValidator(_not_keyword),
]
"""A node id, state key or function name: a Python identifier, so exported code keeps the name."""

Target = Annotated[str, StringConstraints(min_length=1, max_length=64)]
"""A node id, or `__start__` / `__end__` where an edge allows it."""

Expression = Annotated[str, StringConstraints(min_length=1, max_length=2000)]
"""A safe expression (`graphspec.expressions`): state keys by name, comparisons, arithmetic, ..."""

ImportPath = Annotated[
    str,
    StringConstraints(pattern=r"^[^\W\d][\w.]*:[^\W\d][\w.]*$", max_length=300),
]
"""`package.module:function`, identifiers as Python's (a program file `条件边.py` is a module)."""

MAX_CODE_DEPTH = 200


def _not_too_deep(code: str) -> str:
    """Code nested deeper than MAX_CODE_DEPTH is refused at load: Python's own parser, compiler
    and every AST visitor (validator, export) would hit RecursionError on it. A syntax error is
    left for the validator to report with its line."""
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        if "too many nested" in str(exc.msg):  # the parser's own nesting limit
            raise ValueError(f"code nested too deeply ({exc.msg})") from None
        return code
    except ValueError:
        return code
    except (RecursionError, MemoryError):
        raise ValueError(f"code nested too deeply (more than {MAX_CODE_DEPTH} levels)") from None
    stack = [(tree, 0)]
    while stack:  # a loop, not recursion, for the same reason
        node, depth = stack.pop()
        if depth > MAX_CODE_DEPTH:
            raise ValueError(f"code nested too deeply (more than {MAX_CODE_DEPTH} levels)")
        stack += [(child, depth + 1) for child in ast.iter_child_nodes(node)]
    return code


Code = Annotated[str, StringConstraints(max_length=MAX_TEXT), AfterValidator(_not_too_deep)]
Text = Annotated[str, StringConstraints(max_length=MAX_TEXT)]


def portable_path(path: str) -> str:
    """A relative path as a spec keeps it: folders separated by `/` on every OS (Windows reads
    `/` too), so a spec saved on Windows opens on macOS and Linux. A `\\` is read as one."""
    return path.replace("\\", "/")


SpecPath = Annotated[
    str, StringConstraints(min_length=1, max_length=1000), AfterValidator(portable_path)
]
"""A file the spec names, relative to the spec's folder."""


class _Model(BaseModel):
    # No NaN or infinity anywhere (JSON has neither; the canvas cannot place an item at NaN).
    # A field's docstring is its description: schema.json and the inspector's tooltips show it.
    # graphspec.field_docs sets them, with one parse of the module instead of pydantic's
    # `use_attribute_docstrings` (a parse per class); each model's schema is built when the
    # model is first used, by then described.
    model_config = ConfigDict(
        extra="forbid", validate_assignment=True, allow_inf_nan=False, defer_build=True
    )

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        describe_fields(cls)


ArgumentName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,99}$")]
"""A keyword argument's name (any Python identifier: no name is reserved here)."""


class Argument(_Model):
    """One argument of a `Call`: a JSON value (`value`); the object a code reference gives
    (`ref`: an import path, or another call); or a list (`items`) or dict (`entries`) some of
    whose members are references. Empty, it is None."""

    value: JsonValue = None
    ref: CodeRef | None = None
    items: list[Argument] | None = None
    entries: dict[str, Argument] | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Argument:
        given = [n for n in ("ref", "items", "entries") if getattr(self, n) is not None]
        if len(given) > 1 or (given and self.value is not None):
            raise ValueError("give one of `value`, `ref`, `items` or `entries`")
        return self


class Call(_Model):
    """The arguments a code reference's callable is called with: the reference is then the
    value the call returns (`create_handoff_tool(agent_name="bob")`, `add_messages(format=...)`),
    as the program made it with a library's factory."""

    args: list[Argument] = []
    kwargs: dict[ArgumentName, Argument] = {}


class CodeRef(_Model):
    """Python code: inline source defining `function`, or an import path `module:function`;
    with `call`, the value of calling it with those arguments.

    Code runs only for a trusted spec (`graphspec.trust`).
    """

    code: Code | None = None
    function: Identifier | None = None
    import_path: ImportPath | None = None
    call: Call | None = None
    """Call what `import_path` (or `function`) names with these arguments: the reference is
    what the call returns (a library factory's tool, closure or partial, as the program made
    it). Code: runs only for a trusted spec."""

    @model_validator(mode="after")
    def _one_source(self) -> CodeRef:
        if (self.code is None) == (self.import_path is None):
            raise ValueError("give exactly one of `code` (with `function`) or `import_path`")
        if self.code is not None and self.function is None:
            raise ValueError("inline `code` needs `function`: the name of the function it defines")
        return self


# ------------------------------------------------------------------ state


StateType = Literal[tuple(STATE_TYPES)]  # type: ignore[valid-type]  # graphspec.state_types
"""`remaining_steps` and `is_last_step` are managed values the runtime fills in per task."""

Reducer = Literal["none", "add", "add_messages", "merge", "custom"]
"""How writes merge: `none` is last value (one write per superstep), `add` is `operator.add`,
`merge` a shallow dict merge, `custom` a CodeRef `(old, new) -> merged`."""


class StateKey(_Model):
    name: Identifier
    type: StateType = "any"
    reducer: Reducer = "none"
    custom_reducer: CodeRef | None = None
    input: bool = True
    """Part of the graph's input schema."""
    output: bool = True
    """Part of the graph's output schema; a key that is neither input nor output is private."""
    description: Text = ""
    default: JsonValue = None
    """What reading the key by name gives while it has no value (nothing wrote it and the input
    did not give it), as langgraph gives a dataclass or pydantic state's field its default: a
    counter at 0 runs on `{}`. It is not written to the state. None: no default."""
    channel: Literal["ephemeral", "topic", "accumulating_topic"] | None = None
    """In a graph built by hand (`GraphSpec.pregel`), a channel other than the one its reducer
    gives (LastValue, or BinaryOperatorAggregate with the reducer): `ephemeral` keeps a value
    for the step after the one that wrote it (EphemeralValue), `topic` gives the values one step
    wrote as a list (Topic), `accumulating_topic` every value written so far (Topic(accumulate=
    True))."""

    @property
    def managed(self) -> bool:
        return self.type in MANAGED_TYPES

    @model_validator(mode="after")
    def _default_fits(self) -> StateKey:
        if self.default is not None and not STATE_TYPES[self.type].fits(self.default):
            raise ValueError(
                f"default {self.default!r} is not a value of type {self.type!r}"
                if not self.managed
                else f"a {self.type} key takes no default: the runtime fills it in"
            )
        return self


# ------------------------------------------------------------------ policies and layout


class Position(_Model):
    x: float = 0.0
    y: float = 0.0


class RetrySpec(_Model):
    initial_interval: Annotated[float, Field(ge=0, le=3600)] = 0.5
    backoff_factor: Annotated[float, Field(ge=1, le=100)] = 2.0
    max_interval: Annotated[float, Field(ge=0, le=3600)] = 128.0
    max_attempts: Annotated[int, Field(ge=1, le=100)] = 3
    jitter: bool = True
    retry_on: list[Identifier] = []
    """Builtin exception class names to retry on; empty means langgraph's default rule."""


class CacheSpec(_Model):
    ttl: Annotated[int, Field(ge=1)] | None = None


# ------------------------------------------------------------------ models, tools, middleware


class ScriptedToolCall(_Model):
    name: Identifier
    args: dict[str, JsonValue] = {}
    id: Annotated[str, StringConstraints(max_length=200)] = ""


class ScriptedMessage(_Model):
    content: Text = ""
    tool_calls: list[ScriptedToolCall] = []


class ModelSettings(_Model):
    """A chat model: `scripted` replays `responses` offline; any other provider goes through
    langchain's `init_chat_model(f"{provider}:{model}", **params)`; with `factory`, the
    program's own model."""

    provider: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_\-]{0,40}$")] = "scripted"
    model: Annotated[str, StringConstraints(max_length=200)] = ""
    responses: list[ScriptedMessage] = []
    params: dict[str, JsonValue] = {}
    factory: CodeRef | None = None
    """A function returning the chat model, called when the graph is built: a model of a class
    no provider names (a program's own), kept as the program made it. Given, it is the model and
    the fields above are not used. Code: runs only for a trusted spec."""


class ToolSpec(CodeRef):
    """A tool: its function (wrapped as a tool with `name`, `description` and
    `return_direct`); with `call`, the tool the call returns, used as it is (its name and
    description are the tool's, shown here)."""

    name: Identifier
    description: Text = ""
    return_direct: bool = False
    """The tool's result ends the agent's turn: it is the answer, with no model call after it."""


PrebuiltMiddlewareName = Literal[
    "human_in_the_loop",
    "model_call_limit",
    "tool_call_limit",
    "model_retry",
    "tool_retry",
    "model_fallback",
    "pii",
    "summarization",
    "todo_list",
    "tool_error_to_message",
]

PREBUILT_MIDDLEWARE: dict[str, str] = {
    "human_in_the_loop": "HumanInTheLoopMiddleware",
    "model_call_limit": "ModelCallLimitMiddleware",
    "tool_call_limit": "ToolCallLimitMiddleware",
    "model_retry": "ModelRetryMiddleware",
    "tool_retry": "ToolRetryMiddleware",
    "model_fallback": "ModelFallbackMiddleware",
    "pii": "PIIMiddleware",
    "summarization": "SummarizationMiddleware",
    "todo_list": "TodoListMiddleware",
    "tool_error_to_message": "ToolErrorMiddleware",
}
"""Prebuilt middleware name -> its class in `langchain.agents.middleware` (and the engine's
mirror, `engine.agents.middleware`); `settings` are the class's keyword arguments."""

HookName = Literal[HOOKS]  # type: ignore[valid-type]  # the engine's names, in its order


class PrebuiltMiddleware(_Model):
    kind: Literal["prebuilt"]
    name: PrebuiltMiddlewareName
    settings: dict[str, JsonValue] = {}


class CustomMiddleware(_Model):
    """Hook functions, each wrapped by its langchain decorator; or, with `import_path`, a
    program's own `AgentMiddleware`: an instance used as it is, or a subclass built with
    `settings`."""

    kind: Literal["custom"]
    name: Identifier
    hooks: dict[HookName, CodeRef] = {}
    can_jump_to: list[Literal["end", "tools", "model"]] = []
    import_path: ImportPath | None = None
    """`module:name` of an AgentMiddleware instance or subclass, instead of `hooks`."""
    build: bool = False
    """`import_path` names an AgentMiddleware subclass, built with `settings`; otherwise it
    names an instance, used as it is."""
    settings: dict[str, JsonValue] = {}
    """The subclass's keyword arguments."""
    call: Call | None = None
    """The arguments `import_path` (a class, or a function making middleware) is called with,
    each JSON data or an object by reference: a library's middleware given the program's own
    objects, as the program wrote the call. Instead of `build` and `settings`; code."""
    overrides: list[HookName] = []
    """The hooks the imported middleware overrides, as read when it was imported (shown; the
    object runs as it is)."""

    @model_validator(mode="after")
    def _one_source(self) -> CustomMiddleware:
        if self.import_path is not None and (self.hooks or self.can_jump_to):
            raise ValueError("give `hooks` (and `can_jump_to`) or `import_path`, not both")
        if self.import_path is None and (self.build or self.overrides):
            raise ValueError("`build` and `overrides` belong to an `import_path` middleware")
        if self.settings and not self.build:
            raise ValueError("`settings` are a built middleware's (set `build`)")
        if self.call is not None and (self.import_path is None or self.build):
            raise ValueError("`call` belongs to an `import_path` middleware, instead of `build`")
        return self


Middleware = Annotated[Union[PrebuiltMiddleware, CustomMiddleware], Field(discriminator="kind")]


class ResponseFormat(_Model):
    """Structured output: the agent's answer parsed into `schema_class`, written to the
    `structured_response` key."""

    schema_class: ImportPath
    """The schema by import path: a pydantic model, a dataclass or a TypedDict."""
    strategy: Literal["auto", "tool", "provider"] = "auto"
    """`auto` passes the class itself (create_agent picks a strategy; create_react_agent asks the
    model once more for it); `tool` wraps it in ToolStrategy, `provider` in ProviderStrategy."""


McpName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_.\-]{0,127}$")]
"""An MCP tool's, header's or environment variable's name (`get_weather`, `X-Api-Key`)."""


class McpSecret(_Model):
    """A value an MCP server needs that the spec never holds (an HTTP header, a command's
    environment variable): read when the server is called, from the user's environment variable
    `env` if set, else the OS keychain (service `superstep-studio`, user `mcp:SERVER:NAME`)."""

    name: McpName
    """The header (HTTP) or environment variable (command) the server gets."""
    env: Annotated[str, StringConstraints(pattern=r"^([A-Za-z_][A-Za-z0-9_]{0,127})?$")] = ""
    """The user's environment variable holding the value; empty: the keychain only."""
    prefix: Annotated[str, StringConstraints(max_length=40)] = ""
    """Written before the value (`Bearer `)."""


class McpServer(_Model):
    """An MCP server the agent takes tools from, through langchain-mcp-adapters: a local
    `command` speaking stdio (running it is running code: trust), or a streamable HTTP `url`."""

    name: Identifier
    transport: Literal["stdio", "streamable_http"] = "stdio"
    command: Annotated[str, StringConstraints(max_length=1000)] = ""
    """The program to start (stdio), found on PATH or by its path."""
    args: list[Annotated[str, StringConstraints(max_length=1000)]] = []
    """The command's arguments."""
    url: Annotated[str, StringConstraints(max_length=2000)] = ""
    """The server's endpoint (streamable HTTP), `http://` or `https://`."""
    secrets: list[McpSecret] = []
    """Headers (HTTP) or environment variables (stdio) whose values stay out of the spec."""
    tools: list[McpName] = []
    """The server's tools the agent gets, by name."""

    @model_validator(mode="after")
    def _one_transport(self) -> McpServer:
        if self.transport == "stdio" and (self.url or not self.command.strip()):
            raise ValueError("a stdio server takes a `command` (and `args`), not a `url`")
        if self.transport == "streamable_http":
            if self.command or self.args:
                raise ValueError("a streamable_http server takes a `url`, not a `command`")
            if not self.url.lower().startswith(("http://", "https://")):
                raise ValueError("a streamable_http server's `url` starts with http:// or https://")
        return self


class AgentSpec(_Model):
    """An agent as `create_agent` builds it; middleware run in list order (after_* reversed)."""

    id: Identifier
    model: ModelSettings = ModelSettings()
    system_prompt: Text = ""
    tools: list[ToolSpec] = []
    mcp_servers: list[McpServer] = []
    """MCP servers the agent takes the chosen tools of, after `tools`."""
    middleware: list[Middleware] = []
    unnamed: bool = False
    """Built without a name, so its replies carry none (otherwise the agent is named after its
    node, and its AI messages carry that name)."""
    deep: DeepAgent | None = None
    """Built by deepagents' create_deep_agent (files, subagents, review) instead of create_agent."""
    builder: Literal["create_agent", "create_react_agent"] = "create_agent"
    """The function that builds it: langgraph's create_react_agent keeps an imported ReAct
    agent's model hooks and structured output as they run there."""
    response_format: ResponseFormat | None = None
    state_schema: ImportPath | None = None
    """The agent's own state class by import path (its extra keys are the agent's state)."""
    context_schema: ImportPath | None = None
    """The class of the run's `context` by import path."""
    pre_model_hook: CodeRef | None = None
    """create_react_agent's hook run as a node before each model call."""
    post_model_hook: CodeRef | None = None
    """create_react_agent's hook run as a node after each model call."""

    @model_validator(mode="after")
    def _builder_fits(self) -> AgentSpec:
        if self.builder == "create_react_agent":
            if self.middleware or self.deep is not None:
                raise ValueError("a create_react_agent agent takes no middleware and is not deep")
            if self.response_format is not None and self.response_format.strategy != "auto":
                raise ValueError("create_react_agent takes a response_format schema only ('auto')")
        elif self.pre_model_hook is not None or self.post_model_hook is not None:
            raise ValueError("pre_model_hook and post_model_hook are create_react_agent's")
        return self


# ------------------------------------------------------------------ nodes


class _NodeBase(_Model):
    id: Identifier
    """The node's name in the graph: edges, routers and the exported code use it."""
    label: Annotated[str, StringConstraints(max_length=200)] = ""
    """The title drawn on the canvas; the id when empty."""
    description: Text = ""
    """What the node is for (the exported function's docstring)."""
    position: Position | None = None
    retry: RetrySpec | None = None
    cache: CacheSpec | None = None
    defer: bool = False


class NodeChannels(_Model):
    """How a node of a graph built by hand (`GraphSpec.pregel`) is wired, as langgraph's
    `NodeBuilder` wires it: the channels that run it and the ones its result is written to."""

    subscribe_only: Identifier | None = None
    """The one channel whose update runs the node; the node gets that channel's value."""
    subscribe_to: list[Identifier] = []
    """Channels whose update runs the node; it gets them as a dict (channel -> value)."""
    write_to: list[Identifier] = []
    """The channels the node's return value is written to."""


class FunctionNode(_NodeBase):
    """Python code: inline (`code` defining `function`) or `import_path`."""

    kind: Literal["function"]
    code: Code | None = None
    """Inline Python source that defines `function`."""
    function: Identifier | None = None
    """The name of the function `code` defines: the node runs it."""
    import_path: ImportPath | None = None
    """`package.module:function`, instead of inline code."""
    call: Call | None = None
    """Call what `import_path` names with these arguments: the node runs what the call returns
    (a library factory's closure or runnable, as the program made it)."""
    writes: list[Identifier] = []
    """Keys the function writes, as far as the designer knows: used by the validator only."""
    destinations: list[Target] = []
    """Nodes a returned `Command(goto=...)` may go to (drawn as edges)."""
    channels: NodeChannels | None = None
    """In a graph built by hand (`GraphSpec.pregel`): the channels that run the node and the
    ones it writes."""

    @model_validator(mode="after")
    def _one_source(self) -> FunctionNode:
        self.code_ref()
        return self

    def code_ref(self) -> CodeRef:
        return CodeRef(code=self.code, function=self.function, import_path=self.import_path,
                       call=self.call)  # fmt: skip


class SetStateNode(_NodeBase):
    """Writes each key in `values` from an expression over the node's input; with `goto`, returns
    `Command(update=values, goto=<expression>)` instead (a handoff)."""

    kind: Literal["set_state"]
    values: dict[Identifier, Expression] = {}
    """State key -> the expression whose value the node writes to it."""
    goto: Expression | None = None
    """An expression naming the node(s) to go to next (a handoff); list them in destinations."""
    destinations: list[Target] = []


class ModelNode(_NodeBase):
    """Calls a chat model on `messages_key` and appends its reply."""

    kind: Literal["model"]
    model: ModelSettings = ModelSettings()
    system_prompt: Text = ""
    """Sent before the conversation on every call."""
    messages_key: Identifier = "messages"
    """The state key holding the conversation."""


class ToolsNode(_NodeBase):
    """Runs the tool calls of the last AI message in `messages_key` (langgraph's ToolNode)."""

    kind: Literal["tools"]
    tools: list[ToolSpec] = []
    messages_key: Identifier = "messages"
    handle_tool_errors: bool | str | None = None
    """What a failing tool sends the model (ToolNode's handle_tool_errors): unset, langgraph's
    default (bad arguments come back as an error message, other exceptions are raised); true,
    every exception's text; a string, that text instead; false, every exception is raised."""


class AgentNode(_NodeBase):
    """An agent from `agents` (compiled with `create_agent`), run as one node on `messages_key`."""

    kind: Literal["agent"]
    agent: Identifier
    messages_key: Identifier = "messages"
    destinations: list[Target] = []
    """Nodes a tool's `Command(goto=..., graph=Command.PARENT)` may hand the conversation to
    (drawn as edges): the multi-agent handoff."""


class InterruptNode(_NodeBase):
    """Pauses with `prompt` (and the `payload` expression, if any); the resume value is written to
    `resume_key`."""

    kind: Literal["interrupt"]
    prompt: Text = ""
    """The question shown to whoever resumes the run."""
    payload: Expression | None = None
    """An expression whose value is sent with the prompt."""
    resume_key: Identifier
    """The state key the resume value is written to."""


class SubgraphNode(_NodeBase):
    """Runs a graph from `subgraphs` as one node; keys are shared by name."""

    kind: Literal["subgraph"]
    subgraph: Identifier
    """The id of the graph in `subgraphs` this node runs."""


Node = Annotated[
    Union[FunctionNode, SetStateNode, ModelNode, ToolsNode, AgentNode, InterruptNode, SubgraphNode],
    Field(discriminator="kind"),
]


# ------------------------------------------------------------------ edges and routers


class Edge(_Model):
    """A plain edge; with several sources it is a join: the target waits for all of them."""

    id: Identifier
    sources: Annotated[list[Target], Field(min_length=1)]
    """The nodes it leaves; with several, the target runs once all of them have."""
    target: Target
    """The node it leads to."""
    label: Annotated[str, StringConstraints(max_length=200)] = ""
    """Text drawn on the edge."""


class ExpressionRouter(_Model):
    """Returns a node name (or a path_map key), or a list of them."""

    kind: Literal["expression"]
    expression: Expression


class CodeRouter(CodeRef):
    """Python returning names or `Send` packets."""

    kind: Literal["code"]


class SendRouter(_Model):
    """One `Send(target, {key: expr})` per element of `over`; expressions see the element as
    `item`."""

    kind: Literal["send"]
    target: Target
    over: Expression
    input: dict[Identifier, Expression] = {}


Router = Annotated[Union[ExpressionRouter, CodeRouter, SendRouter], Field(discriminator="kind")]


class ConditionalEdge(_Model):
    """After `source`, the router picks where to go; `path_map` maps its results (labels) to
    nodes, or lists the possible targets."""

    id: Identifier
    source: Target
    """The node after which the router runs."""
    router: Router
    path_map: (
        dict[Annotated[str, StringConstraints(max_length=200)], Target] | list[Target] | None
    ) = None


# ------------------------------------------------------------------ subgraphs, run, view


class Subgraph(_Model):
    """A graph run as a node: inline (`graph`) or by a file path relative to this spec."""

    id: Identifier
    graph: GraphSpec | None = None
    file: SpecPath | None = None

    @model_validator(mode="after")
    def _one_source(self) -> Subgraph:
        if (self.graph is None) == (self.file is None):
            raise ValueError("give exactly one of `graph` (inline) or `file`")
        return self


NodeName = Annotated[str, StringConstraints(min_length=1, max_length=200)]
"""A node's name as its graph has it (a graph from code, an agent's `Middleware.before_model`)."""


class Breakpoint(_Model):
    """A breakpoint the studio's debugger keeps beyond `interrupt_before`/`interrupt_after`: the
    run waits inside the task (a node of the graph, of a subgraph, an agent's tool or middleware
    hook) while its input is shown and may be edited."""

    at: Literal["before", "after", "error"] = "before"
    """Pause before the node runs, after it returned, or when it raises (then retry it)."""
    node: NodeName
    """The node of this graph; `*` with `at` error: any node, at any depth."""
    inside: list[NodeName] = []
    """The path below `node` when it runs a graph (a subgraph, an agent): the node at each level,
    e.g. `["tools"]` for an agent's tools or `["PII.before_model"]` for a middleware hook."""
    tool: Annotated[str, StringConstraints(max_length=200)] = ""
    """On a tools node: pause only for a call of this tool (its arguments are the state)."""
    condition: Annotated[str, StringConstraints(max_length=2000)] = ""
    """A safe expression on the task's input state (`len(messages) > 4`): pause only when true."""
    hit: Annotated[int, Field(ge=0, le=1_000_000)] = 0
    """Pause only on this visit of the node in a run (1 the first); 0 on every visit."""
    enabled: bool = True


class Breakpoints(_Model):
    before: list[Target] = []
    after: list[Target] = []
    points: list[Breakpoint] = []
    """The debugger's breakpoints (conditions, hit counts, inside subgraphs, on errors); a plain
    one (this graph's node, no condition or count, enabled) is kept in `before`/`after`."""


class RunInput(_Model):
    """A saved input to run the graph with; `resume` answers its interrupts in order."""

    name: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    value: dict[str, JsonValue] = {}
    resume: list[JsonValue] = []
    description: Text = ""


class Viewport(_Model):
    x: float = 0.0
    y: float = 0.0
    zoom: Annotated[float, Field(gt=0, le=100)] = 1.0


class Group(_Model):
    id: Identifier
    label: Annotated[str, StringConstraints(max_length=200)] = ""
    nodes: list[Identifier] = []
    color: Annotated[str, StringConstraints(max_length=40)] = ""


class Note(_Model):
    id: Identifier
    text: Text = ""
    position: Position = Position()


class View(_Model):
    viewport: Viewport = Viewport()
    groups: list[Group] = []
    notes: list[Note] = []


class GraphSpec(_Model):
    """A whole graph. `entry`/`finish` are shorthands for edges from START / to END."""

    version: Annotated[int, Field(ge=1)] = SPEC_VERSION
    """The spec format's version; older files are migrated on load."""
    name: Annotated[str, StringConstraints(max_length=200)] = ""
    """The graph's title."""
    description: Text = ""
    """What the graph does (the exported module's docstring)."""
    state: list[StateKey] = []
    nodes: list[Node] = []
    edges: list[Edge] = []
    conditional_edges: list[ConditionalEdge] = []
    entry: list[Target] = []
    finish: list[Target] = []
    agents: list[AgentSpec] = []
    subgraphs: list[Subgraph] = []
    breakpoints: Breakpoints = Breakpoints()
    module_file: SpecPath | None = None
    """The Python file the graph was imported from, relative to this spec: a run loads it on the
    engine first, so the import paths of its functions resolve to it (`superstep import`)."""
    state_class: ImportPath | None = None
    """The state's own class by import path (a pydantic model or dataclass, kept as written so
    its defaults and validation stay); `state` lists its fields for drawing and checks."""
    context_schema: ImportPath | None = None
    """The run context's class by import path (the builder's `context_schema`): each run is
    given a context of it, which nodes read as `runtime.context`."""
    checkpointer: Literal["memory"] | None = None
    """Compiled with an in-memory saver, as the imported program was (the studio and `superstep
    run` put their own saver in its place)."""
    store: Literal["memory"] | None = None
    """Compiled with an in-memory store (`InMemoryStore()`), for nodes that read `runtime.store`."""
    store_path: ImportPath | None = None
    """Compiled with the program's own store, by import path (a module-level store, with the
    data it holds), in place of `store`."""
    cache: Literal["memory"] | None = None
    """Compiled with an in-memory node cache (`InMemoryCache()`), for nodes with a cache policy."""
    pregel: bool = False
    """A graph built by hand from channels (langgraph's `Pregel` with `NodeBuilder` nodes), not
    a StateGraph: each state key is a channel, the input and output keys are its input and
    output channels, and each node (a function) is run by the channels it subscribes to and
    writes its result to others (`FunctionNode.channels`); there are no edges."""
    graph_is_node: bool = False
    """The graph is its one node's own graph, not a graph that calls it: the agent the node
    builds, or the compiled `@entrypoint` it points at, given the run's saver, store and cache.
    A program whose agent keeps thread-scoped private state (a call counter) or whose
    entrypoint keeps a value between runs (`previous`) is this, so its threads keep what the
    program's keep."""
    recursion_limit: Annotated[int, Field(ge=1, le=100_000)] | None = None
    """How many supersteps a run may take before it fails; the runtime's default when empty."""
    inputs: list[RunInput] = []
    view: View = View()

    # -------------------------------------------------------------- lookups

    def node(self, node_id: str) -> Any:
        return next((n for n in self.nodes if n.id == node_id), None)

    def key(self, name: str) -> StateKey | None:
        return next((k for k in self.state if k.name == name), None)

    def agent(self, agent_id: str) -> AgentSpec | None:
        return next((a for a in self.agents if a.id == agent_id), None)

    def subgraph(self, subgraph_id: str) -> Subgraph | None:
        return next((s for s in self.subgraphs if s.id == subgraph_id), None)

    def state_defaults(self) -> dict[str, Any]:
        """key -> its default, for the keys that have one (what expressions read while unset)."""
        return {k.name: k.default for k in self.state if k.default is not None}

    def drawn_node(self, task: str) -> str | None:
        """The node of this spec a task of its compiled graph runs in: the node of that name;
        in a `graph_is_node` spec its one node, whose agent draws its model, tools and hooks
        inside it; None for a task no node draws."""
        if self.node(task) is not None:
            return task
        if self.graph_is_node and self.nodes and not task.startswith("__"):
            return self.nodes[0].id
        return None

    def breakpoints_on(self, nodes: Any) -> dict[str, list[str]]:
        """The breakpoints on `nodes`, as a compiled graph's own. A `graph_is_node` spec's graph
        has its node's nodes: an entrypoint's one node has the spec node's name; an agent's
        graph has no node of the agent's name, so a breakpoint on it pauses nowhere (the
        validator warns)."""
        return {
            "interrupt_before_nodes": [n for n in self.breakpoints.before if n in nodes],
            "interrupt_after_nodes": [n for n in self.breakpoints.after if n in nodes],
        }

    def all_edges(self) -> list[tuple[str, Edge | None, tuple[str, ...], str]]:
        """(element id, edge or None, sources, target) for edges, entry and finish shorthands."""
        out: list[tuple[str, Edge | None, tuple[str, ...], str]] = []
        out += [(e.id, e, tuple(e.sources), e.target) for e in self.edges]
        out += [(f"entry:{t}", None, (START,), t) for t in self.entry]
        out += [(f"finish:{s}", None, (s,), END) for s in self.finish]
        return out


def call_text(source: CodeRef | FunctionNode) -> str:
    """A code reference as one line of Python, for people: `module:name`, with its call
    `module:name(arg=...)`, or the inline function's name."""
    head = source.import_path or f"<code>.{source.function}"
    if source.call is None:
        return head
    parts = [_argument_text(a) for a in source.call.args]
    parts += [f"{k}={_argument_text(a)}" for k, a in source.call.kwargs.items()]
    return f"{head}({', '.join(parts)})"


def _argument_text(arg: Argument) -> str:
    if arg.ref is not None:
        return call_text(arg.ref)
    if arg.items is not None:
        return "[" + ", ".join(_argument_text(a) for a in arg.items) + "]"
    if arg.entries is not None:
        return "{" + ", ".join(f"{k!r}: {_argument_text(a)}" for k, a in arg.entries.items()) + "}"
    return repr(arg.value)


# it builds on the models above; AgentSpec's `deep` (and the other forward references) resolve
# in this module's names when a model is first used
from graphspec.deep_agent_spec import DeepAgent  # noqa: E402

__all__ = [
    "SPEC_VERSION",
    "RESERVED_NAMES",
    "PREBUILT_MIDDLEWARE",
    "AgentNode",
    "AgentSpec",
    "Argument",
    "Breakpoints",
    "CacheSpec",
    "Call",
    "CodeRef",
    "CodeRouter",
    "NodeChannels",
    "ConditionalEdge",
    "CustomMiddleware",
    "Edge",
    "ExpressionRouter",
    "FunctionNode",
    "GraphSpec",
    "InterruptNode",
    "McpSecret",
    "McpServer",
    "ModelNode",
    "ModelSettings",
    "Node",
    "Position",
    "PrebuiltMiddleware",
    "ResponseFormat",
    "RetrySpec",
    "RunInput",
    "ScriptedMessage",
    "ScriptedToolCall",
    "SendRouter",
    "SetStateNode",
    "StateKey",
    "Subgraph",
    "SubgraphNode",
    "ToolSpec",
    "ToolsNode",
    "View",
    "call_text",
]
