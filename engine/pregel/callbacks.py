"""Handlers a run adds to its config's callbacks, so every node's LangChain runs inherit them."""

from __future__ import annotations

from typing import Any


def add_handler(config: dict, handler: Any) -> None:
    callbacks = config.get("callbacks")
    if callbacks is None:
        config["callbacks"] = [handler]
    elif isinstance(callbacks, list):
        config["callbacks"] = [*callbacks, handler]
    else:
        callbacks.add_handler(handler, inherit=True)
