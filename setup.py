"""Build hook: ships the gallery, `templates/*.json`, inside the `graphspec` package as
`graphspec/templates_data/`, so an installed copy finds its templates (`graphspec.templates`). The repository
keeps `templates/` as the one folder users see and edit; everything else is in pyproject.toml."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

TEMPLATES = Path(__file__).resolve().parent / "templates"


class BuildWithTemplates(build_py):
    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "graphspec" / "templates_data"
        self.mkpath(str(target))
        for path in sorted(TEMPLATES.glob("*.json")):
            self.copy_file(str(path), str(target / path.name))


setup(cmdclass={"build_py": BuildWithTemplates})
