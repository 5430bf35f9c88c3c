"""Validator checks for an agent's middleware: likely mistakes LangChain does not report, and
settings `create_agent` refuses, found before anything runs.

Warnings (LangChain runs the agent and says nothing; verified against langchain 1.2):

    jump-without-can-jump-to  a node hook sets `jump_to` but its middleware declares no
                              can_jump_to: the jump is ignored
    undeclared-jump           a hook jumps to a target can_jump_to does not list (the run fails
                              with KeyError when it takes that jump)
    unknown-tool              human_in_the_loop `interrupt_on` or a tool_call_limit `tool_name`
                              naming a tool the agent does not have: it never applies
    summarization-no-trigger  summarization without a trigger never summarizes
    summarization-keeps-all   keep >= trigger (same measure): when it triggers there is nothing
                              older than what it keeps, so it does not summarize

Errors (LangChain raises when the agent is built):

    no-limit                  model_call_limit / tool_call_limit with neither thread_limit nor
                              run_limit (ValueError)
    duplicate-middleware      two middleware with the same name (AssertionError "Please remove
                              duplicate middleware instances"); the name is the class name, with
                              [tool_name] / [pii_type] for tool call limits and PII, and the
                              function name for a custom hook
    bad-trigger               a summarization trigger written as a pair: JSON has no tuples, so
                              write {"messages": 50}
    missing-setting           a setting the middleware's constructor requires (HITL
                              interrupt_on, PII pii_type, summarization model, fallback
                              first_model) is absent or empty (TypeError)
    unknown-setting           a setting the constructor does not take (TypeError)
    bad-setting               the constructor refuses the value (its message is shown)
    unsupported-middleware    the engine has no class for this prebuilt middleware yet
    duplicate-tool            two tools with one name (the model could not tell them apart),
                              the agent's own or its MCP servers'
    duplicate-mcp-server      two MCP servers of one agent with one name
    mcp-no-tools              (warning) an MCP server none of whose tools the agent gets

Hook code is read as text (never run), so these checks work on untrusted specs.
"""

from __future__ import annotations

import ast
import inspect
import warnings
from collections.abc import Callable
from typing import Any

from engine.agents.hooks import NODE_HOOKS
from graphspec.mcp_servers import check_servers
from graphspec.middleware_settings import accepts_any_keyword, middleware_class, settings_for
from graphspec.model import (
    PREBUILT_MIDDLEWARE,
    AgentNode,
    AgentSpec,
    CodeRef,
    CustomMiddleware,
    GraphSpec,
    PrebuiltMiddleware,
)

MIDDLEWARE_TOOLS = {"todo_list": "write_todos"}
"""Tools a prebuilt middleware gives the agent."""

DEFAULT_KEEP = ("messages", 20)
"""SummarizationMiddleware's default `keep`."""

_REQUIRED_FIX = {
    "interrupt_on": 'name the tools to review, e.g. {"send_email": true}',
    "pii_type": "set pii_type: email, credit_card, ip, mac_address or url",
    "model": 'give the summarizing model as "provider:model", e.g. "scripted:summary"',
    "first_model": 'give the fallback model as "provider:model"',
}

Add = Callable[..., None]
"""The validator's `add(severity, code, message, element, path, fix=None)`."""


def jump_targets(code: str) -> list[str | None] | None:
    """What the code sets `jump_to` to (None for a value that is not a literal string), or None
    if it does not parse. Finds dict literals, `dict(jump_to=...)` and `x["jump_to"] = ...`."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return None

    def value(node: ast.AST | None) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        return None

    out: list[str | None] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            out += [value(v) for k, v in zip(node.keys, node.values, strict=True)
                    if value(k) == "jump_to"]  # fmt: skip
        elif isinstance(node, ast.Call):
            out += [value(kw.value) for kw in node.keywords if kw.arg == "jump_to"]
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Subscript) and value(target.slice) == "jump_to":
                    out.append(value(node.value))
    return out


def middleware_name(mw: PrebuiltMiddleware) -> str:
    """The `name` LangChain gives the prebuilt middleware these settings build."""
    name = PREBUILT_MIDDLEWARE[mw.name]
    qualifier = {"tool_call_limit": "tool_name", "pii": "pii_type"}.get(mw.name)
    if qualifier and mw.settings.get(qualifier):
        return f"{name}[{mw.settings[qualifier]}]"
    return name


def hook_name(ref: CodeRef) -> str:
    """A decorated hook's middleware is named after its function."""
    if ref.import_path is not None:
        return ref.import_path.rpartition(":")[2].rpartition(".")[2]
    return ref.function or ""


class _AgentChecker:
    def __init__(self, spec: GraphSpec, index: int, agent: AgentSpec, add: Add) -> None:
        self.agent = agent
        self.path = f"$.agents[{index}]"
        users = [n.id for n in spec.nodes if isinstance(n, AgentNode) and n.agent == agent.id]
        self.element = users[0] if users else agent.id
        self.tools = {t.name for t in agent.tools} | {
            MIDDLEWARE_TOOLS[mw.name]
            for mw in agent.middleware
            if isinstance(mw, PrebuiltMiddleware) and mw.name in MIDDLEWARE_TOOLS
        }
        self.tools |= {name for server in agent.mcp_servers for name in server.tools}
        self._add = add
        self.errors = 0

    def add(self, severity: str, code: str, message: str, path: str, fix: str | None = None):
        self.errors += severity == "error"
        self._add(severity, code, message, self.element, path, fix)

    def run(self) -> None:
        tools: dict[str, int] = {}
        for j, tool in enumerate(self.agent.tools):
            if tool.name in tools:
                self.add("error", "duplicate-tool", f"agent {self.agent.id!r} has two tools named "
                         f"{tool.name!r}", f"{self.path}.tools[{j}].name", "rename one")  # fmt: skip
            tools.setdefault(tool.name, j)
        check_servers(self.agent, self.path, self.add, set(tools))
        seen: dict[str, str] = {}
        for j, mw in enumerate(self.agent.middleware):
            where = f"{self.path}.middleware[{j}]"
            if isinstance(mw, CustomMiddleware):
                self.custom(mw, where)
                names = [(hook_name(ref), f"{where}.hooks.{h}") for h, ref in mw.hooks.items()]
            else:
                self.prebuilt(mw, where)
                names = [(middleware_name(mw), where)]
            for name, path in names:
                if name in seen:
                    self.add("error", "duplicate-middleware", f"middleware {name!r} is already "
                             f"at {seen[name]}: create_agent refuses duplicate middleware", path,
                             "remove one, or give them different settings (tool_name, pii_type)"
                             " or hook function names")  # fmt: skip
                seen.setdefault(name, path)

    # -------------------------------------------------------------- custom hooks

    def custom(self, mw: CustomMiddleware, where: str) -> None:
        for hook, ref in mw.hooks.items():
            if hook not in NODE_HOOKS or ref.code is None:
                continue
            targets = jump_targets(ref.code)
            if not targets:
                continue
            path = f"{where}.hooks.{hook}"
            if not mw.can_jump_to:
                shown = sorted({t for t in targets if t}) or ["a target"]
                self.add("warning", "jump-without-can-jump-to", f"{hook} sets jump_to but "
                         f"{mw.name!r} declares no can_jump_to: LangChain ignores the jump",
                         path, f"set can_jump_to to {shown}")  # fmt: skip
                continue
            for target in sorted({t for t in targets if t and t not in mw.can_jump_to}):
                self.add("warning", "undeclared-jump", f"{hook} jumps to {target!r}, which "
                         f"can_jump_to {list(mw.can_jump_to)} does not list: the run fails with "
                         "KeyError when it jumps", f"{where}.can_jump_to",
                         f"add {target!r} to can_jump_to" if target in ("end", "tools", "model")
                         else "jump to 'end', 'tools' or 'model'")  # fmt: skip

    # -------------------------------------------------------------- prebuilt settings

    def prebuilt(self, mw: PrebuiltMiddleware, where: str) -> None:
        settings = mw.settings
        if not self.signature(mw, where):
            return
        errors = self.errors
        if mw.name in ("model_call_limit", "tool_call_limit"):
            if settings.get("thread_limit") is None and settings.get("run_limit") is None:
                self.add("error", "no-limit", f"{mw.name} without thread_limit or run_limit: "
                         "LangChain refuses it (ValueError)", f"{where}.settings",
                         "set run_limit (per invocation) or thread_limit (per thread)")  # fmt: skip
        if mw.name == "tool_call_limit" and settings.get("tool_name") is not None:
            self.tool_name(settings["tool_name"], "tool_call_limit's tool_name",
                           f"{where}.settings.tool_name")  # fmt: skip
        if mw.name == "human_in_the_loop" and isinstance(settings.get("interrupt_on"), dict):
            for name, config in settings["interrupt_on"].items():
                if config is not False:
                    self.tool_name(name, "interrupt_on", f"{where}.settings.interrupt_on.{name}")
        if mw.name == "summarization":
            self.summarization(settings, where)
        if self.errors == errors:  # nothing said yet: would the constructor take them?
            self.construct(mw, where)

    def signature(self, mw: PrebuiltMiddleware, where: str) -> bool:
        """Whether the engine class exists and takes these settings; each required setting left
        out and each unknown one is an error naming its field."""
        cls = middleware_class(mw.name)
        if cls is None:
            self.add("error", "unsupported-middleware", f"the engine has no "
                     f"{PREBUILT_MIDDLEWARE[mw.name]} yet, so {mw.name} cannot run",
                     where, "remove it, or use a custom middleware")  # fmt: skip
            return False
        known = {s.name: s for s in settings_for(mw.name)}
        taken = set(inspect.signature(cls.__init__).parameters) - {"self"}
        ok = True
        for name in mw.settings:
            if name not in taken and not accepts_any_keyword(mw.name):
                close = ", ".join(sorted(known)) or "none"
                self.add("error", "unknown-setting", f"{mw.name} has no setting {name!r} "
                         f"(its settings: {close})", f"{where}.settings.{name}",
                         "remove it or fix the name")  # fmt: skip
                ok = False
        for setting in known.values():
            value = mw.settings.get(setting.name)
            if setting.required and (value is None or value == ""):
                self.add("error", "missing-setting", f"{mw.name} needs {setting.name!r}: LangChain "
                         "refuses it without one", f"{where}.settings.{setting.name}",
                         _REQUIRED_FIX.get(setting.name, f"set {setting.name}"))  # fmt: skip
                ok = False
        return ok

    def construct(self, mw: PrebuiltMiddleware, where: str) -> None:
        """Builds the middleware as the compiler will; what the constructor refuses is an error."""
        cls = middleware_class(mw.name)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                cls(**mw.settings)  # our own class on JSON values: runs no spec code
        except Exception as exc:  # whatever the constructor refuses: the compiler would fail too
            field = next((n for n in mw.settings if n in str(exc)), None)
            message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            self.add("error", "bad-setting", f"{mw.name} refuses its settings: {message}",
                     f"{where}.settings" + (f".{field}" if field else ""),
                     "fix the setting's value")  # fmt: skip

    def tool_name(self, name: Any, what: str, path: str) -> None:
        if name in self.tools:
            return
        known = ", ".join(sorted(self.tools)) or "none"
        self.add("warning", "unknown-tool", f"{what} names {name!r}, which is not one of agent "
                 f"{self.agent.id!r}'s tools ({known}): it never applies", path,
                 "fix the tool name or add the tool")  # fmt: skip

    def summarization(self, settings: dict[str, Any], where: str) -> None:
        trigger = settings.get("trigger")
        if trigger is None:
            self.add("warning", "summarization-no-trigger", "summarization without a trigger "
                     "never summarizes", f"{where}.settings",
                     'set trigger, e.g. {"messages": 50} or {"tokens": 4000}')  # fmt: skip
            return
        if isinstance(trigger, list) and trigger and isinstance(trigger[0], str):
            size = trigger[1] if len(trigger) > 1 else 50
            self.add("error", "bad-trigger", "a trigger written as a pair is a JSON list, which "
                     "LangChain does not accept (it takes a tuple or a dict)",
                     f"{where}.settings.trigger", f'write {{"{trigger[0]}": {size}}}')  # fmt: skip
            return
        keep = settings.get("keep", DEFAULT_KEEP)
        if not (isinstance(keep, (list, tuple)) and len(keep) == 2 and keep[0] != "fraction"):
            return
        kind, kept = keep
        clauses = trigger if isinstance(trigger, list) else [trigger]
        for k, clause in enumerate(clauses):
            if not (isinstance(clause, dict) and set(clause) == {kind}):
                continue
            threshold = clause[kind]
            if _number(kept) and _number(threshold) and kept >= threshold:
                path = f"{where}.settings.trigger" + (f"[{k}]" if isinstance(trigger, list) else "")
                default = "" if "keep" in settings else " (keep defaults to 20 messages)"
                self.add("warning", "summarization-keeps-all", f"summarization triggers at "
                         f"{threshold} {kind} but keeps {kept}{default}: it has nothing older to "
                         f"summarize until there are more than {kept} {kind}", path,
                         f"keep fewer {kind} than the trigger")  # fmt: skip


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def check_agents(spec: GraphSpec, add: Add) -> None:
    """Adds a finding for each likely middleware mistake of each agent in the spec."""
    for i, agent in enumerate(spec.agents):
        _AgentChecker(spec, i, agent, add).run()


def model_problem(provider: str) -> str | None:
    """Why a model of `provider` cannot be built here (unknown, or its package missing)."""
    from graphspec.providers import PROVIDER_PACKAGES

    if provider == "scripted":
        return None
    package = PROVIDER_PACKAGES.get(provider)
    if package is None:
        return f"unknown model provider {provider!r} (known: {', '.join(['scripted', *PROVIDER_PACKAGES])})"
    from graphspec.providers import install_hint, missing_packages

    missing = missing_packages(provider)
    return install_hint(provider, missing) if missing else None


def check_models(spec: GraphSpec, add: Add) -> None:
    """An error for each agent or model node whose chat model cannot be created."""
    owners: list[tuple[str, str, Any]] = []
    for i, agent in enumerate(spec.agents):
        users = [n.id for n in spec.nodes if isinstance(n, AgentNode) and n.agent == agent.id]
        owners.append((users[0] if users else agent.id, f"$.agents[{i}].model", agent.model))
    for i, node in enumerate(spec.nodes):
        if node.kind == "model":
            owners.append((node.id, f"$.nodes[{i}].model", node.model))
    for element, path, model in owners:
        problem = model_problem(model.provider) if model.factory is None else None
        if problem:
            add("error", "bad-provider", problem, element, f"{path}.provider",
                "pick an installed provider, or scripted to run offline")  # fmt: skip


__all__ = ["check_agents", "check_models", "model_problem", "jump_targets", "middleware_name"]
