"""Differential tests: FilesystemFileSearchMiddleware (langchain 1.5) on engine.agents and
langchain.agents: the same tools (names, descriptions, schemas) and the same answers, paths
leaving the root refused (issue 31)."""

import importlib
import os

import pytest

from tests.engine.agents.helpers import FakeToolModel, ai, dump, same

pytestmark = pytest.mark.differential


@pytest.fixture
def tree(tmp_path):
    """A project folder and, beside it, a secret that symlinks inside must not reach."""
    root = tmp_path / "root"
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "docs").mkdir()
    files = {
        "src/app.py": "import os\nTODO = 1\nprint('hello')\n",
        "src/pkg/util.pyi": "def helper() -> int: ...\n# TODO later\n",
        "src/pkg/data.json": '{"todo": true}\n',
        "docs/readme.md": "Hello docs\nTODO: write\n",
        "big.txt": "TODO " * 400,
    }
    for i, (name, text) in enumerate(files.items()):
        (root / name).write_text(text)
        os.utime(root / name, (1_700_000_000 + i * 60, 1_700_000_000 + i * 60))
    (root / "bin.dat").write_bytes(b"\xff\xfe TODO \x00")
    (tmp_path / "secret.txt").write_text("TODO secret\n")
    (root / "link.txt").symlink_to(tmp_path / "secret.txt")
    (root / "outside").symlink_to(tmp_path, target_is_directory=True)
    return root


GLOBS = [("**/*.py", "/"), ("*", "/src"), ("**/*", "/src/pkg"), ("*.txt", "/"), ("../*", "/"),
         ("/etc/*", "/"), ("*", "/../"), ("*", "/nowhere"), ("*", "~"), ("**/*.md", "docs")]  # fmt: skip
GREPS = [
    {"pattern": "TODO"},
    {"pattern": "TODO", "output_mode": "content"},
    {"pattern": "(?i)todo", "output_mode": "count"},
    {"pattern": "TODO", "include": "*.{py,pyi}", "output_mode": "content"},
    {"pattern": "TODO", "include": "*.{py", "output_mode": "content"},
    {"pattern": "TODO", "include": "*.{}"},
    {"pattern": "TODO", "path": "/src/pkg"},
    {"pattern": "TODO", "path": "/../"},
    {"pattern": "(unclosed"},
    {"pattern": "nothing here"},
]


def test_the_tools_answer_the_same(agent_backend, tree):
    def scenario(b):
        mw = b.middleware.FilesystemFileSearchMiddleware(
            root_path=str(tree), use_ripgrep=False, max_file_size_mb=0
        )
        small = b.middleware.FilesystemFileSearchMiddleware(root_path=str(tree), use_ripgrep=True)
        shapes = [(t.name, t.description, t.args) for t in mw.tools]
        globs = [mw.glob_search.invoke({"pattern": p, "path": d}) for p, d in GLOBS]
        greps = [tool.grep_search.invoke(args) for tool in (mw, small) for args in GREPS]
        return shapes, globs, greps

    shapes, globs, greps = same(agent_backend, scenario)
    assert [name for name, _, _ in shapes] == ["glob_search", "grep_search"]
    assert globs[0] == "/src/app.py" and globs[4] == globs[5] == "No files found"
    assert "secret" not in "".join(globs + greps)
    assert greps[0] == "No matches found"  # every file is over 0 MB
    assert greps[len(GREPS)] == "/big.txt\n/docs/readme.md\n/src/app.py\n/src/pkg/util.pyi"


def test_an_agent_searches_through_the_tools(agent_backend, tree):
    def scenario(b):
        mw = b.middleware.FilesystemFileSearchMiddleware(root_path=str(tree), use_ripgrep=False)
        model = FakeToolModel(
            responses=[
                ai("", ("glob_search", {"pattern": "**/*.py"}, "g1")),
                ai("", ("grep_search", {"pattern": "hello", "output_mode": "content"}, "g2")),
                ai("found it"),
            ]
        )
        agent = b.agents.create_agent(model, middleware=[mw])
        return dump(agent.invoke({"messages": [{"role": "user", "content": "find"}]})["messages"])

    msgs = same(agent_backend, scenario)
    assert [m[1] for m in msgs if m[0] == "tool"] == ["/src/app.py", "/src/app.py:3:print('hello')"]


def test_private_include_pattern_helpers(agent_backend, tree):
    """langchain's private helper names (imported by its tests) behave as the engine's own."""

    def scenario(b):
        package = "langchain" if b.prefix == "langgraph" else "engine"
        fs = importlib.import_module(f"{package}.agents.middleware.file_search")
        patterns = ["*.{py,pyi}", "{a,b}{c,d}.txt", "*.py}", "x{}", "", "bad\n", "[z-a].py"]
        root = tree
        return (
            [fs._expand_include_patterns(p) for p in patterns],
            [fs._is_valid_include_pattern(p) for p in patterns],
            [fs._match_include_pattern("util.pyi", p) for p in patterns],
            [
                fs._is_within_root(root / p, root)
                for p in ("src/app.py", "../secret.txt", "link.txt", "outside")
            ],
        )

    expanded, valid, matched, inside = same(agent_backend, scenario)
    assert expanded[0] == ["*.py", "*.pyi"] and valid[4] is False and matched[0] is True
    assert inside == [True, False, False, False]
