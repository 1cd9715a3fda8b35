"""TGUS-TGC-UNO rules (seed 000) as plain functions over the state.

Each function takes the uno state ``s``, the options ``o``, the TGUS part of
the state ``tg`` (:class:`~referee.uno.tgus_state.TgusTrack`) and ``say`` (the
game's ``ruling``), and returns rulings; :class:`~referee.uno.tgus_game.TgusGame`
calls them from the steps it overrides. Face-down plays, doubts and the stop
by points live in :mod:`.tgus_facedown`; the pure value functions (rankings,
success weight) in :mod:`.tgus`. Rules: docs/rules-tgus.md.
"""

from __future__ import annotations

from typing import Any

from ..cards import Card, parse_cards
from ..game import GameError
from ..log import Event, Header
from ..rulings import Ruling
from .house import direction_of, reporter
from ..text import Text, define
from .plays import card_name, cards_n, cards_name, hand_points
from .state import Say, UnoState
from .tgus import (ALL_MIGHTY_EFFECTS, Ranking, effective_value, finishes_on_number,
                   next_hand_sizes, picture_only)
from .tgus_presets import TgusOptions
from .tgus_state import TgusTrack
from .turns import name_list, tally, turn_text

define({
    "uno.tgus-hand-sizes-bad": {
        "en": "header 'hand_sizes' must map players to positive whole numbers, got "
              "{got}",
        "ja": "ヘッダーの手札枚数の指定は、プレイヤーごとに正の整数でなければなりませ"
              "ん（{got}）"},
    "uno.tgus-hand-sizes-unknown": {
        "en": "The header's hand_sizes name {players}, who do not play, so those "
              "entries are ignored.",
        "ja": "ヘッダーの手札枚数の指定に参加していない{players}が含まれているので、"
              "その分は無視します。"},
    "uno.tgus-hand-over-max": {
        "en": "A hand of {n} cards is more than this preset's {max}, but the game is "
              "refereed with it.",
        "ja": "{n}枚の手札はこのプリセットの上限{max}枚を超えていますが、"
              "そのまま審判します。"},
    "uno.tgus-no-direction": {
        "en": "No rock-paper-scissors result for the direction was logged, so play "
              "goes clockwise (interpreted: the seed names no default).",
        "ja": "向きを決めるじゃんけんの結果が記録されていないので、"
              "時計回りで進めます（解釈: シードには決まりがありません）。"},
    "uno.tgus-direction-off": {
        "en": "This preset does not choose the direction by rock-paper-scissors, so "
              "the direction event is ignored.",
        "ja": "このプリセットではじゃんけんで向きを決めないので、"
              "向きの記録は無視します。"},
    "uno.tgus-direction-early": {
        "en": "No first card has been turned yet, so the direction is not recorded; "
              "log it after the start event.",
        "ja": ("まだ最初のカードがめくられていないので、向きは記録せず、"
               "最初のカードの後に記録してください。")},
    "uno.tgus-direction-late": {
        "en": "The direction is chosen before the round's first play, so this late "
              "choice is ignored and play goes on as it was.",
        "ja": "向きはラウンドの最初のプレイの前に決めるので、遅れた指定は無視し、"
              "今の向きのまま続けます。"},
    "uno.tgus-clockwise": {"en": "clockwise", "ja": "時計回り"},
    "uno.tgus-counter-clockwise": {"en": "counter-clockwise", "ja": "反時計回り"},
    "uno.tgus-direction-not-neighbour": {
        "en": "{winner} is not a neighbour of the first player {first}, who should "
              "play rock-paper-scissors, but the direction is taken as logged: play "
              "goes {way}.",
        "ja": ("じゃんけんをするのは一番手の{first}の隣の人で、"
               "{winner}は隣ではありませんが、記録どおりの向きとし、{way}で進めます。")},
    "uno.tgus-direction-won": {
        "en": "{winner} won rock-paper-scissors, so play goes {way}, starting with "
              "{first}.",
        "ja": "じゃんけんで{winner}が勝ったので、{first}から{way}で進めます。"},
    "uno.tgus-direction": {
        "en": "By rock-paper-scissors play goes {way}, starting with {first}.",
        "ja": "じゃんけんにより、{first}から{way}で進めます。"},
    "uno.tgus-white-wild-alone": {
        "en": "A white wild is played on its own in this preset",
        "ja": "このプリセットでは白いワイルドは1枚だけで出します"},
    "uno.tgus-white-wild-acts": {
        "en": "A white wild may act as {effects}, not {value}",
        "ja": "白いワイルドが代わりになれるのは{effects}で、{value}にはなれません"},
    "uno.tgus-white-wild-no-answer": {
        "en": "A white wild acting as {value} cannot answer the {count} owed",
        "ja": "{value}として出す白いワイルドでは、引くべき{count}を次へ回せません"},
    "uno.tgus-downpour": {
        "en": "every other player draws {n}; it is {player}'s turn.",
        "ja": "ほかの全員が{n}枚引き、{player}の番です。"},
    "uno.tgus-downpour-draws": {
        "en": "The white wild is a Wild Downpour: {player} draws {n} now "
              "(interpreted: H2O's Downpour Draw 2, not to be passed on).",
        "ja": ("白いワイルドはワイルドダウンプアで、{player}はいま{n}枚引きます（解釈"
               ": H2Oのダウンプアドロー2で、次へ回せません）。")},
    "uno.tgus-fine-picture": {
        "en": "{player} went out on picture cards only, so {player}'s hand held no "
              "number card and should have drawn {n} at a time (interpreted: the "
              "cards stay played, {player} is not out and draws {n}).",
        "ja": ("{player}は絵柄カードだけで上がり、{player}の手札には数字カードがなく"
               "、{n}枚ずつ引くべきでした（解釈: 出したカードはそのままで、"
               "{player}は上がりにならず{n}枚引きます）。")},
    "uno.tgus-fine-number": {
        "en": "{player} must go out on a number card, so the {cards} stay played, "
              "{player} is not out and draws {n} and play continues (interpreted: the "
              "cards keep their effect).",
        "ja": ("{player}は数字カードで上がらなければならず、{cards}は出したままで、"
               "{player}は上がりにならず{n}枚引き、"
               "ゲームは続きます（解釈: カードの効果は残ります）。")},
    "uno.tgus-fine-multi-out": {
        "en": "{player} went out with {k} cards without calling UNO first, so {player}"
              " is not out and draws {n} (interpreted: the cards stay played).",
        "ja": "{player}は先にウノを言わずに{k}枚で上がったので、"
              "上がりにならず{n}枚引きます（解釈: 出したカードはそのままです）。"},
    "uno.tgus-out-goes-on": {
        "en": "{text}, {player}'s last card: {player} is out in {place} place and "
              "play goes on with {left}: {owe}.",
        "ja": ("{text!l}、これが{player}の最後のカードで{player}は{place}で上がり、"
               "{left}で続け、{owe}。")},
    "uno.tgus-owe-draws": {
        "en": "{player} draws {n} or passes it on",
        "ja": "{player}は{n}枚引くか、次へ回します"},
    "uno.tgus-owe-turn": {"en": "it is {player}'s turn", "ja": "{player}の番です"},
    "uno.tgus-out-last": {
        "en": "{text}, {player}'s last card: {player} is out in {place} place and "
              "only {last} is left, so round {round} is over: {last}{owes} shows "
              "their hand (reveal) for scoring{tail}.",
        "ja": ("{text!l}、これが{player}の最後のカードで{player}は{place}で上がり、"
               "残りは{last}だけなのでラウンド{round}は終わり、"
               "{last}は{owes}得点計算のために手札を見せます{tail}。")},
    "uno.tgus-owes-first": {
        "en": " draws the {count} owed and",
        "ja": "引くべき{count}を引いてから、"},
    "uno.tgus-next-hands": {
        "en": "; next game's hands (success weight): {sizes}",
        "ja": "（次のゲームの手札はサクセスウェイトで{sizes}）"},
    "uno.tgus-next-hands-rank": {
        "en": "; next game's hands (success weight (interpreted: +3/+2/+1 for "
              "1st/2nd/3rd)): {sizes}",
        "ja": ("（次のゲームの手札はサクセスウェイトで{sizes}、解釈: 1位+3、2位+2、"
               "3位+1）")},
    "uno.tgus-picture-off": {
        "en": "This preset has no forced draw for a hand of picture cards, so the "
              "report changes nothing.",
        "ja": "このプリセットには絵柄カードだけの手札で引き続けるルールがないので、"
              "申告しても何も変わりません。"},
    "uno.tgus-picture-not-playing": {
        "en": "{player} is not playing a hand now, so the report changes nothing.",
        "ja": "{player}はいま手札でプレイしていないので、申告しても何も変わりません。"},
    "uno.tgus-picture-has-number": {
        "en": "The hand shown holds the {card}, a number card, so {player} does not "
              "have to draw.",
        "ja": "見せた手札には数字カードの{card}があるので、"
              "{player}は引かなくてかまいません。"},
    "uno.tgus-picture-draws": {
        "en": "{player}'s hand holds only picture cards, so {player} draws {n} now, "
              "and {n} more each time no number card comes (report again).",
        "ja": "{player}の手札は絵柄カードだけなので、{player}はいま{n}枚引き、"
              "数字カードが来ないたびにさらに{n}枚引きます（そのたびに申告します）。"},
})


def in_players(s: UnoState) -> list[int]:
    """Players still holding cards this round, in seat order."""
    return [q for q in range(s.n) if q not in s.out]


# -- round start, hand sizes, direction ------------------------------------------------
def header_hand_sizes(s: UnoState, header: Header, say: Say) -> list[Ruling]:
    """The header's ``hand_sizes`` (per-player hands of the first deal)."""
    sizes = header.data.get("hand_sizes")
    if sizes is None:
        return []
    if not isinstance(sizes, dict) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v > 0
            for v in sizes.values()):
        raise GameError(Text("uno.tgus-hand-sizes-bad", got=repr(sizes)))
    unknown = [k for k in sizes if k not in s.players]
    s.start_sizes = [sizes.get(p, s.hand_size) for p in s.players]
    if unknown:
        return [say(0, "info", "hand-size", Text("uno.tgus-hand-sizes-unknown",
                                                 players=name_list(unknown)))]
    return []


def new_round(s: UnoState, o: TgusOptions, tg: TgusTrack, index: int,
              say: Say) -> list[Ruling]:
    """Reset the round's TGUS record; note a hand above ``hand_size_max``."""
    tg.ranking = Ranking(tuple(range(s.n)))
    tg.face_down_left = [o.face_down] * s.n
    tg.direction_set = tg.acted = tg.stopped = False
    tg.face_down = tg.doubter = tg.failed_challenger = tg.took_draw = None
    biggest = max(s.hand_counts)
    if o.hand_size_max and biggest > o.hand_size_max and s.round == 1:
        return [say(index, "info", "hand-size", Text(
            "uno.tgus-hand-over-max", n=biggest, max=o.hand_size_max))]
    return []


def first_action(s: UnoState, o: TgusOptions, tg: TgusTrack, index: int,
                 say: Say) -> list[Ruling]:
    """Note a round whose first action comes without a recorded direction."""
    if tg.acted or s.phase not in ("turn", "drawn"):
        return []
    tg.acted = True
    if o.direction_rps and not tg.direction_set:
        return [say(index, "info", "direction", Text("uno.tgus-no-direction"))]
    return []


def on_direction(s: UnoState, o: TgusOptions, tg: TgusTrack, ev: Event,
                 say: Say) -> list[Ruling]:
    """``direction``: the rock-paper-scissors result before the first play."""
    direction = direction_of(ev)
    if not o.direction_rps:
        return [say(ev.index, "info", "direction", Text("uno.tgus-direction-off"))]
    if s.phase in ("setup", "restart"):
        return [say(ev.index, "info", "direction", Text("uno.tgus-direction-early"))]
    if s.phase not in ("turn", "drawn") or tg.acted:
        return [say(ev.index, "illegal", "direction", Text("uno.tgus-direction-late"))]
    first = s.turn
    way = Text("uno.tgus-clockwise" if direction == 1 else "uno.tgus-counter-clockwise")
    winner, _ = s.who(ev, None, key="winner")
    s.direction = direction
    tg.direction_set = True
    names = s.players
    if winner is not None and winner not in (s.step(first, 1), s.step(first, -1)):
        return [say(ev.index, "info", "direction", Text(
            "uno.tgus-direction-not-neighbour", winner=names[winner],
            first=names[first], way=way))]
    if winner is not None:
        return [say(ev.index, "ok", "direction", Text(
            "uno.tgus-direction-won", winner=names[winner], way=way,
            first=names[first]))]
    return [say(ev.index, "ok", "direction",
                Text("uno.tgus-direction", way=way, first=names[first]))]


# -- plays -----------------------------------------------------------------------------
def all_mighty_problem(s: UnoState, o: TgusOptions, tg: TgusTrack, ev: Event,
                       cards: list[Card]) -> Text | None:
    """Why an all-mighty white wild may not be played so; records what it acts as."""
    if len(cards) > 1:
        return Text("uno.tgus-white-wild-alone")
    as_value = ev.data.get("as")
    if as_value is not None and as_value not in ALL_MIGHTY_EFFECTS:
        return Text("uno.tgus-white-wild-acts", value=repr(as_value), effects=Text(
            "@uno-tgus-effects", values=list(ALL_MIGHTY_EFFECTS)))
    value = effective_value(cards[0], as_value, "all-mighty")
    if s.pending and (s.pending_kind, value) not in o.stack_table():
        return Text("uno.tgus-white-wild-no-answer", count=cards_n(s.pending),
                    value=Text("@uno-tgus-effects", values=[value]))
    tg.as_value = value
    return None


def downpour(s: UnoState, o: TgusOptions, tg: TgusTrack, p: int, k: int) -> Text:
    """The white wild as a Wild Downpour: every other player draws."""
    tg.downpour = [q for q in in_players(s) if q != p]
    for q in tg.downpour:
        s.owed[q] += o.downpour_draw * k
    s.turn = s.step(p, 1)
    return Text("uno.tgus-downpour", n=o.downpour_draw * k, player=s.players[s.turn])


def downpour_rulings(s: UnoState, tg: TgusTrack, index: int, say: Say) -> list[Ruling]:
    return [say(index, "penalty", "white-wild",
                Text("uno.tgus-downpour-draws", player=s.players[q], n=s.owed[q]),
                player=s.players[q], draw=s.owed[q])
            for q in tg.downpour]


def finish_fines(s: UnoState, o: TgusOptions, tg: TgusTrack,
                 p: int) -> list[tuple[str, int, Text]]:
    """Why ``p``, who played their last cards, is not out: (rule, cards, sentence)."""
    cards, name = tg.play_cards, s.players[p]
    fines: list[tuple[str, int, Text]] = []
    if o.picture_leftover and cards and picture_only(cards):
        n = o.picture_leftover_draw
        fines.append(("picture-leftover", n,
                      Text("uno.tgus-fine-picture", player=name, n=n)))
    elif o.number_finish and not finishes_on_number(cards):
        fines.append(("number-finish", o.number_finish,
                      Text("uno.tgus-fine-number", player=name, cards=cards_name(cards),
                           n=o.number_finish)))
    if o.multi_out_penalty and len(cards) > 1 and not tg.play_called:
        fines.append(("multi-out", o.multi_out_penalty,
                      Text("uno.tgus-fine-multi-out", player=name, k=len(cards),
                           n=o.multi_out_penalty)))
    return fines


def fined_out(s: UnoState, index: int, p: int, text: Text, tail: Text | str,
              fines: list[tuple[str, int, Text]], say: Say) -> list[Ruling]:
    """The play stands, ``p`` is not out and draws each fine."""
    if s.pending:
        rule = "draw2" if s.pending_kind == "draw2" else "wd4"
        first = say(index, "pending", rule,
                    Text("uno.play-pending-stack", text=text, player=s.players[s.turn],
                         n=s.pending, tail=tail),
                    player=s.players[s.turn], draw=s.pending)
    else:
        first = say(index, "ok", "match", Text("uno.play-ok", text=text,
                                               effect=turn_text(s.players[s.turn])))
    out = [first]
    for rule, count, why in fines:
        s.owed[p] += count
        out.append(say(index, "penalty", rule, why, player=s.players[p], draw=count))
    return out


def rank_out(s: UnoState, tg: TgusTrack, index: int, p: int, text: Text,
             tail: Text | str, say: Say) -> list[Ruling]:
    """``p`` is out in a place; the round ends when one player is left."""
    place = tg.ranking.finish(p)
    s.out.add(p)
    s.called[p] = False
    s.catchable.pop(p, None)
    names = s.players
    left = [names[q] for q in in_players(s)]
    said = Text("@uno-tgus-place", n=place)
    if len(left) >= 2:
        if s.turn == p:
            s.turn = s.step(p, 1)
        owe = (Text("uno.tgus-owe-draws", player=names[s.turn], n=s.pending)
               if s.pending else Text("uno.tgus-owe-turn", player=names[s.turn]))
        return [say(index, "ok", "ranking", Text(
            "uno.tgus-out-goes-on", text=text, player=names[p], place=said,
            left=name_list(left), owe=owe), place=place)]
    last = in_players(s)[0]
    winner = tg.ranking.order[0]
    s.round_winner, s.phase = winner, "scoring"
    s.catchable.clear()
    for q in tg.ranking.order:
        if q != winner:
            s.revealed[q] = []
    if s.pending:
        s.owed[last] += s.pending
    s.pending, s.pending_kind = 0, None
    owes = (Text("uno.tgus-owes-first", count=cards_n(s.owed[last])) if s.owed[last]
            else "")
    return [say(index, "pending", "ranking", Text(
        "uno.tgus-out-last", text=text, player=names[p], place=said, last=names[last],
        round=s.round, owes=owes, tail=tail), player=names[last],
        draw=s.owed[last] or None, place=place)]


# -- scoring ---------------------------------------------------------------------------
def round_extra(s: UnoState, o: TgusOptions,
                tg: TgusTrack) -> tuple[Text | str, dict[str, Any]]:
    """The ranking and the next game's hands (success weight) of a finished round."""
    winner = s.round_winner
    points = {q: hand_points(s.revealed.get(q, [])) for q in in_players(s)}
    order = tg.ranking.full(points)
    if winner is not None and order[0] != winner:
        order.remove(winner)
        order.insert(0, winner)
    ranking = [s.players[q] for q in order]
    if winner is not None:
        tg.wins[winner] += 1
    extra: dict[str, Any] = {"ranking": ranking}
    if o.success_weight == "none":
        return "", extra
    sizes = next_hand_sizes(
        s.players, s.hand_size, o.success_weight, ranking=ranking,
        wins=dict(zip(s.players, tg.wins)), points=dict(zip(s.players, s.scores)),
        target=o.target if o.scoring == "international" else None)
    s.start_sizes = [sizes[n] for n in s.players]
    tg.next_sizes = sizes
    extra["next_hand_sizes"] = sizes
    key = ("uno.tgus-next-hands-rank" if o.success_weight == "rank"
           else "uno.tgus-next-hands")
    return Text(key, sizes=tally(sizes, sizes.values(), "card")), extra


# -- reports ---------------------------------------------------------------------------
def on_picture_leftover(s: UnoState, o: TgusOptions, ev: Event,
                        say: Say) -> list[Ruling]:
    """``picture-leftover``: a hand of picture cards only draws ``n`` at a time."""
    p = reporter(s, ev)
    name = s.players[p]
    if not o.picture_leftover:
        return [say(ev.index, "info", "picture-leftover", Text("uno.tgus-picture-off"))]
    if s.phase not in ("turn", "drawn", "challenge") or p in s.out:
        return [say(ev.index, "info", "picture-leftover",
                    Text("uno.tgus-picture-not-playing", player=name))]
    shown = parse_cards(ev.data["cards"]) if "cards" in ev.data else []
    numbers = [c for c in shown if c.is_number]
    if numbers:
        return [say(ev.index, "info", "picture-leftover",
                    Text("uno.tgus-picture-has-number", card=card_name(numbers[0]),
                         player=name))]
    n = o.picture_leftover_draw
    s.owed[p] += n
    return [say(ev.index, "penalty", "picture-leftover",
                Text("uno.tgus-picture-draws", player=name, n=n), player=name, draw=n)]
