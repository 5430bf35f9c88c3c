# Source: langchain-ai/open_deep_research, src/legacy/__init__.py, as released in
#   open-deep-research 0.0.16 (https://pypi.org/project/open-deep-research/0.0.16/, its sdist).
# License: MIT, (c) LangChain (../LICENSE)
# Adapted: nothing.
"""Planning, research, and report generation."""

__version__ = "0.0.15"