"""The serializer contract savers use (langgraph's `SerializerProtocol`)."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


class UntypedSerializerProtocol(Protocol):
    """A serializer without a type tag (json, orjson style)."""

    def dumps(self, obj: Any) -> bytes: ...

    def loads(self, data: bytes) -> Any: ...


@runtime_checkable
class SerializerProtocol(Protocol):
    """`dumps_typed(obj) -> (type tag, bytes)` and `loads_typed((type tag, bytes)) -> obj`."""

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]: ...

    def loads_typed(self, data: tuple[str, bytes]) -> Any: ...


class CipherProtocol(Protocol):
    """Encrypts serialized bytes: `encrypt(plain) -> (cipher name, bytes)` and back."""

    def encrypt(self, plaintext: bytes) -> tuple[str, bytes]: ...

    def decrypt(self, ciphername: str, ciphertext: bytes) -> bytes: ...


class SerializerCompat:
    """Adapts an untyped serializer: the tag is the value's class name and is ignored on load."""

    def __init__(self, serde: UntypedSerializerProtocol) -> None:
        self.serde = serde

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
        return type(obj).__name__, self.serde.dumps(obj)

    def loads_typed(self, data: tuple[str, bytes]) -> Any:
        return self.serde.loads(data[1])


def maybe_add_typed_methods(serde: Any) -> SerializerProtocol:
    """Wrap an untyped serializer so savers can always call the typed methods."""
    if isinstance(serde, SerializerProtocol):
        return serde
    return SerializerCompat(serde)


__all__ = [
    "CipherProtocol",
    "SerializerCompat",
    "SerializerProtocol",
    "UntypedSerializerProtocol",
    "maybe_add_typed_methods",
]
