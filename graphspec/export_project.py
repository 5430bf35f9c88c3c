"""Spec -> a LangGraph server project: `superstep export SPEC --to langgraph-project -o DIR`.

    DIR/langgraph.json     the graph, for `langgraph dev` / `langgraph up` / `langgraph build`
    DIR/graph.py           the langgraph code export (`graph` is the compiled graph)
    DIR/requirements.txt   what graph.py imports, plus each chat model provider the spec names
    DIR/README.md          how to run it locally and with Postgres and Redis

The module is the plain code export, unchanged: the server brings its own checkpointer and store,
so nothing here depends on Superstep Studio. Modules the spec's code imports by path are copied
when they sit beside the spec, and listed in the README otherwise.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import sys
from collections.abc import Iterable
from pathlib import Path

from pydantic import BaseModel

from graphspec.model import GraphSpec, ModelSettings
from graphspec.providers import PROVIDER_PACKAGES

MODULE = "graph.py"
LANGGRAPH_PIN = "langgraph>=1.2,<1.3"
"""The langgraph the exports are checked against (the test extra's pin)."""
PACKAGES = {"langgraph": LANGGRAPH_PIN, "langchain": "langchain>=1.2",
            "langchain_core": "langchain-core>=1.0"}  # fmt: skip
"""Top-level import name -> requirement, for the libraries an export may import."""


def graph_id(name: str) -> str:
    """The graph's name on the server (its assistant id): `name` (the spec file's stem) as an
    identifier."""
    gid = re.sub(r"\W+", "_", name.strip().lower()).strip("_") or "graph"
    return f"graph_{gid}" if gid[0].isdigit() else gid


def imported_modules(code: str) -> list[str]:
    """The top-level modules `code` imports (absolute imports only), sorted."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            names.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.partition(".")[0])
    return sorted(names)


def _providers(spec: GraphSpec) -> set[str]:
    """Every chat model provider named anywhere in the spec (inline subgraphs included)."""
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, ModelSettings):
            found.add(value.provider)
        elif isinstance(value, BaseModel):
            for field in type(value).model_fields:
                walk(getattr(value, field))
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)

    walk(spec)
    return found - {"scripted"}


def requirements(code: str, spec: GraphSpec) -> tuple[list[str], list[str]]:
    """(requirements.txt lines, modules that are neither the standard library nor known)."""
    reqs: list[str] = [LANGGRAPH_PIN]
    unknown: list[str] = []
    for module in imported_modules(code):
        if module in PACKAGES:
            reqs.append(PACKAGES[module])
        elif module.startswith("langchain_"):  # a provider imported directly
            reqs.append(module.replace("_", "-"))
        elif module not in sys.stdlib_module_names:
            unknown.append(module)
    providers = _providers(spec)
    if providers:  # init_chat_model("provider:model") lives in langchain; the provider beside it
        reqs.append(PACKAGES["langchain"])
        reqs += [PROVIDER_PACKAGES[p] for p in providers if p in PROVIDER_PACKAGES]
    return list(dict.fromkeys(reqs)), unknown


def _copy_local(modules: Iterable[str], base_dir: Path, out: Path) -> tuple[list[str], list[str]]:
    """Copy each module found beside the spec into the project: (copied, not found)."""
    copied, missing = [], []
    for name in modules:
        file, package = base_dir / f"{name}.py", base_dir / name
        if file.is_file():
            shutil.copy2(file, out / file.name)
        elif (package / "__init__.py").is_file():
            shutil.copytree(package, out / name, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
        else:
            missing.append(name)
            continue
        copied.append(name)
    return copied, missing


def write_project(
    spec: GraphSpec, code: str, out: Path, *, base_dir: Path, name: str
) -> list[Path]:
    """Write the project for `spec` (whose langgraph export is `code`) into `out`; returns the
    files written. `name` (the spec file's stem) names the graph on the server."""
    out.mkdir(parents=True, exist_ok=True)
    gid = graph_id(name)
    reqs, unknown = requirements(code, spec)
    copied, missing = _copy_local(unknown, base_dir, out)
    config = {
        "$schema": "https://langgra.ph/schema.json",
        "dependencies": ["."],
        "graphs": {gid: f"./{MODULE}:graph"},
        "python_version": "3.11",  # the oldest Python this project supports, as pyproject says
    }
    files = {
        MODULE: code,
        "langgraph.json": json.dumps(config, indent=2) + "\n",
        "requirements.txt": "".join(f"{r}\n" for r in reqs),
        "README.md": _readme(spec, gid, copied, missing),
    }
    written = []
    for filename, text in files.items():
        (out / filename).write_text(text, encoding="utf-8")
        written.append(out / filename)
    return written


def _readme(spec: GraphSpec, gid: str, copied: list[str], missing: list[str]) -> str:
    title = spec.name or gid
    local = ""
    if copied:
        local += f"\nCopied from beside the spec, for the code it imports: {', '.join(copied)}.\n"
    if missing:
        local += (f"\nThe spec's code imports {', '.join(missing)}, which is not beside the spec: "
                  "add it to this folder or to requirements.txt before running.\n")  # fmt: skip
    return f"""# {title}

Exported by Superstep Studio as a LangGraph server project: `{MODULE}` is plain langgraph code
(its `graph` is the compiled graph, with no checkpointer: the server brings its own), and
`langgraph.json` serves it as the graph `{gid}`.
{local}
## Run it on this machine

```sh
pip install -r requirements.txt "langgraph-cli[inmem]"
langgraph dev            # http://127.0.0.1:2024, threads kept in memory (add --no-browser)
```

Then, from Python (`pip install langgraph-sdk`):

```python
from langgraph_sdk import get_sync_client

client = get_sync_client(url="http://127.0.0.1:2024")
thread = client.threads.create()
print(client.runs.wait(thread["thread_id"], "{gid}", input={{}}))
```

An interrupt leaves the thread waiting; answer it with
`client.runs.wait(thread_id, "{gid}", command={{"resume": VALUE}})`.

## Run it with Postgres and Redis

`langgraph up` builds an image of this folder and starts it with a Postgres database (threads,
checkpoints, the store, the run queue) and Redis (streaming from background runs), by Docker
Compose. It needs Docker and a `LANGSMITH_API_KEY` (or a `LANGGRAPH_CLOUD_LICENSE_KEY`) in the
environment or a `.env` file here:

```sh
langgraph up             # http://localhost:8123
```

To run on your own Postgres and Redis instead, build the image and pass their addresses:

```sh
langgraph build -t {gid.replace("_", "-")}
docker run -p 8123:8000 -e DATABASE_URI=postgres://... -e REDIS_URI=redis://... \\
    -e LANGSMITH_API_KEY=... {gid.replace("_", "-")}
```
"""


__all__ = ["graph_id", "imported_modules", "requirements", "write_project"]
