"""``tableref import``, ``history`` and ``export`` over a game store."""

from __future__ import annotations

import json

from tableref.cli import main

HEADER = {"type": "game", "game": "uno", "rules": "official", "players": ["A", "B", "C"]}


def test_cli_import_history_export(tmp_path, capsys):
    log = tmp_path / "in.jsonl"
    log.write_text(json.dumps(HEADER) + "\n" + '{"type": "start", "card": "red-7"}\n'
                   + "not json\n", encoding="utf-8")
    db = str(tmp_path / "cli.db")
    assert main(["import", str(log), "--db", db]) == 0
    out = capsys.readouterr()
    assert "imported as game #1" in out.out and "line 2" in out.err
    assert main(["history", "--db", db]) == 0
    assert "uno/official" in capsys.readouterr().out
    out_file = tmp_path / "out.jsonl"
    assert main(["export", "1", "--db", db, "-o", str(out_file)]) == 0
    lines = out_file.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[1]) == {"type": "start", "card": "red-7"}
    assert main(["export", "9", "--db", db]) == 2
    assert "no game with id 9" in capsys.readouterr().err


def test_cli_history_lists_a_damaged_game_as_damaged_beside_the_others(tmp_path, capsys):
    import sqlite3

    from referee.store import GameStore

    db = tmp_path / "cli.db"
    store = GameStore(db)
    for players in (["A", "B"], ["C", "D"]):
        store.create_game({**HEADER, "players": players})
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE games SET header='{oops' WHERE id=1")
    assert main(["history", "--db", str(db)]) == 0
    out = capsys.readouterr().out.splitlines()
    first = next(line for line in out if line.startswith("#1"))
    second = next(line for line in out if line.startswith("#2"))
    assert "damaged" in first and "log_damaged" in first and "?/" not in first
    assert "uno/official" in second and "C, D" in second
