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
    """Every game once, with all its presets, then the option names.

    A game run by several classes (``uno``: :class:`~referee.uno.UnoGame`,
    ``TgusGame``, ``TgusTGame``) is listed once: each class's presets, each
    with its one-line summary or else the class's, then that class's options.
    """
    lines = ["Games and their rule presets (tableref rules NAME shows one):", ""]
    by_name: dict[str, list[type]] = {}
    for cls in games():
        by_name.setdefault(cls.name, []).append(cls)
    for name, classes in by_name.items():
        if len(classes) == 1:
            lines.append(f"{name}: {_first_line(classes[0].__doc__)}")
        else:
            every = [p for cls in classes for p in cls.presets()]
            lines.append(f"{name}: presets {', '.join(every)}")
        for cls in classes:
            lines += _presets(cls, alone=len(classes) == 1)
        lines.append("")
    return "\n".join(lines).rstrip()


def _presets(cls: type, alone: bool) -> list[str]:
    """One class's presets and option names for :func:`overview`."""
    lines = []
    presets = cls.presets()
    summary = getattr(cls, "preset_summary", None)  # one line per preset, if any
    for preset in presets:
        line = summary(preset) if summary is not None else ""
        if not line and not alone:
            line = _first_line(cls.__doc__)
        lines.append(f"  {preset}" + (f": {line}" if line else ""))
    sample = next((v for v in presets.values() if is_dataclass(v)), None)
    rows = _fields(sample)
    if rows:
        of = "" if alone else f" of {', '.join(presets)}"
        lines.append(f"  options{of} (header \"options\" may override them by name):")
        width = max(len(r[0]) for r in rows)
        lines += [f"    {name.ljust(width)}  {help_}" for name, _, help_, _ in rows]
    return lines


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
