"""The `superstep` command line, without Qt.

    superstep run SPEC [--input JSON] [--thread ID] [--db FILE] [--stream MODES] [--resume JSON]
                       [--continue] [--trust]
    superstep validate SPEC
    superstep export SPEC --to langgraph|mermaid|json-schema [--output FILE]
    superstep templates
    superstep studio [SPEC] [--screenshot PNG] [--quit]   (added by studio.cli; needs Qt)
    superstep demo [--template NAME] [--json]      (engine.cli's trace demo)

SPEC is a file or the name of a bundled template. Exit codes: 0 success (an interrupted run
included: it prints the payload and the command that resumes it), 1 a failed run, 2 bad input
(unreadable spec, validation errors, untrusted code, bad JSON), 130 Ctrl-C. One line per
problem, on stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from engine import cli as engine_cli
from graphspec.errors import BadInput, SpecError, SpecValidationError
from graphspec.io import read_spec, write_atomic
from graphspec.model import GraphSpec
from graphspec.templates import list_templates, resolve

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2
EXIT_INTERRUPTED = 130
"""Ctrl-C, as a shell reports a process ended by SIGINT."""
STREAM_MODES = ("values", "updates", "custom", "messages", "checkpoints", "tasks", "debug")


def _say(prog: str, line: str) -> None:
    print(f"superstep {prog}: {line}", file=sys.stderr)


def to_json(value: Any) -> str:
    return json.dumps(engine_cli.to_jsonable(value), default=_json_default, ensure_ascii=False)


def _json_default(obj: Any) -> Any:
    if hasattr(obj, "model_dump"):
        return obj.model_dump(mode="json")
    if isinstance(obj, (set, frozenset)):
        return sorted(obj, key=repr)
    if hasattr(obj, "value") and type(obj).__name__ == "Interrupt":
        return {"value": obj.value, "id": obj.id}
    return repr(obj)


def _load(path_arg: str) -> tuple[GraphSpec, Path]:
    path = resolve(path_arg)
    try:
        return read_spec(path), path
    except SpecValidationError as exc:
        raise BadInput(*(f"{path}: {p}" for p in exc.problems)) from None


def _json_arg(flag: str, text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise BadInput(f"{flag} is not JSON: {exc}") from None


# ------------------------------------------------------------------ checkpointers


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


# ------------------------------------------------------------------ run


def _add_run(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="run a spec headless", description=__doc__.split("\n")[2])
    p.add_argument("spec", help="spec file, or a bundled template name")
    p.add_argument("--input", help="input state as JSON (default: the spec's first saved input)")
    p.add_argument("--thread", default="main", help="thread id (default: main)")
    p.add_argument("--db", help="SQLite file for checkpoints, so a thread can be resumed later")
    p.add_argument(
        "--stream", help=f"comma-separated stream modes to print: {','.join(STREAM_MODES)}"
    )
    p.add_argument("--resume", help="answer the pending interrupt with this JSON value")
    p.add_argument(
        "--continue", dest="carry_on", action="store_true", help="continue after a breakpoint"
    )
    p.add_argument("--trust", action="store_true", help="allow the spec's Python code to run")
    p.set_defaults(func=cmd_run)


def _run_input(args: argparse.Namespace, spec: GraphSpec) -> Any:
    from engine.types import Command

    if sum(x is not None for x in (args.input, args.resume)) + args.carry_on > 1:
        raise BadInput("give one of --input, --resume and --continue")
    if args.carry_on:
        return None
    if args.resume is not None:
        return Command(resume=_json_arg("--resume", args.resume))
    if args.input is not None:
        value = _json_arg("--input", args.input)
        if not isinstance(value, dict):
            raise BadInput("--input must be a JSON object (the input state)")
        return value
    return dict(spec.inputs[0].value) if spec.inputs else {}


def _stream_modes(text: str | None) -> list[str]:
    if text is None:
        return []
    modes = [m.strip() for m in text.split(",") if m.strip()]
    unknown = [m for m in modes if m not in STREAM_MODES]
    if unknown or not modes:
        raise BadInput(
            f"unknown stream mode {', '.join(unknown) or text!r} (known: {', '.join(STREAM_MODES)})"
        )
    return modes


def _again(args: argparse.Namespace, tail: str) -> str:
    """The command that carries on this thread; without --db the thread is gone, so say so."""
    parts = ["superstep run", args.spec, f"--thread {args.thread}", f"--db {args.db or 'FILE'}"]
    if args.trust:
        parts.append("--trust")
    hint = " ".join([*parts, tail])
    if not args.db:
        hint += (
            "  (this run used no --db, so its thread is gone: run it again with --db FILE first)"
        )
    return hint


def cmd_run(args: argparse.Namespace) -> int:
    from engine.checkpoint.sqlite import CheckpointDatabaseError
    from graphspec.compiler import SpecCompileError, compile_spec, run_config

    spec, path = _load(args.spec)
    run_input = _run_input(args, spec)
    modes = _stream_modes(args.stream)
    with open_checkpointer(args.db) as saver:
        try:
            graph = compile_spec(spec, trusted=args.trust, checkpointer=saver, base_dir=path.parent)
        except SpecCompileError as exc:
            raise BadInput(*(f.labelled() for f in exc.findings)) from None
        except SpecError as exc:
            raise BadInput(exc.line()) from None
        config = run_config(spec, args.thread)
        # tasks, not next: a run killed after its tasks' writes were saved has no next yet
        if (args.resume is not None or args.carry_on) and not graph.get_state(config).tasks:
            raise BadInput(f"thread {args.thread!r} has nothing pending to resume or continue")
        try:
            if modes:
                for mode, chunk in graph.stream(run_input, config, stream_mode=modes):
                    print(to_json({"mode": mode, "data": chunk}))
            else:
                graph.invoke(run_input, config)
        except SpecError as exc:
            _say("run", f"run failed: {exc.line()}")
            return EXIT_FAILED
        except CheckpointDatabaseError:  # the --db file, not the run: open_checkpointer says so
            raise
        except Exception as exc:  # a node raised, the recursion limit, an invalid update...
            _say(
                "run",
                f"run failed: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}",
            )
            return EXIT_FAILED
        state = graph.get_state(config)
        interrupts = list(state.interrupts) or [i for t in state.tasks for i in t.interrupts]
        print(to_json(state.values))
        if interrupts:
            for item in interrupts:
                print(f"interrupted: {to_json(item.value)}")
            print("resume with: " + _again(args, "--resume '<JSON>'"))
        elif state.next:
            print(f"paused before {', '.join(state.next)} (breakpoint)")
            print(f"continue with: {_again(args, '--continue')}")
    return EXIT_OK


# ------------------------------------------------------------------ validate, export, templates


def _add_validate(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("validate", help="check a spec and list its problems")
    p.add_argument("spec", help="spec file, or a bundled template name")
    p.set_defaults(func=cmd_validate)


def cmd_validate(args: argparse.Namespace) -> int:
    from graphspec.validator import validate

    spec, path = _load(args.spec)
    findings = validate(spec, base_dir=path.parent)
    for finding in findings:
        print(finding.labelled())
    errors = sum(f.severity == "error" for f in findings)
    print(f"{path}: {errors} error(s), {len(findings) - errors} warning(s)")
    return EXIT_BAD_INPUT if errors else EXIT_OK


def _add_export(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export", help="export a spec as LangGraph code, Mermaid or JSON Schema")
    p.add_argument("spec", help="spec file, or a bundled template name")
    p.add_argument("--to", required=True, choices=("langgraph", "mermaid", "json-schema"))
    p.add_argument("--output", "-o", help="write to this file instead of stdout")
    p.set_defaults(func=cmd_export)


def cmd_export(args: argparse.Namespace) -> int:
    from graphspec import export

    spec, path = _load(args.spec)
    try:
        text = export.export(spec, args.to, base_dir=path.parent)
    except SpecError as exc:
        raise BadInput(exc.line()) from None
    if args.output:
        try:  # atomic: a full disk leaves the old file (or none), never a truncated one
            write_atomic(args.output, text.encode("utf-8"))
        except OSError as exc:
            raise BadInput(f"cannot write {args.output}: {exc.strerror or exc}") from None
    else:
        sys.stdout.write(text)
    return EXIT_OK


def _add_templates(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("templates", help="list the bundled templates")
    p.set_defaults(func=cmd_templates)


def cmd_templates(args: argparse.Namespace) -> int:
    templates = list_templates()
    width = max(len(t.name) for t in templates)
    for t in templates:
        print(f"{t.name.ljust(width)}  {t.title}: {t.description}")
    return EXIT_OK


# ------------------------------------------------------------------ entry point


def build_parser(extra: Sequence[Callable[[Any], None]] = ()) -> argparse.ArgumentParser:
    """The parser; `extra` adds subcommands from packages above spec (the studio adds its own)."""
    parser = argparse.ArgumentParser(
        prog="superstep",
        description="Superstep Studio command line: run, check and export graph specs headless.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_run(sub)
    _add_validate(sub)
    _add_export(sub)
    _add_templates(sub)
    for add in extra:
        add(sub)
    engine_cli._add_demo(sub)
    return parser


def main(argv: Sequence[str] | None = None, extra: Sequence[Callable[[Any], None]] = ()) -> int:
    """Run the `superstep` command line; returns the process exit code."""
    try:
        args = build_parser(extra).parse_args(argv)
    except SystemExit as exc:  # argparse: --help is 0, a usage error 2
        return int(exc.code or 0)
    try:
        return args.func(args)
    except BadInput as exc:
        for line in exc.args:
            _say(args.command, line)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FAILED
    except KeyboardInterrupt:  # Ctrl-C: one line, no traceback (a --db keeps what was saved)
        _say(args.command, "interrupted")
        return EXIT_INTERRUPTED


__all__ = ["BadInput", "main", "build_parser"]

if __name__ == "__main__":
    sys.exit(main())
