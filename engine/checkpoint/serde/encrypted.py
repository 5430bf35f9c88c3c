"""EncryptedSerializer: another serializer's bytes, encrypted; the type tag gains `+cipher`.

The AES cipher writes what langgraph's does (EAX by default; nonce, tag and ciphertext in one
blob; tag "<type>+aes"), so a database encrypted by either can be read by the other.
"""

from __future__ import annotations

import os
from typing import Any

from engine.checkpoint.serde.base import CipherProtocol, SerializerProtocol
from engine.checkpoint.serde.jsonplus import JsonPlusSerializer

_AES_KEY_SIZES = (16, 24, 32)
_NONCE_AND_TAG = 16  # bytes each, as EAX and GCM write them by default


class EncryptedSerializer(SerializerProtocol):
    """Serializes with `serde`, then encrypts with `cipher`; plain blobs still load."""

    def __init__(self, cipher: CipherProtocol, serde: SerializerProtocol | None = None) -> None:
        self.cipher = cipher
        self.serde = serde if serde is not None else JsonPlusSerializer()

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
        type_tag, data = self.serde.dumps_typed(obj)
        cipher_name, ciphertext = self.cipher.encrypt(data)
        return f"{type_tag}+{cipher_name}", ciphertext

    def loads_typed(self, data: tuple[str, bytes]) -> Any:
        tag, payload = data
        if "+" not in tag:  # written before encryption was turned on
            return self.serde.loads_typed(data)
        type_tag, cipher_name = tag.split("+", 1)
        return self.serde.loads_typed((type_tag, self.cipher.decrypt(cipher_name, payload)))

    @classmethod
    def from_pycryptodome_aes(
        cls, serde: SerializerProtocol | None = None, **kwargs: Any
    ) -> EncryptedSerializer:
        """AES with `key=` (bytes) or the LANGGRAPH_AES_KEY environment variable; other keyword
        arguments go to `AES.new` (mode defaults to EAX)."""
        try:
            from Crypto.Cipher import AES
        except ImportError:
            raise ImportError(
                "Pycryptodome is not installed. Please install it with `pip install pycryptodome`."
            ) from None
        if "key" in kwargs:
            key: bytes = kwargs.pop("key")
        else:
            text = os.getenv("LANGGRAPH_AES_KEY")
            if text is None:
                raise ValueError("LANGGRAPH_AES_KEY environment variable is not set.")
            key = text.encode()
            if len(key) not in _AES_KEY_SIZES:
                raise ValueError("LANGGRAPH_AES_KEY must be 16, 24, or 32 bytes long.")
        if kwargs.get("mode") is None:
            kwargs["mode"] = AES.MODE_EAX
        return cls(_AesCipher(AES, key, kwargs), serde)


class _AesCipher:
    def __init__(self, aes: Any, key: bytes, options: dict[str, Any]) -> None:
        self.aes, self.key, self.options = aes, key, options

    def encrypt(self, plaintext: bytes) -> tuple[str, bytes]:
        cipher = self.aes.new(self.key, **self.options)
        ciphertext, tag = cipher.encrypt_and_digest(plaintext)
        return "aes", cipher.nonce + tag + ciphertext

    def decrypt(self, ciphername: str, ciphertext: bytes) -> bytes:
        if ciphername != "aes":
            raise ValueError(f"Unsupported cipher: {ciphername}")
        nonce = ciphertext[:_NONCE_AND_TAG]
        tag = ciphertext[_NONCE_AND_TAG : 2 * _NONCE_AND_TAG]
        cipher = self.aes.new(self.key, **self.options, nonce=nonce)
        return cipher.decrypt_and_verify(ciphertext[2 * _NONCE_AND_TAG :], tag)


__all__ = ["EncryptedSerializer"]
