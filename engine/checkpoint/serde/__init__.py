"""Serializers for checkpoints: values to (type tag, bytes) and back, without pickle."""
