"""The import roots a project's pyproject.toml installs its packages from, as `pip install -e .`
would make them importable."""

from __future__ import annotations

from pathlib import Path

from graphspec.project_packages import package_roots


def project(tmp_path: Path, pyproject: str | None, *folders: str) -> Path:
    for folder in folders:
        (tmp_path / folder).mkdir(parents=True)
    if pyproject is not None:
        (tmp_path / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    return tmp_path


def test_setuptools_package_dir_names_the_src_folder(tmp_path):
    folder = project(tmp_path, '[tool.setuptools.package-dir]\n"agent" = "src/agent"\n'
                     '"langgraph.templates.agent" = "src/agent"\n', "src/agent")  # fmt: skip
    assert package_roots(folder) == ((tmp_path / "src").resolve(),)


def test_a_root_mapping_and_find_where_are_roots(tmp_path):
    folder = project(tmp_path, '[tool.setuptools.package-dir]\n"" = "lib"\n'
                     '[tool.setuptools.packages.find]\nwhere = ["code"]\n', "lib", "code")  # fmt: skip
    assert package_roots(folder) == ((tmp_path / "lib").resolve(), (tmp_path / "code").resolve())


def test_poetry_and_hatch_layouts(tmp_path):
    poetry = project(tmp_path / "p", '[tool.poetry]\npackages = [{include = "bot", from = "app"}]\n',
                     "app/bot")  # fmt: skip
    assert package_roots(poetry) == ((poetry / "app").resolve(),)
    hatch = project(tmp_path / "h", '[tool.hatch.build.targets.wheel]\npackages = ["src/bot"]\n',
                    "src/bot")  # fmt: skip
    assert package_roots(hatch) == ((hatch / "src").resolve(),)


def test_without_settings_a_src_folder_is_the_default_layout(tmp_path):
    assert package_roots(project(tmp_path / "a", None, "src/pkg")) == (
        (tmp_path / "a/src").resolve(),
    )
    assert package_roots(project(tmp_path / "b", "[project]\nname = 'x'\n", "pkg")) == ()


def test_renamed_packages_outside_folders_and_bad_toml_give_nothing(tmp_path):
    renamed = project(tmp_path / "r", '[tool.setuptools.package-dir]\n"a.b" = "src/b"\n', "src/b")
    assert package_roots(renamed) == ()
    outside = project(tmp_path / "o", '[tool.setuptools.package-dir]\n"" = "../elsewhere"\n',
                      "../elsewhere")  # fmt: skip
    assert package_roots(outside) == ()
    assert package_roots(project(tmp_path / "x", "not = [toml", "src")) == (
        (tmp_path / "x/src").resolve(),
    )
