"""Superstep Studio's Qt application (PySide6).

Depends on `engine`; `engine` never imports `studio` or Qt.
"""
