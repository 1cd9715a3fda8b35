"""The base Game's shapes (referee/game.py): dispatch, rulings, observers."""

from __future__ import annotations

import json

from referee.game import Game, replay
from referee.junocos import Junocos
from referee.log import read_log
from referee.narabe import NarabeRuno
from referee.overflow import Overflow
from referee.phased import PhasedGame
from referee.tgus_t import TgusTGame


class Toy(Game):
    """A game of one event, ``ping``; its secret is a number."""

    name = "toy"
    handlers = {**Game.handlers, "ping": "on_ping"}

    def __init__(self, header):
        super().__init__(header)
        self.pings = 0

    def on_ping(self, event):
        self.pings += 1
        return [self.ruling(event.index, "ok", "ping", "Pinged.", player="A",
                            draw=1, count=self.pings)]

    def state(self):
        return {"pings": self.pings, "secret": 7}

    def observe(self, viewer=None):
        return {"pings": self.pings}


def toy(*events):
    lines = [json.dumps({"type": "game", "game": "toy", "rules": "toy-1",
                         "players": ["A", "B"]})]
    log = read_log(lines + [json.dumps(e) for e in events])
    game = Toy(log.header)
    return game, [r for e in log.events for r in game.apply(e)]


def test_handlers_dispatch_and_ruling_names_the_preset():
    game, rulings = toy({"type": "ping"})
    r = rulings[0]
    assert (r.event, r.ruling, r.rule, r.player, r.draw) == (1, "ok", "toy-1.ping",
                                                             "A", 1)
    assert r.extra == {"count": 1} and game.prefix == "toy-1"


def test_an_unknown_event_type_is_an_info_ruling_and_changes_nothing():
    game, rulings = toy({"type": "pong"}, {"type": "ping"})
    assert [(r.ruling, r.rule) for r in rulings] == [
        ("info", "toy-1.unknown-event"), ("ok", "toy-1.ping")]
    assert "'pong'" in rulings[0].text and game.pings == 1


def test_public_view_is_the_tables_observation():
    game, _ = toy({"type": "ping"})
    assert game.public_view() == game.observe(None) == {"pings": 1}
    assert game.state()["secret"] == 7


def test_every_other_game_uses_the_one_dispatcher_and_ruling():
    for cls in (Junocos, NarabeRuno, Overflow, TgusTGame):
        for klass in cls.__mro__[:-2]:  # the game's own classes, not Game/object
            assert "ruling" not in vars(klass), klass
            assert "public_view" not in vars(klass), klass
        assert set(cls.handlers) > set(PhasedGame.handlers), cls


def test_games_share_the_rule_names_of_docs_rules_md():
    head = {"type": "game", "players": ["A", "B", "C"]}
    for game, rules in (("junocos", "junocos"), ("narabe-runo", "narabe-runo"),
                        ("overflow", "overflow"), ("uno", "tgus-t1")):
        lines = [json.dumps({**head, "game": game, "rules": rules}),
                 json.dumps({"type": "bogus"})]
        if game == "uno":
            lines.insert(1, json.dumps({"type": "start", "card": "red-5"}))
        rule = replay(lines).rulings[-1].rule
        assert rule == f"{rules}.unknown-event", rule
