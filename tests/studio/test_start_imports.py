"""The studio's first screen loads only what it draws (issue 32.1): the agent layer, the importer,
the exporters, the lecture's engine side, replaying, the remote client, the model providers'
packages and langchain-core's heavy modules load on first use, not with the window.

Each test starts `superstep studio` offscreen in a fresh process (as a user does, through
`studio.cli.main`), and reads `sys.modules` when the window has first painted.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from bench.window_startup import DRAWN_HOOK

ROOT = Path(__file__).resolve().parents[2]

WRITERS = tuple(f"graphspec.export.{m}" for m in
                ("formats", "langgraph_code", "mermaid", "json_schema", "scripted_model"))  # fmt: skip
"""The exporters (the validator reads one rule of graphspec.export.python_module: light)."""
HEAVY = (
    "langchain_core.language_models",
    "langchain_core.messages",
    "langchain_core.runnables.base",
    "langchain_core.tracers.base",
    "langsmith.client",
    "engine.agents.middleware",
    "engine.agents.factory",
    "engine.prebuilt",
    "engine.types",
    "engine.graph",
    "engine.pregel.main",
    "engine.pregel.draw",
    "engine.record.replay",
    "engine.record.recorder",
    "graphspec.compiler",
    *WRITERS,
    "graphspec.importer",
    "graphspec.import_agents",
    "graphspec.import_deep_agents",
    "studio.python_open",
    "langchain",  # init_chat_model and the provider packages: a model is made by a run
    "langchain_openai",
    "langchain_anthropic",
    "studio.remote.client",
    "studio.remote.remote_dock",  # the Server dock and the Datasets dock: built when first shown
    "studio.evals.dock",
    "graphspec.evals.experiment",
    "graphspec.evals.compare",
    "langgraph_sdk",
    "httpx",
    "networkx",
    "requests",
    "studio.lecture.compiled_view",  # the compiled view and lecture mode: after the first paint
    "studio.lecture.mode",
    "studio.lecture.player",
    "studio.panels.inspector.agent_form",  # the inspector's agent, model and tools forms
    "studio.panels.inspector.model_form",
    "studio.panels.inspector.tools_editor",
    "graphspec.code_checks",
    "studio.chat.chat_panel",  # the Chat dock's panel: after the first paint
    "studio.chat.provider_dialog",
    "studio.replay.dock",  # the Tests dock and its recorder: after the first paint
    "engine.record.store",
    "studio.run.deep_agent_panel",  # the Deep agent dock's panel: after the first paint
)
"""Modules the first screen must not load (a package stands for its submodules too)."""

CHILD = (
    "import json\nimport studio.cli\n"
    + DRAWN_HOOK
    + """
def _report():
    print(json.dumps(sorted(sys.modules)), flush=True)
    os._exit(0)


sys.exit(studio.cli.main(["studio", *sys.argv[1:]]))
"""
)
"""The bench's child (bench/window_startup.py), reporting the modules loaded at the first paint."""


def modules_at_first_paint(tmp_path: Path, *args: str) -> set[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "SUPERSTEP_STUDIO_HOME": str(tmp_path),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}  # fmt: skip
    done = subprocess.run([sys.executable, "-c", CHILD, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def heavy_in(modules: set[str], heavy: tuple[str, ...] = HEAVY) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in heavy))


def test_the_start_page_loads_none_of_the_heavy_modules(tmp_path):
    modules = modules_at_first_paint(tmp_path)
    assert "studio.main_window" in modules and "studio.panels.start_page" in modules
    assert heavy_in(modules) == []


def test_a_template_opens_without_them_too(tmp_path):
    """`superstep studio router`, what bench/window_startup.py times."""
    modules = modules_at_first_paint(tmp_path, "router")
    assert "studio.canvas.items.node_item" in modules
    assert heavy_in(modules) == []


AGENT_LAYER = (
    "engine.agents.middleware",
    "engine.agents.factory",
    "engine.prebuilt",
    "langchain_core.language_models.chat_models",
    "langchain_core.runnables.base",
    "langsmith.client",
    "graphspec.compiler",
    *WRITERS,
    "graphspec.importer",
    "networkx",
)


def test_an_agent_card_is_drawn_without_the_agent_layer(tmp_path):
    """An agent template turns Record runs on: the recorder (with langchain-core's messages) is
    made with the Tests dock, right after the first paint; the agent layer waits for a run,
    and laying its cards out (it has no positions) needs no networkx."""
    modules = modules_at_first_paint(tmp_path, "react_agent")
    assert "studio.canvas.items.node_item" in modules and "engine.record.recorder" not in modules
    assert heavy_in(modules, AGENT_LAYER) == []


def test_the_drawn_hooks_of_prebuilt_middleware_are_the_engine_classes_hooks():
    """The canvas draws each prebuilt middleware's hooks from a table (so a card needs no agent
    layer); the table says what the engine's classes implement."""
    from engine.agents import middleware
    from engine.agents.middleware.types import overridden_hooks
    from graphspec.model import PREBUILT_MIDDLEWARE
    from studio.canvas.looks import PREBUILT_HOOKS

    assert set(PREBUILT_HOOKS) == set(PREBUILT_MIDDLEWARE)
    for name, cls in PREBUILT_MIDDLEWARE.items():
        assert PREBUILT_HOOKS[name] == overridden_hooks(getattr(middleware, cls)), name
