"""watch and serve take the game's options the same way (issue 25)."""

from __future__ import annotations

import argparse
import json

import pytest

from vision.header_args import HeaderError, add_game_arguments, header_from_args
from web.commands import serve_arguments
from vision.commands import watch_arguments


def parse(setup, *argv):
    p = argparse.ArgumentParser()
    setup(p)
    return p.parse_args(list(argv))


@pytest.mark.parametrize("setup, first", [(watch_arguments, ["0"]),
                                          (serve_arguments, [])])
def test_watch_and_serve_read_the_same_options_the_same_way(setup, first):
    args = parse(setup, *first, "--players", "A,B", "C", "--dealer", "B",
                 "--hand-size", "5", "--scoring", "japan", "--rounds", "2",
                 "--option", "stacking=true", "--option", "uno_penalty=4",
                 "--rules", "official")
    assert header_from_args(args) == {
        "type": "game", "game": "uno", "rules": "official",
        "players": ["A", "B", "C"], "dealer": "B", "hand_size": 5,
        "options": {"scoring": "japan", "rounds": 2, "stacking": True,
                    "uno_penalty": 4},
    }


def test_a_header_file_gives_everything_and_flags_override_it(tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_text(json.dumps({
        "type": "game", "game": "uno", "rules": "official",
        "players": ["Aiko", "Ben", "Chie"], "dealer": "Chie", "hand_size": 5,
        "options": {"scoring": "japan", "rounds": 2}}) + "\n{\"type\": \"x\"}\n")
    args = parse(add_game_arguments, "--header", str(path), "--target", "300",
                 "--scoring", "international")
    header = header_from_args(args)
    assert header["players"] == ["Aiko", "Ben", "Chie"] and header["hand_size"] == 5
    assert header["options"] == {"scoring": "international", "rounds": 2,
                                 "target": 300}


@pytest.mark.parametrize("argv, why", [
    (["--players", "A,B", "--option", "stacking"], "NAME=VALUE"),
    (["--players", "A,B", "--options", "[1]"], "JSON object"),
    (["--players", "A,B", "--dealer", "Z"], "dealer"),
    (["--players", "A,B", "--hand-size", "0"], "hand_size"),
    (["--header", "/no/such/file"], "--header"),
])
def test_bad_options_say_why(argv, why):
    with pytest.raises(HeaderError, match=why):
        header_from_args(parse(add_game_arguments, *argv))


def test_no_players_is_no_header():
    assert header_from_args(parse(add_game_arguments)) is None
