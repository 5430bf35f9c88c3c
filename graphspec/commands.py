"""The work behind `superstep run | validate | export | import | templates | demo`, as plain functions.

`studio.cli` parses the arguments and turns the outcome into an exit code; these load specs,
run, validate and export them and print the results. Bad input (an unreadable spec, one that
does not compile or carries untrusted code, an unusable --db file) raises `BadInput`, one line
per problem; a run that fails raises `RunFailed`.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

from graphspec.errors import BadInput, SpecCompileError, SpecError, SpecValidationError
from graphspec.io import read_spec, write_atomic
from graphspec.model import GraphSpec
from graphspec.templates import list_templates, resolve, shadowed_file


class RunFailed(Exception):
    """The run started and failed (a node raised, the recursion limit...): one line to print."""


def load(name_or_path: str) -> tuple[GraphSpec, Path]:
    """A spec file, or the bundled template of that name, with the path it was read from. A
    bare name is the template even beside a file of that name: a note on stderr says so."""
    path = resolve(name_or_path)
    if shadowed_file(name_or_path) is not None:
        print(f"note: {name_or_path!r} is the bundled template; for the file {name_or_path!r} "
              f"in this folder, give ./{name_or_path}", file=sys.stderr)  # fmt: skip
    try:
        return read_spec(path), path
    except SpecValidationError as exc:
        raise BadInput(*(f"{path}: {p}" for p in exc.problems)) from None


@contextlib.contextmanager
def open_checkpointer(db: str | None) -> Iterator[Any]:
    """The run's saver; a --db file it cannot use (a directory, corrupt, another program's, a
    tampered checkpoint) is bad input, one line naming the file, and is left as it was."""
    from engine.checkpoint.memory import InMemorySaver

    if db is None:
        yield InMemorySaver()
        return
    from engine.checkpoint.sqlite import CheckpointDatabaseError, SqliteSaver

    try:
        with SqliteSaver.from_conn_string(db) as saver:
            saver.setup()  # refuses an unusable file before anything runs
            yield saver
    except CheckpointDatabaseError as exc:
        raise BadInput(" ".join(str(exc).splitlines())) from None


def compile_for_run(spec: GraphSpec, path: Path, *, trusted: bool, checkpointer: Any) -> Any:
    """The compiled graph, or BadInput listing what stops it from compiling."""
    from graphspec.compiler import compile_spec

    try:
        return compile_spec(spec, trusted=trusted, checkpointer=checkpointer, base_dir=path.parent)
    except SpecCompileError as exc:
        raise BadInput(*(f.labelled() for f in exc.findings)) from None
    except SpecError as exc:
        raise BadInput(exc.line()) from None


def run_spec(
    spec: GraphSpec,
    path: Path,
    run_input: Any,
    *,
    thread: str,
    saver: Any,
    trusted: bool,
    modes: list[str],
    resuming: bool,
    out: TextIO,
    record: bool = False,
    context: Any = None,
) -> Any:
    """Run the spec's graph (`run_graph`) to the end, an interrupt or a breakpoint."""
    from graphspec.compiler import run_config

    graph = compile_for_run(spec, path, trusted=trusted, checkpointer=saver)
    return run_graph(graph, run_input, run_config(spec, thread), saver=saver, modes=modes,
                     resuming=resuming, out=out, record=record, context=context)  # fmt: skip


def run_graph(
    graph: Any,
    run_input: Any,
    config: dict[str, Any],
    *,
    saver: Any,
    modes: list[str],
    resuming: bool,
    out: TextIO,
    record: bool = False,
    context: Any = None,
    on_drained: Callable[[str], None] | None = None,
) -> Any:
    """Run a compiled graph (its checkpointer `saver`) on the thread of `config` to the end, an
    interrupt or a breakpoint, printing one JSON line per stream part of `modes`; returns the
    thread's state (a StateSnapshot) afterwards. `record`: keep the run's model and tool calls
    beside its checkpoints (`engine.record`), for replays and tests. `context`: the run
    context (runtime.context), as `invoke(..., context=)` takes it. `on_drained` gets the
    reason when the graph's own RunControl drained the run at a superstep boundary (its
    checkpoint saved, a run with no input carries on); without it a drain fails the run."""
    from engine.checkpoint.sqlite import CheckpointDatabaseError
    from engine.errors import GraphDrained
    from engine.pregel.stepper import needs_async
    from engine.pregel.trace_format import to_json

    thread = config["configurable"]["thread_id"]
    if record:
        from engine.record import RecordingStore
        from engine.record import record as start_recording

        start_recording(config, RecordingStore.for_saver(saver))
    # tasks, not next: a run killed after its tasks' writes were saved has no next yet
    if resuming and not graph.get_state(config).tasks:
        raise BadInput(f"thread {thread!r} has nothing pending to resume or continue")
    try:
        if modes == ["messages"]:  # tokens as text, as they arrive
            from graphspec.token_print import TokenPrinter

            printer = TokenPrinter(out)
            try:
                # subgraphs too: an agent node's model runs inside the agent's graph
                _stream(graph, run_input, config, lambda part: printer.part(*part[1]),
                        stream_mode="messages", subgraphs=True, context=context)  # fmt: skip
            finally:
                printer.close()
        elif modes:
            _stream(graph, run_input, config,
                    lambda part: print(to_json({"mode": part[0], "data": part[1]}), file=out),
                    stream_mode=modes, context=context)  # fmt: skip
        elif needs_async(graph):
            asyncio.run(graph.ainvoke(run_input, config, context=context))
        else:
            graph.invoke(run_input, config, context=context)
    except SpecError as exc:
        raise RunFailed(exc.line()) from None
    except CheckpointDatabaseError:  # the --db file, not the run: open_checkpointer says so
        raise
    except GraphDrained as exc:
        if on_drained is None:
            raise RunFailed(f"GraphDrained: {_first_line(exc)}") from None
        on_drained(exc.reason)
    except Exception as exc:  # a node raised, the recursion limit, an invalid update...
        from graphspec.provider_errors import describe_provider_error, failing_node

        if (provider := describe_provider_error(exc)) is not None:
            raise RunFailed(f"node {failing_node(exc) or '?'!r}: {provider}") from None
        raise RunFailed(f"{type(exc).__name__}: {_first_line(exc)}") from None
    return graph.get_state(config)


def _stream(
    graph: Any, run_input: Any, config: dict[str, Any], each: Callable[[Any], None], **kwargs: Any
) -> None:
    """Each part of the run's stream to `each`: on the async API when a node has only an async
    function (a program's `async def` node, run as `langgraph dev` runs it), else the sync one."""
    from engine.pregel.stepper import needs_async

    if not needs_async(graph):
        for part in graph.stream(run_input, config, **kwargs):
            each(part)
        return

    async def consume() -> None:
        async for part in graph.astream(run_input, config, **kwargs):
            each(part)

    asyncio.run(consume())


def _first_line(exc: BaseException) -> str:
    """The error in one line. Pydantic's first line only counts the errors ("1 validation error
    for State"): its first error says which field, what is wrong and the value given."""
    from graphspec.run_errors import field_errors

    if fields := field_errors(exc):
        more = len(fields) - 1
        return fields[0] + (f" (and {more} more)" if more else "")
    if str(exc):
        return str(exc).splitlines()[0]
    # no message of its own (a coroutine's RuntimeError wrapping a StopIteration, a bare
    # `raise X from Y`): the error it came from says what went wrong
    origin = exc.__cause__ or exc.__context__
    if origin is None:
        return ""
    return f"(from {type(origin).__name__}" + (f": {_first_line(origin)})" if str(origin) else ")")


def validate_spec(name_or_path: str, out: TextIO) -> int:
    """Print each finding and a count; returns the number of errors."""
    from graphspec.validator import validate

    spec, path = load(name_or_path)
    findings = validate(spec, base_dir=path.parent)
    for finding in findings:
        print(finding.labelled(), file=out)
    errors = sum(f.severity == "error" for f in findings)
    print(f"{path}: {errors} error(s), {len(findings) - errors} warning(s)", file=out)
    return errors


def export_spec(name_or_path: str, fmt: str, output: str | None, out: TextIO) -> None:
    """Write the export to `output` (atomically), or to `out`; `langgraph-project` writes a
    folder (graphspec.export_project) and names its files on `out`."""
    from graphspec import export

    spec, path = load(name_or_path)
    try:
        text = export.export(spec, "langgraph" if fmt == "langgraph-project" else fmt,
                             base_dir=path.parent)  # fmt: skip
    except SpecError as exc:
        raise BadInput(exc.line()) from None
    if fmt == "langgraph-project":
        from graphspec.export_project import write_project

        if output is None:
            raise BadInput("--to langgraph-project needs -o DIR, the folder to write")
        try:
            project = write_project(spec, text, Path(output), base_dir=path.parent,
                                    name=path.stem)  # fmt: skip
        except OSError as exc:
            raise BadInput(f"cannot write {output}: {exc.strerror or exc}") from None
        for written in project.written:
            print(f"wrote {written}", file=out)
        for skipped in project.skipped:
            print(f"not copied: {skipped}", file=out)
        return
    if output is None:
        out.write(text)
        return
    try:  # atomic: a full disk leaves the old file (or none), never a truncated one
        write_atomic(output, text.encode("utf-8"))
    except OSError as exc:
        raise BadInput(f"cannot write {output}: {exc.strerror or exc}") from None


def import_module_spec(
    target: str, output: str | None, *, confirm: Callable[[str], bool], out: TextIO
) -> list[str]:
    """`superstep import MODULE.py[:ATTR]`: the module's graph as a spec, written to `output`
    (atomically) or `out`. Importing runs the module's code, so `confirm(module)` is asked first;
    returns the validator's findings, one line each, for the caller to show."""
    from graphspec.import_refs import split_target
    from graphspec.importer import import_module_graph
    from graphspec.io import dumps_spec
    from graphspec.module_files import naming_program
    from graphspec.validator import validate

    module, attr = split_target(target)
    if not confirm(module):
        raise BadInput(f"importing {module} runs its Python code: not imported (pass --trust to "
                       "allow it)")  # fmt: skip
    try:
        spec = import_module_graph(module, attr)
    except SpecError as exc:  # SeveralGraphs included: it names them and the :ATTR form
        raise BadInput(exc.line()) from None
    if module.endswith(".py"):  # a run loads the file from beside the spec
        folder = Path(output).resolve().parent if output is not None else Path.cwd()
        spec = naming_program(spec, Path(module), folder)
    text = dumps_spec(spec)
    if output is None:
        out.write(text)
    else:
        try:
            write_atomic(output, text.encode("utf-8"))
        except OSError as exc:
            raise BadInput(f"cannot write {output}: {exc.strerror or exc}") from None
    return [f.labelled() for f in validate(spec, base_dir=Path(module).parent)]


def print_templates(out: TextIO) -> None:
    templates = list_templates()
    width = max(len(t.name) for t in templates)
    for t in templates:
        print(f"{t.name.ljust(width)}  {t.title}: {t.description}", file=out)


DEMO_TEMPLATES = {"essay": "essay_writer", "fanout": "map_reduce", "router": "router"}
"""`superstep demo --template` short names (the engine's old example gallery) -> templates."""


def demo(name: str, *, as_json: bool, out: TextIO) -> None:
    """Run a bundled template (its first saved input) in memory, printing every superstep."""
    from engine.checkpoint.memory import InMemorySaver
    from engine.pregel.trace_format import TextPrinter, event_json, short_value, trace_run
    from graphspec.compiler import run_config

    template = DEMO_TEMPLATES.get(name, name)
    if template not in {t.name for t in list_templates()}:
        raise BadInput(
            f"unknown template {name!r} (available: {', '.join(DEMO_TEMPLATES)}, "
            "or a name `superstep templates` lists)"
        )
    spec, path = load(template)
    graph = compile_for_run(spec, path, trusted=False, checkpointer=InMemorySaver())
    run_input = dict(spec.inputs[0].value) if spec.inputs else {}
    config = run_config(spec, f"demo-{name}")
    if not as_json:
        print(f"demo {name}: {spec.description}", file=out)
        print(f"thread demo-{name}, input {short_value(run_input)}", file=out)
    emit = (lambda e: print(event_json(e), file=out)) if as_json else TextPrinter(out)
    failure = trace_run(graph, run_input, config, emit)
    if failure is not None:
        raise RunFailed(repr(failure))
    if not as_json:
        state = graph.get_state(config)
        print(f"result {short_value(state.values, 200)}", file=out)
        if state.next:
            print(f"stopped before {', '.join(state.next)}", file=out)


__all__ = [
    "DEMO_TEMPLATES",
    "RunFailed",
    "compile_for_run",
    "demo",
    "export_spec",
    "import_module_spec",
    "load",
    "open_checkpointer",
    "print_templates",
    "run_graph",
    "run_spec",
    "validate_spec",
]
