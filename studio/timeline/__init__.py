"""The Superstep timeline (issue 30): a run's supersteps on a time axis, scrubbed to see the run
after any step, and re-run from any task (`dock.install`)."""

from studio.timeline.dock import install

__all__ = ["install"]
