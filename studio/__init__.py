"""Superstep Studio's Qt application (PySide6).

Depends on `spec` (and through it `engine`); neither imports `studio` or Qt.
"""

# Load the spec models (and pydantic's lazily imported modules) before any Qt module: shiboken's
# import hook inspects modules as they load and trips over pydantic's half-imported internals.
import graphspec.model  # noqa: F401
