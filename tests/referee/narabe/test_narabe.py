"""Scenario tests for narabe-runo (seed 003) and a seeded random playout."""

from __future__ import annotations

import json

from referee.game import replay
from referee.narabe.geometry import adjacent, cell_of, outside_boundary
from referee.session import Referee

P3 = ["A", "B", "C"]
SPOTS = [[3, 0], [-3, 0], [0, 3], [0, -3]]


def run(events, players=P3, **header):
    head = {
        "type": "game",
        "game": "narabe-runo",
        "rules": "narabe-runo",
        "players": players,
    }
    head.update(header)
    return replay([json.dumps(head)] + [json.dumps(e) for e in events])


def setup(card="red-5", spots=SPOTS):
    return [{"type": "start", "card": card}, {"type": "score-cards", "at": spots}]


def play(player, card, at, **kw):
    return {"type": "play", "player": player, "card": card, "at": at, **kw}


def draw(player, count=1):
    return {"type": "draw", "player": player, "count": count}


def last(res):
    return res.rulings[-1]


def test_grid_cells_and_geometry():
    assert cell_of([1.4, -0.6]) == (1, -1) and cell_of((0.5, 2)) == (1, 2)
    assert adjacent((0, 0), (0, 1)) and not adjacent((0, 0), (1, 1))
    spots = [(3, 0), (-3, 0), (0, 3), (0, -3)]
    assert not outside_boundary((2, 2), spots)  # partly inside the diamond
    assert outside_boundary((3, 3), spots) and outside_boundary((4, 0), spots)
    res = run(setup() + [play("A", "red-6", [1, "x"])])
    assert last(res).rule == "log.malformed" and "'at'" in last(res).text


def test_first_card_next_to_start_and_matching():
    res = run(setup() + [play("A", "blue-5", [1, 0])])
    assert last(res).ruling == "ok"
    res = run(setup() + [play("A", "blue-6", [1, 0])])
    assert last(res).ruling == "illegal" and last(res).rule == "narabe-runo.match"
    res = run(setup() + [play("A", "red-6", [2, 0])])
    assert last(res).ruling == "illegal" and last(res).rule == "narabe-runo.path"
    res = run(setup() + [play("A", "red-6", [0, 0])])
    assert last(res).ruling == "illegal" and "already" in last(res).text


def test_one_path_each_card_next_to_the_previous():
    events = setup() + [play("A", "red-6", [1, 0]), draw("A")]
    res = run(events + [play("B", "red-7", [0, 1])])  # next to start, not to red-6
    assert last(res).ruling == "illegal" and last(res).rule == "narabe-runo.path"
    res = run(
        events + [play("B", "red-7", [1, 1]), draw("B"), play("C", "green-7", [1, 2])]
    )
    assert last(res).ruling == "ok"
    st = res.game.state()
    assert [c["at"] for c in st["branches"][0]] == [[1, 0], [1, 1], [1, 2]]


def test_wild_names_the_colour_to_match():
    events = setup() + [play("A", "wild", [1, 0], color="green"), draw("A")]
    assert last(run(events + [play("B", "red-7", [2, 0])])).ruling == "illegal"
    assert last(run(events + [play("B", "green-7", [2, 0])])).ruling == "ok"


def test_reverse_forces_another_branch():
    events = setup() + [
        play("A", "red-6", [1, 0]),
        draw("A"),
        play("B", "red-reverse", [2, 0]),
        draw("B"),
    ]
    res = run(events + [play("C", "red-7", [2, 1])])
    assert last(res).ruling == "illegal" and last(res).rule == "narabe-runo.branch"
    res = run(events + [play("C", "red-7", [-1, 0])])  # a new branch at the start card
    assert last(res).ruling == "ok" and len(res.game.state()["branches"]) == 2
    # a later Reverse lets the next player go back to the first branch's end
    events += [
        play("C", "red-7", [-1, 0]),
        draw("C"),
        play("A", "red-reverse", [-2, 0]),
        draw("A"),
    ]
    res = run(events + [play("B", "red-1", [2, 1])])
    assert last(res).ruling == "ok"
    assert len(res.game.state()["branches"][0]) == 3


def test_score_cards_lie_around_the_start_card():
    res = run([{"type": "score-cards", "at": SPOTS}])
    assert last(res).ruling == "illegal" and "start card first" in last(res).text
    res = run(setup(spots=[[3, 0], [4, 1], [3, 3]]))  # all on one side
    assert last(res).ruling == "illegal" and res.game.state()["phase"] == "setup"
    res = run(setup(spots=[[3, 0], [0, 0]]))
    assert last(res).ruling == "illegal"


def test_boundary_rule():
    spots = [[2, 0], [-2, 0], [0, 2], [0, -2]]
    events = setup(spots=spots) + [
        play("A", "red-6", [1, 0]),
        draw("A"),
        play("B", "red-7", [1, 1]),
        draw("B"),
        play("C", "red-8", [2, 1]),
        draw("C"),
    ]
    res = run(events + [play("A", "red-9", [2, 2])])  # wholly outside the diamond
    assert last(res).ruling == "illegal" and last(res).rule == "narabe-runo.boundary"


def test_capture_discards_the_branch_and_frees_the_next_player():
    events = setup() + [
        play("A", "red-6", [1, 0]),
        draw("A"),
        play("B", "red-7", [2, 0]),
        draw("B"),
        play("C", "red-8", [3, 0]),
    ]
    res = run(events)
    st = res.game.state()
    assert last(res).rule == "narabe-runo.capture" and st["captured"]["C"] == 1
    assert (
        st["branches"] == [] and st["discards"] == 3 and [3, 0] not in st["score_cards"]
    )
    res = run(events + [draw("C"), play("A", "blue-5", [0, 1])])
    assert last(res).ruling == "ok"


def test_draw_cards_and_the_hand_limit():
    res = run(setup() + [play("A", "red-draw2", [1, 0]), draw("A", 2)])
    assert last(res).ruling == "ok" and res.game.state()["hand_counts"]["A"] == 4
    events = setup() + [
        play("A", "red-6", [1, 0]),
        draw("A"),
        play("B", "wild-draw4", [2, 0], color="blue"),
        draw("B", 4),
    ]
    res = run(events)
    assert res.game.state()["hand_counts"]["B"] == 6
    # B now has 6; a Draw Two leaves 5 and may only refill to 7
    events += [play("C", "blue-3", [2, 1]), draw("C"), play("A", "blue-draw2", [1, 1])]
    events += [draw("A", 2), play("B", "blue-draw2", [1, 2]), draw("B", 2)]
    res = run(events)
    assert res.game.state()["hand_counts"]["B"] == 7
    res = run(events + [play("C", "blue-4", [0, 2]), draw("C", 2)])
    assert last(res).ruling == "illegal" and res.game.state()["hand_counts"]["C"] == 3


def test_skip_and_discard():
    res = run(setup() + [play("A", "red-skip", [1, 0]), draw("A")])
    assert res.game.state()["turn"] == "C"
    assert any(r.rule == "narabe-runo.skip" for r in res.rulings)
    res = run(
        setup()
        + [
            {"type": "discard", "player": "A", "card": "blue-1"},
            draw("A"),
            play("B", "red-9", [0, 1]),
        ]
    )
    assert last(res).ruling == "ok" and res.game.state()["discards"] == 1
    res = run(setup() + [play("B", "red-9", [0, 1])])
    assert last(res).rule == "narabe-runo.turn"


def captures_to_end(players):
    """Two score cards; A captures one at once, so the game ends."""
    return [
        {"type": "start", "card": "red-5"},
        {"type": "score-cards", "at": [[1, 0], [-3, 0]]},
        play("A", "red-6", [1, 0]),
        draw("A"),
    ]


def test_game_ends_with_one_score_card_left_and_scores_every_kind():
    players = ["A", "B", "C", "D"]
    res = run(captures_to_end(players), players=players)
    assert res.game.state()["phase"] == "scoring"
    assert res.rulings[-2].rule == "narabe-runo.end-of-play"
    assert (
        last(
            run(
                captures_to_end(players) + [play("B", "red-1", [0, 1])], players=players
            )
        ).rule
        == "narabe-runo.phase"
    )

    def score(card, extra=()):
        events = captures_to_end(players) + [
            {"type": "reveal", "player": "A", "cards": [card]},
            *extra,
        ]
        return run(events, players=players)

    assert score("blue-7").game.state()["scores"] == {"A": 7, "B": 0, "C": 0, "D": 0}
    assert score("blue-skip").game.state()["scores"] == {"A": 0, "B": 0, "C": 3, "D": 0}
    assert score("blue-reverse").game.state()["scores"] == {
        "A": 0,
        "B": 0,
        "C": 0,
        "D": 3,
    }
    shared = score("wild").game.state()
    assert shared["scores"] == {"A": 0, "B": 3, "C": 3, "D": 3}
    assert shared["winner"] == ["B", "C", "D"] == shared["winners"]
    assert "share the win" in score("wild").rulings[-1].text
    res = score("blue-draw2")
    assert last(res).ruling == "pending" and not res.game.over
    res = score(
        "blue-draw2",
        [{"type": "score-draw", "player": "A", "cards": ["green-4", "red-8"]}],
    )
    assert res.game.state()["scores"]["A"] == 8 and res.game.over
    res = score(
        "wild-draw4",
        [
            {
                "type": "score-draw",
                "player": "A",
                "cards": ["green-4", "red-skip", "wild", "yellow-2"],
            }
        ],
    )
    assert res.game.state()["scores"]["A"] == 4
    assert res.game.state()["winner"] == "A" and last(res).ruling == "game-end"
    bad = score("blue-7", [])
    assert bad.game.over
    wrong = run(
        captures_to_end(players)
        + [{"type": "reveal", "player": "A", "cards": ["blue-7", "red-2"]}],
        players=players,
    )
    assert last(wrong).ruling == "illegal"


def test_short_pile_takes_the_discards():
    ref = Referee({"type": "game", "game": "narabe-runo", "rules": "narabe-runo",
                   "players": P3})
    for e in setup() + [play("A", "red-6", [1, 0]), draw("A"),
                        play("B", "red-7", [2, 0]), draw("B"),
                        play("C", "red-8", [3, 0]), draw("C"),
                        play("A", "red-draw2", [0, 1])]:
        ref.append(e)
    assert ref.state()["discards"] == 3  # the captured branch
    ref.game.pile = 1  # as if the pile had run down
    rulings = ref.append(draw("A", 2))
    assert [r.rule for r in rulings] == ["narabe-runo.reshuffle", "narabe-runo.draw"]
    st = ref.state()
    assert st["pile"] == 2 and st["discards"] == 0 and st["hand_counts"]["A"] == 4


def test_a_draw_naming_nobody_is_the_player_who_owes():
    res = run(setup() + [play("A", "red-skip", [1, 0]), {"type": "draw"}])
    assert res.rulings[-1].ruling == "ok" and "A, who owes" in res.rulings[-1].text
    assert res.game.state()["hand_counts"]["A"] == 3


def test_cli_replay_with_vision_positions(tmp_path, capsys):
    from tableref.cli import main as cli_main

    head = {"type": "game", "game": "narabe-runo", "rules": "narabe-runo",
            "players": ["A", "B"]}
    events = [head, {"type": "start", "card": "R5"},
              {"type": "score-cards", "at": [[2.2, 0.1], [-2, 0], [0, 2], [0, -2]]},
              {"type": "play", "card": "R6", "at": [0.9, -0.2]}, {"type": "draw"},
              {"type": "play", "card": "G6", "at": [1.8, 0.3]}]
    log = tmp_path / "n.jsonl"
    log.write_text("\n".join(json.dumps(e) for e in events) + "\n")
    assert cli_main(["replay", str(log), "--state", str(tmp_path / "s.json")]) == 0
    rulings = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["rule"] for r in rulings][-1] == "narabe-runo.capture"
    assert json.loads((tmp_path / "s.json").read_text())["captured"] == {"A": 0, "B": 1}


def test_an_extra_draw_names_what_was_owed_not_the_hand_limit():
    # A holds 2 after a play and owes 1; drawing 2 is refused because only 1 is owed.
    res = run(setup() + [play("A", "red-6", [1, 0]), draw("A", 2)])
    assert last(res).ruling == "illegal" and last(res).rule == "narabe-runo.draw"
    assert "hand limit" not in last(res).text and "owed 1 card" in last(res).text
    assert res.game.state()["hand_counts"]["A"] == 3


def test_cards_of_another_deck_are_refused_and_the_game_goes_on():
    # 003 plays with an UNO deck: 東幻符闘祭 cards (red-hit2, counter) are no cards.
    for card in ("red-hit2", "counter"):
        res = run(setup() + [play("A", card, [1, 0])])
        assert (last(res).ruling, last(res).rule) == ("illegal", "narabe-runo.deck")
        assert res.game.state()["hand_counts"]["A"] == 3
        assert res.game.state()["branches"] == []
    res = run(setup() + [play("A", "counter", [1, 0]), play("A", "red-6", [1, 0])])
    assert last(res).ruling == "ok" and res.game.state()["turn"] == "B"
    res = run(setup() + [{"type": "discard", "player": "A", "card": "red-hit2"}])
    assert last(res).rule == "narabe-runo.deck"
