"""Reading a :class:`~vision.config.PipelineConfig`: files, ``--set``, listings.

    config = load_config("table.toml", ["play.settle_s=0.2"])

A file is JSON or TOML (by its suffix ``.toml``), one table per section;
``--set SECTION.FIELD=VALUE`` is typed by the field it names. The command-line
helpers give ``tableref watch``, ``demo`` and ``serve`` the same three options.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import fields
from pathlib import Path
from typing import Any, Sequence

from .config import SECTIONS, ConfigError, PipelineConfig, kind_name, split_name


def parse_set(text: str) -> tuple[str, Any]:
    """``"play.settle_s=0.2"`` -> ``("play.settle_s", 0.2)``, typed by the field."""
    dotted, sep, raw = text.partition("=")
    dotted, raw = dotted.strip(), raw.strip()
    if not sep or not dotted:
        raise ConfigError(f"--set needs SECTION.FIELD=VALUE, got {text!r}")
    section, name = split_name(dotted)
    kind = type(next(f for f in fields(SECTIONS[section]) if f.name == name).default)
    try:
        if kind is bool:
            if raw.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError(raw)
            value: Any = raw.lower() in ("true", "1", "yes")
        else:
            value = kind(raw)
    except ValueError:
        raise ConfigError(
            f"{dotted} must be {kind_name(kind)}, got {raw!r}"
        ) from None
    return dotted, value


def load_config(path: str | Path | None = None, sets: Sequence[str] = ()) -> (
    PipelineConfig
):
    """The defaults, then the file at ``path`` (JSON or TOML), then ``sets``.

    Raises:
        ConfigError: an unreadable file, an unknown field, or a bad value.
    """
    config = PipelineConfig()
    if path is not None:
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"cannot read config file {p}: {exc.strerror}") from None
        try:
            if p.suffix.lower() == ".toml":
                import tomllib

                data = tomllib.loads(text)
            else:
                data = json.loads(text)
        except ValueError as exc:
            raise ConfigError(f"config file {p} is not valid: {exc}") from None
        config = PipelineConfig.from_dict(data, str(p))
    return config.updated(dict(parse_set(s) for s in sets))


def describe(config: PipelineConfig | None = None) -> str:
    """Every field as ``section.field = value unit: meaning``, one a line."""
    config = config or PipelineConfig()
    lines = []
    for dotted, value, f in config.items():
        lines.append(f"{dotted} = {value!r} {f.metadata['unit']}: {f.metadata['help']}")
    return "\n".join(lines)


def markdown_table(config: PipelineConfig | None = None) -> str:
    """The fields as a Markdown table (docs/vision.md holds one)."""
    config = config or PipelineConfig()
    rows = ["| field | default | unit | meaning |", "|---|---|---|---|"]
    for dotted, value, f in config.items():
        rows.append(f"| `{dotted}` | {value!r} | {f.metadata['unit']} | "
                    f"{f.metadata['help']} |")
    return "\n".join(rows)


# -- command line ------------------------------------------------------------------
class _HelpConfig(argparse.Action):
    def __init__(self, option_strings: Sequence[str], dest: str, **kw: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help=kw.get("help"))

    def __call__(  # noqa: ANN001
        self, parser, namespace, values, option_string=None
    ) -> None:
        print(describe())
        parser.exit()


def add_config_arguments(p: argparse.ArgumentParser) -> None:
    """``--config FILE``, ``--set SECTION.FIELD=VALUE`` and ``--help-config``."""
    p.add_argument("--config", metavar="FILE",
                   help="pipeline thresholds from a JSON or TOML file")
    p.add_argument("--set", dest="config_set", action="append", default=[],
                   metavar="SECTION.FIELD=VALUE",
                   help="set one pipeline threshold (repeatable), e.g. "
                   "play.settle_s=0.2")
    p.add_argument("--help-config", action=_HelpConfig,
                   help="list every pipeline threshold with its unit and meaning")


def config_from_args(args: argparse.Namespace) -> PipelineConfig:
    """The configuration that ``--config``, ``--set`` and ``--deck`` ask for
    (``--deck NAME``, where the parser has it, sets ``detector.deck``).

    Raises:
        ConfigError: as :func:`load_config`.
    """
    config = load_config(getattr(args, "config", None), getattr(args, "config_set", ()))
    deck = getattr(args, "deck", None)  # watch/serve --deck (vision.header_args)
    return config.updated({"detector.deck": deck}) if deck else config
