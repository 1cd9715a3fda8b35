"""A live table starts a new game: a header whose options the game cannot use
is refused with the page's sentence, naming every bad option with what it may
be; ``tableref watch`` says it and exits non-zero. A stored log's header read
again (``new=False``) keeps tolerating such options, as the page's resume
does."""

from __future__ import annotations

import argparse
import io

import pytest

from vision.live import GameRefused, LiveTable

HEADER = {"type": "game", "game": "uno", "rules": "official", "players": ["A", "B"],
          "options": {"nope": 1, "stacking": "x", "rounds": 0}}


def test_a_new_live_table_refuses_every_bad_option_before_it_writes_a_log(tmp_path):
    log = tmp_path / "table.jsonl"
    with pytest.raises(GameRefused) as info:
        LiveTable(HEADER, out=io.StringIO(), log_path=str(log))
    said = str(info.value)
    assert said.startswith("cannot start this game: ")
    for part in ("'nope'", "'stacking'", "true or false", "'rounds'", "at least 1"):
        assert part in said, (part, said)
    ja = info.value.render("ja")
    assert ja.startswith("このゲームは始められません（") and ja.endswith("）。")
    assert "trueかfalse" in ja and "1以上の整数" in ja and ja.count("。") == 1
    assert [o["option"] for o in info.value.cause.data()] == ["nope", "stacking", "rounds"]
    assert not log.exists()


def test_an_unknown_game_is_refused_the_same_way():
    with pytest.raises(GameRefused, match="^cannot start this game: unknown game 'chess'"):
        LiveTable({**HEADER, "game": "chess", "options": {}}, out=io.StringIO())


def test_a_stored_logs_header_keeps_tolerating_bad_options():
    table = LiveTable(HEADER, out=io.StringIO(), new=False)
    rulings = table.append({"type": "start", "card": "red-7", "source": "manual"})
    infos = [r for r in rulings if r.ruling == "info"]
    assert any("'nope'" in r.text for r in infos) and any("'stacking'" in r.text
                                                          for r in infos)
    assert table.referee.game.options.stacking is False
    good = LiveTable({**HEADER, "options": {"stacking": True}}, out=io.StringIO())
    assert good.referee.game.options.stacking is True


def test_watch_refuses_a_bad_header_and_exits_non_zero(capsys, monkeypatch):
    import vision.pipeline as pipeline
    from vision.commands import watch, watch_arguments

    def no_camera(*args, **kwargs):
        raise AssertionError("the camera must not start for a refused game")

    monkeypatch.setattr(pipeline, "TablePipeline", no_camera)
    p = argparse.ArgumentParser()
    watch_arguments(p)
    args = p.parse_args(["0", "--players", "A,B", "--option", "nope=1",
                         "--option", 'stacking="x"'])
    code = watch(args)
    err = capsys.readouterr().err
    assert code != 0
    assert "cannot start this game: " in err and "'nope'" in err and "'stacking'" in err
    assert "true or false" in err
