"""A run's exception as people read it. A pydantic ValidationError (a run's input or a node's
update that does not fit a pydantic state) is said field by field: which field, what is wrong and
the value given, without pydantic's links to its documentation."""

from __future__ import annotations

from typing import Any


def field_error(title: str, error: Any) -> str:
    """One of a ValidationError's errors (`title` the model's name): `State.count: Input should
    be a valid integer, got 'many'`."""
    field = ".".join(str(part) for part in error["loc"]) or "the value"
    return f"{title}.{field}: {error['msg']}, got {error.get('input')!r:.80}"


def field_errors(exc: BaseException) -> list[str]:
    """Each field error of a pydantic ValidationError; [] for any other exception."""
    from pydantic import ValidationError

    if not isinstance(exc, ValidationError):
        return []
    return [field_error(exc.title, error) for error in exc.errors(include_url=False)]


def error_text(exc: BaseException) -> str:
    """`Type: message`; a ValidationError as pydantic's count of errors, then each on a line."""
    fields = field_errors(exc)
    if not fields:
        return f"{type(exc).__name__}: {exc}"
    count = str(exc).splitlines()[0]  # "3 validation errors for Order"
    return "\n".join([f"{type(exc).__name__}: {count}", *(f"  {line}" for line in fields)])


__all__ = ["error_text", "field_error", "field_errors"]
