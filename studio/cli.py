"""The `superstep` command line: the one place that parses arguments, dispatches and exits.

    superstep run SPEC|MODULE.py[:NAME] [--input JSON] [--thread ID] [--db FILE]
                       [--stream MODES] [--resume JSON] [--continue] [--trust] [--record]
    superstep replay SPEC --thread ID --db FILE [--as ID] [--from CHECKPOINT]
                          [--on-change fail|live|recorded] [--serve all|models] [--trust]
    superstep save-test SPEC --thread ID --db FILE [--output DIR] [--trust]
    superstep test [PATH ...] [--trust]
    superstep eval SPEC [--dataset FILE] [--against OTHER_SPEC | --baseline RESULTS]
                        [--replay RESULTS] [--scorer S ...] [--json] [--fail-under X] [--trust]
    superstep validate SPEC
    superstep export SPEC --to langgraph|langgraph-project|mermaid|json-schema [--output FILE|DIR]
    superstep import MODULE.py[:NAME] [--output SPEC.json] [--trust]
    superstep templates
    superstep demo [--template NAME] [--json]
    superstep studio [SPEC | MODULE.py[:NAME]] [--screenshot PNG] [--quit]
    superstep install-desktop
    superstep --version

SPEC is a file or the name of a bundled template. Exit codes: 0 success (an interrupted run
included: it prints the payload and the command that resumes it), 1 a failed run, 2 bad input
(unreadable spec, validation errors, untrusted code, bad JSON), 130 Ctrl-C. One line per
problem, on stderr.

The work is done below, as plain functions: `graphspec.commands` loads, runs, validates and
exports; `engine.pregel.trace_format` prints the trace. It lives in the studio package because
`superstep studio` opens the app, but imports Qt only when that subcommand runs, so every other
subcommand works without it (the studio package's `__init__` imports no Qt).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

from graphspec import commands
from graphspec.errors import BadInput
from graphspec.model import GraphSpec

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2
EXIT_INTERRUPTED = 130
"""Ctrl-C, as a shell reports a process ended by SIGINT."""
STREAM_MODES = ("values", "updates", "custom", "messages", "checkpoints", "tasks", "debug")
SPEC_HELP = "a bundled template name (react_agent), or a spec file (./name, name.json)"
PROGRAM_HELP = ("MODULE.py[:NAME] (a graph, or a function returning one) or langgraph.json[:GRAPH] "
                "(a program)")  # fmt: skip


def _say(command: str, line: str) -> None:
    print(f"superstep {command}: {line}", file=sys.stderr)


def _json_arg(flag: str, text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise BadInput(f"{flag} is not JSON: {exc}") from None


# ------------------------------------------------------------------ run


def _add_run(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="run a spec, or a LangGraph program's graph, headless",
                       description="Run a spec's graph, or a LangGraph program's, headless on the "
                       "engine to its end, an interrupt or a breakpoint, and print its state. "
                       "Loading a program runs its code: as with `superstep import`, only with "
                       "--trust or a yes at the terminal's prompt. A program holding several "
                       "graphs (none called graph, app or agent) names them: pick one with "
                       "MODULE.py:NAME.")  # fmt: skip
    p.add_argument("spec", help=f"{SPEC_HELP}, or {PROGRAM_HELP}: its graph runs on the engine "
                   "(its code runs only with --trust, or a yes at the terminal's prompt)")  # fmt: skip
    p.add_argument("--input", help="input state as JSON (default: the spec's first saved input; "
                   "for a program, the input its script first ran the graph with, else {}; "
                   "a program's @entrypoint takes any JSON value)")  # fmt: skip
    p.add_argument("--context", help="the run context as JSON: what a graph with a "
                   "context_schema reads as runtime.context (e.g. '{\"user_id\": \"1\"}')")  # fmt: skip
    p.add_argument("--thread", default="main", help="thread id (default: main)")
    p.add_argument("--db", help="SQLite file for checkpoints, so a thread can be resumed later")
    p.add_argument(
        "--stream", help=f"comma-separated stream modes to print: {','.join(STREAM_MODES)}"
    )
    p.add_argument("--resume", help="answer the pending interrupt with this JSON value")
    p.add_argument(
        "--continue", dest="carry_on", action="store_true", help="continue after a breakpoint"
    )
    p.add_argument("--trust", action="store_true",
                   help="allow the spec's (or the program's) Python code to run")  # fmt: skip
    p.add_argument("--record", action="store_true",
                   help="record the run's model and tool calls in --db, to replay or test it")  # fmt: skip
    p.set_defaults(func=cmd_run)


def _confirm(command: str, doing: str, trust: bool, file: str) -> bool:
    """Consent to run a program's code: --trust, or a yes at a terminal's prompt (on stderr:
    stdout may be the output); without a terminal nobody can say yes."""
    if trust:
        return True
    if not sys.stdin.isatty():
        return False
    print(f"superstep {command}: {doing} {file} runs its Python code. Run it? [y/N] ",
          end="", file=sys.stderr, flush=True)  # fmt: skip
    return sys.stdin.readline().strip().lower() in ("y", "yes")


def _run_input(args: argparse.Namespace, spec: GraphSpec | None, program: bool = False) -> Any:
    """The run's input: a Command for --resume, None for --continue, else --input (a spec's
    graph takes a state object; a program's graph what its code takes: an @entrypoint any
    JSON value), or the spec's first saved input."""
    from engine.types import Command

    if sum(x is not None for x in (args.input, args.resume)) + args.carry_on > 1:
        raise BadInput("give one of --input, --resume and --continue")
    if args.carry_on:
        return None
    if args.resume is not None:
        return Command(resume=_json_arg("--resume", args.resume))
    if args.input is not None:
        value = _json_arg("--input", args.input)
        if not program and not isinstance(value, dict):
            raise BadInput("--input must be a JSON object (the input state)")
        return value
    return dict(spec.inputs[0].value) if spec is not None and spec.inputs else {}


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
    if args.record:
        parts.append("--record")
    hint = " ".join([*parts, tail])
    if not args.db:
        hint += (
            "  (this run used no --db, so its thread is gone: run it again with --db FILE first)"
        )
    return hint


def _script_input_line(target: str, runs: int) -> str:
    """Says a script's graph starts from the script's own input, and how to give another."""
    from graphspec.import_refs import split_target

    first = f" (the first of its {runs} runs)" if runs > 1 else ""
    return (f"starts from the script's input, what {Path(split_target(target)[0]).name} first "
            f"ran its graph with{first}; --input replaces it")  # fmt: skip


def _script_config_line(script: Any, its_context: bool) -> str:
    """Says the run gets the config keys (`user_id`...) and context the script's first run had
    (a node reading them fails without); empty when it had none."""
    parts = [f"config keys ({', '.join(script.configurable)})"] if script.configurable else []
    if its_context and script.context is not None:
        parts.append("run context (--context replaces it)")
    return f"runs with the script's {' and '.join(parts)}" if parts else ""


def cmd_run(args: argparse.Namespace) -> int:
    from engine.pregel.trace_format import to_json
    from graphspec import program_run

    resuming = args.resume is not None or args.carry_on
    given = resuming or args.input is not None
    drained: list[str] = []  # why the graph's own RunControl drained the run, if it did
    context = None if args.context is None else _json_arg("--context", args.context)
    if program_run.is_program(args.spec):  # a developer's own program: its graph, as it is
        run_input, modes = _run_input(args, None, program=True), _stream_modes(args.stream)
        consent = partial(_confirm, "run", "running", args.trust)
        graph, serving, script = program_run.program_graph(args.spec, confirm=consent)
        if script is not None and not given:  # the run the script made, as the studio starts
            run_input = script.value  # the live object: messages, models... (not JSON)
            _say("run", _script_input_line(args.spec, script.runs))
        configurable = {"thread_id": args.thread}
        if script is not None:  # with the config keys and context the script ran it with
            if line := _script_config_line(script, context is None):
                _say("run", line)
            configurable = {**script.configurable, **configurable}
            context = script.context if context is None else context
        if serving is not None:  # a project's graph: the run context its server gives
            context = serving.context(graph, context)
            configurable = serving.configurable(configurable, context)
        with commands.open_checkpointer(args.db) as saver:
            state = commands.run_graph(
                program_run.with_saver(graph, saver), run_input,
                {"configurable": configurable}, saver=saver, modes=modes,
                resuming=resuming, out=sys.stdout, record=args.record, context=context,
                on_drained=drained.append,
            )  # fmt: skip
    else:
        spec, path = commands.load(args.spec)
        run_input, modes = _run_input(args, spec), _stream_modes(args.stream)
        with commands.open_checkpointer(args.db) as saver:
            state = commands.run_spec(
                spec, path, run_input, thread=args.thread, saver=saver, trusted=args.trust,
                modes=modes, resuming=resuming, out=sys.stdout, record=args.record,
                context=context,
            )  # fmt: skip
    interrupts = list(state.interrupts) or [i for t in state.tasks for i in t.interrupts]
    print(to_json(state.values))
    if len(interrupts) > 1:
        # langgraph resumes several pending interrupts only with one answer per interrupt id
        for item in interrupts:
            print(f"interrupted [{item.id}]: {to_json(item.value)}")
        answers = ", ".join(f'"{item.id}": <JSON>' for item in interrupts)
        print("resume with: " + _again(args, f"--resume '{{{answers}}}'"))
    elif interrupts:
        print(f"interrupted: {to_json(interrupts[0].value)}")
        print("resume with: " + _again(args, "--resume '<JSON>'"))
    elif state.next and drained:
        print(f"drained ({drained[0]}) before {', '.join(state.next)}")
        print(f"continue with: {_again(args, '--continue')}")
    elif state.next:
        print(f"paused before {', '.join(state.next)} (breakpoint)")
        print(f"continue with: {_again(args, '--continue')}")
    return EXIT_OK


def _add_replay(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="run a recorded thread again, serving its recorded calls",
                       description="Run a thread recorded with `run --record` again on a new "
                       "thread, with the recorded model and tool outputs instead of new calls, "
                       "and print the run diff against the recording.")  # fmt: skip
    p.add_argument("spec", help=SPEC_HELP)
    p.add_argument("--thread", required=True, help="the recorded thread")
    p.add_argument("--db", required=True, help="the SQLite file the thread was recorded in")
    p.add_argument("--as", dest="into", help="the new thread (default: THREAD-replay-N)")
    p.add_argument("--from", dest="checkpoint", help="replay from this checkpoint id")
    p.add_argument("--on-change", default="fail", choices=("fail", "live", "recorded"),
                   help="a call whose input changed: fail (default), call live, or use the "
                   "recording anyway")  # fmt: skip
    p.add_argument(
        "--serve",
        default="all",
        choices=("all", "models"),
        help="serve model and tool calls (all), or model calls only (tools run live)",
    )
    p.add_argument("--trust", action="store_true", help="allow the spec's Python code to run")
    p.set_defaults(func=cmd_replay)


def cmd_replay(args: argparse.Namespace) -> int:
    from studio.replay.headless import replay_spec

    spec, path = commands.load(args.spec)
    done = replay_spec(spec, path, db=args.db, thread=args.thread, into=args.into,
                       checkpoint=args.checkpoint, on_change=args.on_change, serve=args.serve,
                       trusted=args.trust, out=sys.stdout)  # fmt: skip
    return EXIT_OK if done else EXIT_FAILED


def _add_save_test(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("save-test", help="save a recorded thread as a pytest file")
    p.add_argument("spec", help=SPEC_HELP)
    p.add_argument("--thread", required=True, help="the recorded thread")
    p.add_argument("--db", required=True, help="the SQLite file the thread was recorded in")
    p.add_argument("--output", "-o", default="tests", help="folder for the test (default: tests)")
    p.add_argument("--trust", action="store_true", help="allow the spec's Python code to run")
    p.set_defaults(func=cmd_save_test)


def cmd_save_test(args: argparse.Namespace) -> int:
    from pathlib import Path

    from studio.replay.saved_tests import save_test

    spec, path = commands.load(args.spec)
    with commands.open_checkpointer(args.db) as saver:
        graph = commands.compile_for_run(spec, path, trusted=args.trust, checkpointer=saver)
        try:
            test = save_test(graph, path, args.thread, Path(args.output))
        except ValueError as exc:
            raise BadInput(str(exc)) from None
    print(f"wrote {test}")
    return EXIT_OK


def _add_test(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("test", help="run saved tests (pytest files from save-test or the studio)")
    p.add_argument("paths", nargs="*", default=["tests"], help="files or folders (default: tests)")
    p.add_argument("--trust", action="store_true",
                   help="allow the saved tests' specs (inside their projects) to run their "
                   "Python code; without it only specs trusted in the studio do")  # fmt: skip
    p.set_defaults(func=cmd_test)


def cmd_test(args: argparse.Namespace) -> int:
    import importlib.util
    import subprocess

    from studio.replay.saved_trust import TRUST_ENV

    if importlib.util.find_spec("pytest") is None:
        raise BadInput("superstep test runs pytest, which is not installed: pip install pytest")
    env = {**os.environ, TRUST_ENV: "1"} if args.trust else None  # read by each saved test
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           *args.paths], check=False, env=env)  # fmt: skip
    return EXIT_OK if done.returncode == 0 else EXIT_FAILED


def _add_eval(sub: argparse._SubParsersAction) -> None:
    from graphspec.evals import scorers

    p = sub.add_parser("eval", help="run a spec over a dataset, score it, compare two versions",
                       description="Run the spec's graph over every example of a dataset, score "
                       "each run, write the results (JSON) and print a summary; with --against "
                       "or --baseline, compare and exit 1 on a regression.",
                       epilog="\n\n".join(scorers.__doc__.split("\n\n")[1:3]),
                       formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    p.add_argument("spec", help=SPEC_HELP)
    p.add_argument("--dataset", help="a .jsonl or .csv file of examples (default: the spec's "
                   "one dataset, SPEC.NAME.jsonl or .csv beside it)")  # fmt: skip
    p.add_argument("--against", metavar="OTHER_SPEC",
                   help="also run this spec (another version) and compare with it")  # fmt: skip
    p.add_argument("--baseline", metavar="RESULTS",
                   help="compare with an earlier experiment's results file")  # fmt: skip
    p.add_argument("--replay", metavar="RESULTS", help="offline: serve each example's model and "
                   "tool calls from this earlier experiment's recording")  # fmt: skip
    p.add_argument("--on-change", default="fail", choices=("fail", "live", "recorded"),
                   help="with --replay, a call whose input changed: fail (default), call live, "
                   "or use the recording anyway")  # fmt: skip
    p.add_argument("--scorer", action="append", default=[], metavar="S",
                   help="a scorer (repeatable; default: the dataset's, else exact match on each "
                   "expected key)")  # fmt: skip
    p.add_argument("--db", help="SQLite file for the examples' threads (default: the spec's "
                   "SPEC.checkpoints.sqlite, or the --replay experiment's)")  # fmt: skip
    p.add_argument("--output", "-o", help="the results file (default: "
                   "SPEC.experiments/ID.json beside the database)")  # fmt: skip
    p.add_argument("--concurrency", type=int, default=4, help="examples run at once (default 4)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--fail-under", type=float, metavar="X",
                   help="exit 1 when the pass rate is under X (0 to 1, or a percentage)")  # fmt: skip
    p.add_argument("--trust", action="store_true",
                   help="allow the spec's Python code and python: scorers to run")  # fmt: skip
    p.set_defaults(func=cmd_eval)


def cmd_eval(args: argparse.Namespace) -> int:
    from graphspec.evals.command import EvalOptions, evaluate

    options = EvalOptions(args.dataset, args.against, args.baseline, args.replay,
                          tuple(args.scorer), args.db, args.output, args.concurrency,
                          args.on_change, args.trust, args.json, args.fail_under)  # fmt: skip
    return EXIT_OK if evaluate(args.spec, options, sys.stdout, sys.stderr) else EXIT_FAILED


# ------------------------------------------------------------------ the other subcommands


def _add_validate(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("validate", help="check a spec and list its problems")
    p.add_argument("spec", help=SPEC_HELP)
    p.set_defaults(func=cmd_validate)


def cmd_validate(args: argparse.Namespace) -> int:
    return EXIT_BAD_INPUT if commands.validate_spec(args.spec, sys.stdout) else EXIT_OK


def _add_export(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export", help="export a spec as LangGraph code, Mermaid or JSON Schema")
    p.add_argument("spec", help=SPEC_HELP)
    p.add_argument(
        "--to", required=True, choices=("langgraph", "langgraph-project", "mermaid", "json-schema")
    )
    p.add_argument("--output", "-o", help="write to this file (a folder for langgraph-project)")
    p.set_defaults(
        func=lambda args: commands.export_spec(args.spec, args.to, args.output, sys.stdout)
    )


def _add_templates(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("templates", help="list the bundled templates")
    p.set_defaults(func=lambda args: commands.print_templates(sys.stdout))


def _add_demo(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "demo",
        help="run a bundled template and print its supersteps",
        description="Run a bundled template headless with an in-memory checkpointer and print "
        "each superstep: plan, task writes, barrier, checkpoint.",
    )
    p.add_argument(
        "--template", default="essay",
        help=f"template to run: {', '.join(commands.DEMO_TEMPLATES)} or any bundled one "
        "(default: essay)",
    )  # fmt: skip
    p.add_argument("--json", action="store_true", help="print one JSON object per trace event")
    p.set_defaults(
        func=lambda args: commands.demo(args.template, as_json=args.json, out=sys.stdout)
    )


def _add_studio(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("studio", help="open the desktop studio (optionally on a spec)")
    p.add_argument("spec", nargs="?", help=f"{SPEC_HELP}, MODULE.py[:NAME] (a graph, or a "
                   "function returning one) or langgraph.json[:GRAPH] to open a program (it asks "
                   "before running its code)")  # fmt: skip
    p.add_argument("--trust", action="store_true",
                   help="import the program without asking (your consent to run its code)")  # fmt: skip
    p.add_argument("--steps", type=int, default=0, metavar="N",
                   help="once open, step N supersteps on a new thread")  # fmt: skip
    p.add_argument("--input", metavar="JSON", help="the input those steps start from (default: "
                   "the graph's first saved input)")  # fmt: skip
    p.add_argument("--context", metavar="JSON", help="the run context of those steps (what a "
                   "graph with a context_schema reads as runtime.context)")  # fmt: skip
    p.add_argument("--screenshot", metavar="PNG", help="save a picture of the window once loaded")
    p.add_argument("--size", metavar="WxH", type=_size, help="the window's size, e.g. 1280x720")
    p.add_argument("--quit", action="store_true", help="quit once loaded (after --screenshot); "
                   "exits non-zero when it could not open or step")  # fmt: skip
    p.set_defaults(func=cmd_studio)


def _size(text: str) -> tuple[int, int]:
    width, _, height = text.lower().partition("x")
    if not (width.isdigit() and height.isdigit() and 200 <= int(width) and 200 <= int(height)):
        raise argparse.ArgumentTypeError(f"{text!r} is not a size like 1280x720")
    return int(width), int(height)


def cmd_studio(args: argparse.Namespace) -> int:
    import threading

    from studio import qt_check
    from studio.startup import collector_paused, spare_pyside_source_reads

    # Qt aborts the process when its platform plugin cannot load: ask first, say what to install.
    # The check (ldd, about 0.05-0.1 s) runs on a thread while the window's modules load:
    # importing Qt starts nothing, and the QApplication is made only once the answer is in.
    checked: list[str | None] = []
    check = threading.Thread(
        target=lambda: checked.append(qt_check.problem(picture_only=bool(args.screenshot)))
    )
    check.start()
    try:  # Qt loads here, and only here, with the window's modules (they make no Qt object)
        with collector_paused():
            spare_pyside_source_reads()
            import studio.main_window  # noqa: F401
            from studio.app import run
    except ImportError as exc:
        failed: ImportError | None = exc
    else:
        failed = None
    check.join()
    problem = checked[0] if checked else "the check for Qt's libraries failed"
    if problem is None and failed is not None:
        problem = (
            qt_check.import_problem(failed) or f"the studio needs PySide6 and qasync: {failed}"
        )
    if problem is not None:
        _say("studio", problem)
        return EXIT_FAILED
    return run(args.spec, screenshot_path=args.screenshot, quit_after=args.quit,
               trust=args.trust, steps=max(0, args.steps), run_input=args.input,
               run_context=args.context, size=args.size)  # fmt: skip


def _add_import(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("import", help="turn the graph in a Python module into a spec (runs it)")
    p.add_argument("module", help="MODULE.py or package.module; MODULE.py:NAME picks one graph")
    p.add_argument("--output", "-o", help="write the spec to this file instead of stdout")
    p.add_argument("--trust", action="store_true", help="run the module's code without asking")
    p.set_defaults(func=cmd_import)


def cmd_import(args: argparse.Namespace) -> int:
    consent = partial(_confirm, "import", "importing", args.trust)
    for line in commands.import_module_spec(args.module, args.output, confirm=consent,
                                            out=sys.stdout):  # fmt: skip
        _say("import", line)
    return EXIT_OK


def _add_install_desktop(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("install-desktop", help="add the studio to the Linux app menu (XDG)")
    p.set_defaults(func=cmd_install_desktop)


def cmd_install_desktop(args: argparse.Namespace) -> int:
    from studio import desktop

    for path in desktop.install():
        print(f"wrote {path}")
    return EXIT_OK


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("superstep-studio")
    except metadata.PackageNotFoundError:  # a source tree on sys.path, not installed
        return "unknown (not installed)"


# ------------------------------------------------------------------ entry point


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="superstep",
        description="Superstep Studio command line: run, check and export graph specs headless, "
        "or open the studio.",
    )
    parser.add_argument("--version", action="version", version=f"superstep {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in (_add_run, _add_replay, _add_save_test, _add_test, _add_eval, _add_validate, _add_export, _add_import, _add_templates, _add_studio,
                _add_demo, _add_install_desktop):  # fmt: skip
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the `superstep` command line; returns the process exit code."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # argparse: --help is 0, a usage error 2
        return int(exc.code or 0)
    try:
        return args.func(args) or EXIT_OK
    except BadInput as exc:
        for line in exc.args:
            _say(args.command, line)
        return EXIT_BAD_INPUT
    except commands.RunFailed as exc:
        _say(args.command, f"run failed: {exc}")
        return EXIT_FAILED
    except BrokenPipeError:
        # the reader went away (`superstep demo | head`): stop quietly, as other CLI tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FAILED
    except KeyboardInterrupt:  # Ctrl-C: one line, no traceback (a --db keeps what was saved)
        _say(args.command, "interrupted")
        return EXIT_INTERRUPTED


__all__ = ["build_parser", "main"]

if __name__ == "__main__":
    sys.exit(main())
