"""Datasets and experiments in the studio (issue 29): the Datasets dock (`dock.py`) and its
tables (`tables.py`) over `graphspec.evals`."""

from studio.evals.dock import install

__all__ = ["install"]
