"""Hearing UNO calls: an offline call-word listener (see docs/voice.md)."""
