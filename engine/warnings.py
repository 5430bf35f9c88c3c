"""Deprecation warnings that say since which LangGraph version, and until which."""

from __future__ import annotations


class LangGraphDeprecationWarning(DeprecationWarning):
    """A deprecation with the version that introduced it and the one expected to remove it."""

    message: str
    since: tuple[int, int]
    expected_removal: tuple[int, int]

    def __init__(
        self,
        message: str,
        *args: object,
        since: tuple[int, int],
        expected_removal: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(message, *args)
        self.message = message.rstrip(".")
        self.since = since
        self.expected_removal = expected_removal or (since[0] + 1, 0)

    def __str__(self) -> str:
        (major, minor), (gone_major, gone_minor) = self.since, self.expected_removal
        return (
            f"{self.message}. Deprecated in LangGraph V{major}.{minor} "
            f"to be removed in V{gone_major}.{gone_minor}."
        )


def _since(version: tuple[int, int], removal: tuple[int, int]) -> type[LangGraphDeprecationWarning]:
    class Since(LangGraphDeprecationWarning):
        def __init__(self, message: str, *args: object) -> None:
            super().__init__(message, *args, since=version, expected_removal=removal)

    Since.__name__ = Since.__qualname__ = f"LangGraphDeprecatedSinceV{version[0]}{version[1]}"
    Since.__doc__ = f"Deprecated since LangGraph v{version[0]}.{version[1]}.0."
    return Since


LangGraphDeprecatedSinceV05 = _since((0, 5), (2, 0))
LangGraphDeprecatedSinceV10 = _since((1, 0), (2, 0))
LangGraphDeprecatedSinceV11 = _since((1, 1), (3, 0))

__all__ = (
    "LangGraphDeprecationWarning",
    "LangGraphDeprecatedSinceV05",
    "LangGraphDeprecatedSinceV10",
    "LangGraphDeprecatedSinceV11",
)
