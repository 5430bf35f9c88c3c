"""Teaching: the compiled runtime view and the lecture mode."""

from studio.lecture.install import install

__all__ = ["install"]
