"""tgus-3's face-down plays, doubts, and the stop of a game that drags on.

A face-down card leaves its player's hand and skips their turn; the face-up
card below still decides what may be played. Until the next action at the
table any other player may call a doubt; the card is then shown (on the
``doubt`` event as ``card`` or by a ``reveal``) and the loser draws
``doubt_penalty`` (4). Plain functions over the state (``s``, ``o``, ``tg``);
:class:`~referee.uno.tgus_game.TgusGame` calls them.
"""

from __future__ import annotations

from ..cards import Card, parse_cards
from ..log import Event
from ..rulings import Ruling
from ..text import Text, define
from .calls import close_windows
from .house import doubter, face_down_player
from .plays import card_name, cards_n, hand_points, off_deck, off_deck_text
from .state import Say, UnoState
from .tgus import FaceDown, doubt_loser
from .tgus_presets import TgusOptions
from .tgus_rules import first_action, in_players
from .tgus_state import TgusTrack
from .turns import colour_said, name_list

define({
    "uno.tgus-face-down-off": {
        "en": "This preset does not use face-down plays, so {player} takes the card "
              "back.",
        "ja": "このプリセットでは裏向きに出すプレイを使わないので、"
              "{player}はカードを戻します。"},
    "uno.tgus-face-down-turn": {
        "en": "It is {turn}'s turn, so {player} takes the face-down card back.",
        "ja": "{turn}の番なので、{player}は裏向きのカードを戻します。"},
    "uno.tgus-face-down-no-turn": {
        "en": "It is nobody's turn, so {player} takes the face-down card back.",
        "ja": "いまは誰の番でもないので、{player}は裏向きのカードを戻します。"},
    "uno.tgus-face-down-owes": {
        "en": "{player} owes {count}, which a face-down play cannot dodge "
              "(interpreted), so {player} takes the card back.",
        "ja": ("{player}は{count}引く番で、裏向きに出しても逃れられず（解釈）、"
               "{player}はカードを戻します。")},
    "uno.tgus-face-down-out": {
        "en": "A face-down play may never be used to go out, so {player} takes the "
              "card back.",
        "ja": "裏向きに出して上がることはできないので、{player}はカードを戻します。"},
    "uno.tgus-face-down-used": {
        "en": "{player} has used all {n} face-down plays of this game, so the card "
              "goes back to the hand.",
        "ja": "{player}はこのゲームで裏向きに出せる{n}回をすべて使ったので、"
              "カードは手札に戻ります。"},
    "uno.tgus-face-down": {
        "en": "{player} plays a card face down{note} to skip the turn ({left} left "
              "this game); anyone may doubt it before {next} acts.",
        "ja": ("{player}はカードを裏向きに出して手番をとばし{note}（このゲームであと"
               "{left}回）、{next}が動く前なら誰でもダウトできます。")},
    "uno.tgus-doubt-off": {
        "en": "This preset has no face-down plays, so there is nothing to doubt.",
        "ja": "このプリセットには裏向きに出すプレイがないので、"
              "ダウトするものはありません。"},
    "uno.tgus-doubt-busy": {
        "en": "{player} called doubt, but a doubt is already being settled, so "
              "nothing happens.",
        "ja": "{player}がダウトしましたが、すでに別のダウトを判定中なので、"
              "何も起きません。"},
    "uno.tgus-doubt-none": {
        "en": "{player} called doubt, but no face-down card can be doubted now (a "
              "doubt must come before the next player acts), so nothing happens.",
        "ja": ("{player}がダウトしましたが、いまダウトできる裏向きのカードはなく（ダ"
               "ウトは次の人が動く前にします）、何も起きません。")},
    "uno.tgus-doubt-own": {
        "en": "{player} cannot doubt their own face-down card.",
        "ja": "{player}は自分の裏向きのカードをダウトできません。"},
    "uno.tgus-doubt-out": {
        "en": "{player} is already out of this game, so only the players still in may "
              "doubt.",
        "ja": "{player}はもう上がっており、ダウトできるのはまだ残っている人だけです。"},
    "uno.tgus-doubt-deck": {
        "en": "{problem}: {player} shows the face-down card (reveal).",
        "ja": "{problem!c}、{player}は裏向きのカードを見せます。"},
    "uno.tgus-doubt": {
        "en": "{player} doubts {accused}'s face-down card: {accused} shows it "
              "(reveal).",
        "ja": ("{player}が{accused}の裏向きのカードをダウトし、"
               "{accused}はそのカードを見せます。")},
    "uno.tgus-doubt-could": {
        "en": "The face-down card is the {card}, which could have been played on the "
              "{top} ({color}), so {player} draws {n}.",
        "ja": ("裏向きのカードは{card}で、{top}（{color}）の上に出せたので、"
               "{player}が{n}枚引きます。")},
    "uno.tgus-doubt-could-not": {
        "en": "The face-down card is the {card}, which could not have been played on "
              "the {top} ({color}), so {player} draws {n}.",
        "ja": ("裏向きのカードは{card}で、{top}（{color}）の上には出せなかったので、"
               "{player}が{n}枚引きます。")},
    "uno.tgus-doubt-reveal-deck": {
        "en": "{problem}: show the face-down card again.",
        "ja": "{problem!c}、裏向きのカードを見せ直してください。"},
    "uno.tgus-doubt-one-card": {
        "en": "A doubt is settled by showing the one face-down card, not {n}; show it "
              "again.",
        "ja": ("ダウトは裏向きのカード1枚を見せて決着し（{n}枚ではありません）、"
               "見せ直してください。")},
    "uno.tgus-stop-off": {
        "en": "This preset does not stop a game by points, so play goes on.",
        "ja": "このプリセットでは点数でゲームを打ち切らないので、そのまま続けます。"},
    "uno.tgus-stop-idle": {
        "en": "No round is being played, so there is nothing to stop.",
        "ja": "いまはラウンドの最中ではないので、打ち切るものはありません。"},
    "uno.tgus-stop": {
        "en": "The game is stopped and ends by official point scoring: {players} show "
              "their hands (reveal).",
        "ja": ("ゲームを打ち切り、公式の点数計算で決着をつけ、"
               "{players}は手札を見せます。")},
})


def close_face_down(tg: TgusTrack) -> None:
    """The next action at the table closes the doubt window (unless one is open)."""
    if tg.doubter is None:
        tg.face_down = None


def face_down_problem(s: UnoState, o: TgusOptions, tg: TgusTrack,
                      p: int) -> Text | None:
    """Why ``p`` may not play a card face down now (a sentence), or ``None``."""
    name = s.players[p]
    if not o.face_down:
        return Text("uno.tgus-face-down-off", player=name)
    if s.phase not in ("turn", "drawn") or p != s.turn:
        if s.phase in ("turn", "drawn"):
            return Text("uno.tgus-face-down-turn", turn=s.players[s.turn], player=name)
        return Text("uno.tgus-face-down-no-turn", player=name)
    if s.pending:
        return Text("uno.tgus-face-down-owes", player=name, count=cards_n(s.pending))
    if s.hand_counts[p] <= 1:
        return Text("uno.tgus-face-down-out", player=name)
    if tg.face_down_left[p] <= 0:
        return Text("uno.tgus-face-down-used", player=name, n=o.face_down)
    return None


def on_face_down(s: UnoState, o: TgusOptions, tg: TgusTrack, ev: Event,
                 say: Say) -> list[Ruling]:
    """``face-down``: a card played face down to skip the turn."""
    p = face_down_player(s, ev)
    _, implied = s.who(ev, p)
    name = s.players[p]
    problem = face_down_problem(s, o, tg, p)
    if problem:
        return [say(ev.index, "illegal", "face-down", problem, player=name,
                    draw=s.pending or None)]
    card = Card.from_label(ev.data["card"]) if "card" in ev.data else None
    if card is not None and off_deck((card,), o.deck) is not None:
        return [say(ev.index, "illegal", "deck",
                    Text("uno.play-deck", problem=off_deck_text(card, o.deck),
                         player=name), player=name)]
    out = first_action(s, o, tg, ev.index, say)
    tg.doubter = None
    out += close_windows(s, o, ev.index, p, True, say)
    tg.failed_challenger = tg.took_draw = None
    s.hand_counts[p] -= 1
    s.discard += 1
    s.phase, s.drawn_card = "turn", None
    if s.hand_counts[p] == 1 and not s.called[p]:
        s.catchable[p] = ev.index
    elif s.hand_counts[p] != 1:
        s.called[p] = False
    tg.face_down_left[p] -= 1
    tg.face_down = FaceDown(p, s.top, s.color, ev.index) if s.top else None
    tg.face_down_card = card
    s.turn = s.step(p, 1)
    note = s.implied_note(p, implied)
    return out + [say(ev.index, "ok", "face-down", Text(
        "uno.tgus-face-down", player=name, note=note, left=tg.face_down_left[p],
        next=s.players[s.turn]))]


def on_doubt(s: UnoState, o: TgusOptions, tg: TgusTrack, ev: Event,
             say: Say) -> list[Ruling]:
    """``doubt``: a player says a face-down card could have been played."""
    p = doubter(s, ev)
    name = s.players[p]
    if not o.face_down:
        return [say(ev.index, "info", "doubt", Text("uno.tgus-doubt-off"))]
    fd = tg.face_down
    if fd is None or tg.doubter is not None:
        key = "uno.tgus-doubt-busy" if tg.doubter is not None else "uno.tgus-doubt-none"
        return [say(ev.index, "info", "doubt", Text(key, player=name))]
    if p == fd.player:
        return [say(ev.index, "illegal", "doubt",
                    Text("uno.tgus-doubt-own", player=name), player=name)]
    if p in s.out:
        return [say(ev.index, "illegal", "doubt",
                    Text("uno.tgus-doubt-out", player=name), player=name)]
    tg.doubter = p
    accused = s.players[fd.player]
    if "card" in ev.data:
        card = Card.from_label(ev.data["card"])
        if off_deck((card,), o.deck) is not None:
            return [say(ev.index, "illegal", "deck",
                        Text("uno.tgus-doubt-deck", problem=off_deck_text(card, o.deck),
                             player=accused), player=accused)]
        return settle_doubt(s, o, tg, ev.index, card, say)
    if tg.face_down_card is not None:
        return settle_doubt(s, o, tg, ev.index, tg.face_down_card, say)
    return [say(ev.index, "pending", "doubt",
                Text("uno.tgus-doubt", player=name, accused=accused), player=accused)]


def settle_doubt(s: UnoState, o: TgusOptions, tg: TgusTrack, index: int, card: Card,
                 say: Say) -> list[Ruling]:
    """The face-down card is known: whoever was wrong draws ``doubt_penalty``."""
    fd, who = tg.face_down, tg.doubter
    assert fd is not None and who is not None
    _, playable = doubt_loser(fd, card, s.players[who])
    loser = who if playable else fd.player
    tg.face_down, tg.doubter, tg.face_down_card = None, None, None
    s.owed[loser] += o.doubt_penalty
    key = "uno.tgus-doubt-could" if playable else "uno.tgus-doubt-could-not"
    return [say(index, "penalty", "doubt",
                Text(key, card=card_name(card), top=card_name(fd.top),
                     color=colour_said(str(fd.color)), player=s.players[loser],
                     n=o.doubt_penalty),
                player=s.players[loser], draw=o.doubt_penalty,
                doubt={"card": card.label, "playable": playable})]


def doubt_reveal(s: UnoState, o: TgusOptions, tg: TgusTrack, ev: Event,
                 say: Say) -> list[Ruling] | None:
    """A ``reveal`` of the doubted card by its player, or ``None`` for any other."""
    fd = tg.face_down
    by_accused = fd is not None and ev.data.get("player") == s.players[fd.player]
    if tg.doubter is None or fd is None or not by_accused:
        return None
    cards = parse_cards(ev.data.get("cards", []))
    accused = s.players[fd.player]
    bad = off_deck(cards, o.deck)
    if bad is not None:
        return [say(ev.index, "illegal", "deck",
                    Text("uno.tgus-doubt-reveal-deck",
                         problem=off_deck_text(bad, o.deck)), player=accused)]
    if len(cards) != 1:
        return [say(ev.index, "illegal", "doubt",
                    Text("uno.tgus-doubt-one-card", n=len(cards)), player=accused)]
    return settle_doubt(s, o, tg, ev.index, cards[0], say)


# -- stop by points --------------------------------------------------------------------
def on_stop(s: UnoState, o: TgusOptions, tg: TgusTrack, ev: Event,
            say: Say) -> list[Ruling]:
    """``stop``: a game that drags on ends by official point scoring (tgus-3)."""
    if not o.stop_by_points:
        return [say(ev.index, "info", "points-end", Text("uno.tgus-stop-off"))]
    if s.phase not in ("turn", "drawn"):
        return [say(ev.index, "info", "points-end", Text("uno.tgus-stop-idle"))]
    tg.stopped = True
    close_face_down(tg)
    s.phase = "scoring"
    s.catchable.clear()
    if s.pending:
        s.owed[s.turn] += s.pending
    s.pending, s.pending_kind = 0, None
    s.round_winner = tg.ranking.order[0] if tg.ranking.order else None
    for q in tg.ranking.order[1:]:
        s.revealed[q] = []
    still = name_list([s.players[q] for q in in_players(s)])
    return [say(ev.index, "pending", "points-end",
                Text("uno.tgus-stop", players=still))]


def stopped_all_shown(s: UnoState) -> bool:
    """After a stop: everyone still in has shown and paid; the best hand wins."""
    still = in_players(s)
    if not all(q in s.revealed and not s.owed[q] for q in still):
        return False
    if s.round_winner is None:
        s.round_winner = min(still, key=lambda q: (hand_points(s.revealed[q]), q))
    return True
