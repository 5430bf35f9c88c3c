"""Dock panels and the start page: they read the document and send intents to the editor."""
