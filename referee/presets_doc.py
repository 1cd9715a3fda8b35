"""Text for ``tableref rules``: every registered game's presets and options.

Generic over games: for each class from :func:`referee.game.games`, its
``presets()`` are listed; a preset whose value is a dataclass shows every
field with its value, one-line ``help`` and ``source`` (field metadata). A
game registered by another module shows up here without any change.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

from .game import games


def _fields(value: Any) -> list[tuple[str, Any, str, str]]:
    if not is_dataclass(value) or isinstance(value, type):
        return []
    out = []
    for f in fields(value):
        v = getattr(value, f.name)
        if isinstance(v, tuple):
            v = ", ".join(map(str, v))
        out.append(
            (f.name, v, f.metadata.get("help", ""), f.metadata.get("source", "")))
    return out


def _first_line(doc: str | None) -> str:
    return (doc or "").strip().splitlines()[0] if (doc or "").strip() else ""


def overview() -> str:
    """Every game with its presets, then the option names of each game."""
    lines = ["Games and their rule presets (tableref rules NAME shows one):", ""]
    for cls in games():
        lines.append(f"{cls.name}: {_first_line(cls.__doc__)}")
        presets = cls.presets()
        summary = getattr(cls, "preset_summary", None)  # one line per preset, if any
        for preset in presets:
            line = summary(preset) if summary is not None else ""
            lines.append(f"  {preset}" + (f": {line}" if line else ""))
        sample = next((v for v in presets.values() if is_dataclass(v)), None)
        rows = _fields(sample)
        if rows:
            lines.append("  options (header \"options\" may override them by name):")
            width = max(len(r[0]) for r in rows)
            lines += [f"    {name.ljust(width)}  {help_}" for name, _, help_, _ in rows]
        lines.append("")
    return "\n".join(lines).rstrip()


def describe(name: str) -> str:
    """Every option of preset (or game) ``name``: value, help and source.

    Raises:
        KeyError: no game has a preset or name ``name``.
    """
    for cls in games():
        presets = cls.presets()
        if name in presets or name == cls.name:
            key = name if name in presets else next(iter(presets))
            value = presets[key]
            lines = [f"{cls.name} / {key}: {_first_line(cls.__doc__)}"]
            rows = _fields(value)
            if not rows:
                lines.append("  (this preset has no options)")
            set_by = getattr(cls, "preset_source", None)  # who set it in this preset
            for opt, v, help_, source in rows:
                shown = str(v).lower() if isinstance(v, bool) else v
                lines.append(f"  {opt} = {shown}")
                lines.append(
                    f"      {help_}" + (f"  [source: {source}]" if source else ""))
                if set_by is not None and set_by(key, opt):
                    lines.append(f"      [{key} sets it: {set_by(key, opt)}]")
            return "\n".join(lines)
    known = sorted(
        {p for cls in games() for p in cls.presets()} | {c.name for c in games()})
    raise KeyError(f"no preset or game named {name!r}; known: {', '.join(known)}")
