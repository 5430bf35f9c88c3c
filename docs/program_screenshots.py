"""Regenerate README's pictures of programs opened from code: python docs/program_screenshots.py

Each is `superstep studio PROGRAM --trust --steps N --screenshot PNG --quit` at 1280×720,
offscreen:

docs/code-middleware-agent.png  a create_agent with class-based and decorator middleware (our
                                version of LangChain's "Custom middleware" docs page, from
                                tests/graphspec/corpus), opened as an editable spec and run
                                step by step to its end: the agent's card lists each
                                middleware with the hooks its code defines
docs/code-workflow.png          a functional workflow (langgraph's entrypoint docstring example
                                in tests/programs, see its manifest for the source:
                                a task, then an interrupt for a human review), stepped to its
                                interrupt
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "tests" / "programs"
CORPUS = ROOT / "tests" / "graphspec" / "corpus"
SHOTS = [
    ("code-middleware-agent.png", CORPUS / "middleware_custom.py:agent", 3,
     {"messages": [{"role": "user", "content": "what is x?"}]}),
    ("code-workflow.png", PROGRAMS / "lg_review_workflow.py:review_workflow", 2, "cats"),
]  # fmt: skip


def main() -> int:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
           "SUPERSTEP_STUDIO_HOME": tempfile.mkdtemp(prefix="studio-shots-"),
           "PYTHONPATH": os.pathsep.join([str(ROOT), str(PROGRAMS), str(CORPUS)])}  # fmt: skip
    status = 0
    for name, program, steps, value in SHOTS:
        out = ROOT / "docs" / name
        done = subprocess.run(
            [sys.executable, "-m", "studio.cli", "studio", str(program), "--trust",
             "--steps", str(steps), "--input", json.dumps(value), "--size", "1280x720",
             "--screenshot", str(out), "--quit"], env=env, capture_output=True, text=True, timeout=300)  # fmt: skip
        print(f"{out}: {'written' if done.returncode == 0 else done.stderr.strip()}")
        status |= done.returncode
    return status


if __name__ == "__main__":
    sys.exit(main())
