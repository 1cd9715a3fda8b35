"""The game's options on the command line, the same for ``watch`` and ``serve``.

:func:`add_game_arguments` adds them to a parser and :func:`header_from_args`
turns them into a table-log header (``../shared/spec/table-log.md``):

    --header FILE          a header line (a table log's first line, or a JSON file)
    --game NAME            uno, junocos, narabe-runo, overflow (default uno)
    --rules PRESET         official, tgus-1 ... (official for uno, else the game)
    --players A,B,C        seating order, seat 0 nearest the camera; also A B C
    --dealer NAME          (default: the last player)
    --hand-size N          cards dealt to each player
    --scoring japan|international, --rounds N, --target POINTS
    --option NAME=VALUE    any house-rule option, repeatable (VALUE read as JSON:
                           true, 2, "x"; anything else is a string)
    --options JSON         several options as one JSON object
    --deck NAME            read the cards with an enrolled deck (``tableref decks``);
                           not part of the header: the pipeline's ``detector.deck``
                           (:func:`vision.config_load.config_from_args`)

A header file comes first; every flag given overrides its field (options are
merged, a flag's option winning). An unknown deck name is refused while the
command line is read (exit 2, the enrolled decks listed).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from referee.log import Header, LogError


class HeaderError(ValueError):
    """Game options that do not make a header; the message says which and why."""


def _names(values: list[str] | None) -> list[str] | None:
    if not values:
        return None
    names = [n.strip() for v in values for n in v.split(",") if n.strip()]
    if not names:
        raise HeaderError("--players needs names (A,B,C or A B C)")
    return names


def add_game_arguments(p: argparse.ArgumentParser) -> None:
    """The game's options (see the module docstring)."""
    g = p.add_argument_group("game")
    g.add_argument("--header", metavar="FILE", help="a table-log header line (JSON)")
    g.add_argument("--game", help="uno, junocos, narabe-runo or overflow (uno)")
    g.add_argument(
        "--rules", help="rules preset (default: official for uno, else the game)"
    )
    g.add_argument(
        "--players",
        nargs="+",
        metavar="NAME",
        help="players in seating order, seat 0 nearest the camera: A,B,C or A B C",
    )
    g.add_argument("--dealer", help="the dealer (default: the last player)")
    g.add_argument("--hand-size", type=int, help="cards dealt to each player")
    g.add_argument("--scoring", choices=("japan", "international"))
    g.add_argument("--rounds", type=int, help="rounds of japan scoring")
    g.add_argument("--target", type=int, help="points that end international scoring")
    g.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a house-rule option (repeatable), e.g. stacking=true",
    )
    g.add_argument("--options", help="house-rule options as one JSON object")
    g.add_argument(
        "--deck",
        type=enrolled_deck,
        metavar="NAME",
        help="read the cards with an enrolled deck's classifier (tableref decks)",
    )


def enrolled_deck(name: str) -> str:
    """``--deck``'s type: the name itself if it names an enrolled deck.

    Raises:
        argparse.ArgumentTypeError: no such deck (the message lists the enrolled
            decks), so the parser exits 2 saying so.
    """
    from vision.decks import DeckError, deck_folder

    try:
        deck_folder(name)
    except DeckError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return name


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def read_header_file(path: str | Path) -> dict[str, Any]:
    """The header in ``path``: a table log's first line, or a JSON object."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise HeaderError(f"--header {path}: {exc.strerror or exc}") from None
    first = next((line for line in text.splitlines() if line.strip()), "")
    for candidate in (first, text):
        try:
            obj = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(obj, dict):
            return obj
    raise HeaderError(f"--header {path}: no JSON object on its first line")


def header_from_args(args: argparse.Namespace) -> dict[str, Any] | None:
    """The header the options describe; ``None`` when they name no players.

    Raises:
        HeaderError: an unreadable header file, bad JSON, an option that is
            not NAME=VALUE, or a header the referee refuses.
    """
    header: dict[str, Any] = {}
    if getattr(args, "header", None):
        header = read_header_file(args.header)
    players = _names(getattr(args, "players", None))
    if players:
        header["players"] = players
    if not header.get("players"):
        return None
    header["type"] = "game"
    game = getattr(args, "game", None) or header.get("game") or "uno"
    header["game"] = game
    rules = getattr(args, "rules", None) or header.get("rules")
    header["rules"] = rules or ("official" if game == "uno" else game)
    if getattr(args, "dealer", None):
        header["dealer"] = args.dealer
    if getattr(args, "hand_size", None) is not None:
        header["hand_size"] = args.hand_size
    options = dict(header.get("options") or {})
    if getattr(args, "options", None):
        try:
            extra = json.loads(args.options)
        except ValueError as exc:
            raise HeaderError(f"--options is not JSON: {exc}") from None
        if not isinstance(extra, dict):
            raise HeaderError("--options must be a JSON object")
        options.update(extra)
    for item in getattr(args, "option", None) or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise HeaderError(f"--option needs NAME=VALUE, got {item!r}")
        options[name.strip()] = _value(value.strip())
    for name in ("scoring", "rounds", "target"):
        if getattr(args, name, None) is not None:
            options[name] = getattr(args, name)
    header["options"] = options
    try:
        Header.from_dict(header)
    except LogError as exc:
        raise HeaderError(exc.message) from None
    return header
