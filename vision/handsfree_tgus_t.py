"""Hands-free completion for tgus-t1 / tgus-t2: the 東幻符闘祭 deck.

The standard path (:mod:`vision.handsfree`) reads the standard engine's state (``phase``); the
tgus-t referee says instead what it waits for (``awaiting``: cards turned for
a Hit+?, a colour, the Change's colour) and which draws are owed. A camera
event of a tgus-t table is completed from that (:func:`complete_tgus_t`):

- **Cards turned for a Hit+?**: while the referee waits for them, a card the
  camera sees land on the pile was turned from the draw pile, not played: the
  ``play`` becomes a ``turned`` event; the reach into the draw pile that
  turned it is no draw and is dropped.
- **Colours**: the referee waits for a colour (a colourless card played
  without one, a Change's target, a turned colourless card) and the next play
  is a coloured card: only its colour makes it legal, so a ``color`` event of
  the player the referee waits for goes before it, marked ``inferred``. A
  colourless card (not a Counter) played next covers the colour, whichever it
  was: the colour goes before it as the colour in play (or the first colour),
  marked ``inferred``, so the game goes on.
- **A card lying under another**: cards played together lie side by side,
  the later ones over the first, and the camera may see only the top one. A
  coloured card played on turn that neither matches the colour nor the top
  card's effect (and no draw or wait is open) is legal only as a multi-play
  whose first card, hidden under it, matched: the card of the colour in play
  with the same value. It goes first in the play's ``cards``; the play is
  marked ``inferred`` and ``hidden`` names it (not where the play before
  held cards of several colours, this one's among them: the camera does not
  see which of those was put down last). Where the camera saw two cards or
  more of two colours or more, none matching, one of them was read in
  another colour (the detector's second look guesses the colour of a card
  half covered by the fan): the first seen is taken as the card of the
  colour in play, marked ``inferred`` with ``misread`` naming the card it
  replaces (the camera does not say which was misread; a third card under
  two seen is much rarer than two cards played together). Where a card of the play
  does match, it goes first instead (the camera does not see the order in
  which the cards were put down).
- **A hidden card found later**: a camera play or draw ruled illegal (out
  of turn, most often) may be explained by a card hidden under an earlier one:
  two Reverses or Skips turn the play otherwise than one, and a player who
  put their last two cards down is out. :func:`amend_hidden` (for a table
  that holds the referee) tries the last camera plays with one more card of
  their value under them and keeps the first that makes the log legal from
  there on (no line ruled illegal, no camera play or draw after the game's
  end: :func:`contradicted`; no label more often than the deck prints it,
  :func:`deck_holds`), marked ``inferred`` (the plays within ``play.hidden_back`` lines,
  :class:`vision.config.PlayConfig`). Failing that, the latest camera Gamble
  played as a plain wild (its effect is only said) within the last
  ``play.gamble_back`` lines is given each effect in turn (a Change's or
  Replace's target each other player), the first that does so kept; failing
  that, the latest camera Change or Replace within as many lines whose
  target was taken as the next player (below) is aimed at each other seat
  (a swapped hand shows only when a count runs out), marked ``inferred``
  with ``target_from: "amended"``. An
  illegal play, that nothing explains, of cards the pile's last plays put
  down (the top card, or a card of a multi-play peeking out from under the
  cards played over it as an arm passes; :func:`seen_again`,
  :attr:`vision.config.PlayConfig.seen_again_plays`) is those cards seen again and is taken out of
  the log: left in, its seat's next moves read against it.
- **Which card of a fan lies on top**: the camera does not see which card of
  a multi-play of several colours went down last. A camera play or draw
  ruled illegal after one is first tried with another card of the fan on
  top, a colour inferred from its first card named again
  (:func:`reordered`, adopted by :class:`vision.completion.Completion` as a
  reading of the log; :func:`amendment` tries the orders that name no colour
  again, as one correction); failing that, a play in one of the fan's
  colours that no order makes legal is read with a card of its value in
  another colour hidden under it (:func:`_hidden_under_last`): the
  completion left it as seen because the fan may have ended on its colour.
- **The last cards put down together**: a player who put their last two
  cards down together, the later one fanned over the first, may be seen
  putting down one, and the referee then still counts a card in their hand.
  Where that play ended the game (the last player but one going out), no
  later line says so: the camera's source runs out (the recording played
  to its end) with the game under way. At that end, the log's last
  play, a camera play of one value whose seat the referee counts with one
  card left, or two (``play.out_together_max``; a card hidden under it
  already inferred or not: the count may be too high for another reason, a
  draw counted whole before its takes, and the camera's last play emptied
  that hand all the same), is
  given as many more cards of its value, hidden by the fan
  (:func:`hidden_colours`' order; put down first, else last: the card seen
  is not always the fan's top one), where that ends the game and nothing after
  it contradicts the log (:func:`contradicted`), marked ``inferred``
  (:func:`out_together`; :class:`vision.completion.Completion` adopts it as
  a reading of the log).
- **Two plays seen as one**: the camera may report in one play the cards of
  two turns put down close together. Cards of one play share their value
  (``multi_play``), so a camera play whose cards change value is split where
  the value changes (:func:`split_play`), each piece its own play, the seats
  that reached onto the pile (``pile_reaches``) taken in order for the
  pieces, the last one the play's ``reach_from``; where fewer seats reached
  than there are values, a value that is only the pile's top card is that
  card seen again and is dropped. Within one value, the pile's top card
  beside other cards is that card seen again too (the cards a multi-play
  fans out lie beside and over the card below, and the detector's second
  look boxes what peeks out of each), and is dropped. The caller completes and
  appends the pieces one by one, each against the state after the one before.
- **A play the camera did not see**: a camera play whose seat is the one
  after the seat on turn, the referee's turn order otherwise right, is
  explained by a play of the seat on turn that the camera missed (a card
  landing under an arm, read as the card below). A re-read
  (:mod:`vision.reread_tgus_t`) may read such a play with ``unseen``: the
  seat and a card that makes it legal; :func:`split_play` then puts that
  play first, marked ``inferred`` and ``unseen``, read before the play seen.
- **A hidden card seen later**: the card taken as hidden under a play
  (above) may peek out once the arm that put it down lifts, and the camera
  reports it landing: a camera play of just those cards whose reach names
  the seat of that play, its arm not back on the pile since (it lingered),
  right after it, is that card, no new play (:func:`hidden_seen`).
- **A Counter the camera did not see**: the seat whose Hit was the
  camera's last move takes cards while the chain waits on another seat
  (owing nothing else) and the camera counted one take (a picture
  leftover's 2 are seen as two): the target bounced it with a Counter laid
  under the arm that took it back. A ``play`` of a Counter by the target, marked
  ``inferred``, goes before the draw, which counts the chain (the camera's
  takes in ``takes``; :func:`unseen_counter`).
- **Whose arm brought the card**: a camera play's ``reach_from`` is the arm
  last seen on the pile, and a card may be seen landing only after another
  arm passed over the pile (a seat reaching for the draw pile beside it), or
  while the arm that put the last play down still lingers there (it joins
  ``pile_reaches`` again only once it left). Where the seat on turn reached
  onto the pile since the last play (``pile_reaches``) and the reach names
  another seat that either did not (it lingered) or is not the one after
  the seat on turn (whose play a missed move or a turn draw of the seat on
  turn would explain), the play is the seat on turn's: ``reach_from`` is
  that seat. So is a play no arm reached onto the pile for since the last
  play (``pile_reaches`` empty: the reach named lingered) whose reach names
  a seat neither on turn nor the one after it, a Hit waiting on the seat on
  turn or not. A Counter (played off turn by a Change's target) keeps its
  reach.
- **Targets**: a Change or Replace seen without a target (the camera cannot
  see whom it aims at) is given the next player still in, marked ``inferred``
  and ``target_from: "next"``.
- **Picture leftovers**: a player not on turn who owes nothing takes cards:
  in these presets that is the forced draw of a hand without number cards,
  2 at a time; a ``picture-leftover`` report goes before each 2, and the draw
  counts 2 a report (the camera's takes stay in ``takes``). Not once the
  referee holds the game ended (no one is on turn): a take seen then says
  the log ended it too early (a re-read, :mod:`vision.reread_tgus_t`, looks
  for why), and counts as the camera saw it.
- **The rest of a draw**: the pipeline counts a draw whole (the cards owed)
  when it sees the first take (``count`` over ``takes``), and so does a
  picture leftover's 2 here: the same seat's next takes, before anything
  else happens, are the rest of it and are dropped (:class:`TgusTHandsFree`
  remembers them).
- **A first card in a game under way**: a tgus-t game is one round, played
  on until one player is left, so a camera ``start`` once the referee has
  its first card (and the game is not over) is no new round: the camera lost
  the pile (an arm over it, its cards unread for a while) and took the next
  card landing for a first card. It is a play of that card by the seat on
  turn, marked ``inferred`` (:func:`start_in_game`), completed as any play.
  So is a camera ``start`` once the log has ended the game where the camera
  saw a card played since (:class:`TgusTHandsFree` remembers it): the log
  ended the game too early and the players play on, so no new round is
  dealt (its hands would be read against every later move).
- **A copy of the top card after a take**: the arm that took from the draw
  pile passes over the discard pile and moves its top card's box; the pile
  then reports that card landing again. A camera play of just the top card
  by the seat whose take was the camera's last play or draw, while the
  referee waits for nothing, is that card moved, no play (:func:`moved_copy`;
  :class:`TgusTHandsFree` remembers the last take), unless the pile saw it
  come in from a hand (``carried_in``): a drawn twin of the top card played
  at once is that rare.
- **Passes** need to know that the player on turn drew: :class:`TgusTHandsFree`
  remembers it across events (the referee's state does not say); a plain
  :func:`complete_tgus_t` call infers a pass only where the state carries
  ``drew`` (the player on turn drew this turn).

What the camera cannot know is left to the referee: a Gamble's effect (a plain
wild), name calls and catches.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Any, Mapping

from referee import camera_text as say
from referee.text import Text, color as color_text, define

from .config import PlayConfig
from .handsfree_common import COLOURS
from .handsfree_common import colour as _colour
from .handsfree_common import inferred as _inferred
from .handsfree_common import player_from_reach as _player_from_reach

TGUS_T_RULES = ("tgus-t1", "tgus-t2")
LEFTOVER_DRAW = 2  # cards a picture-leftover report owes (000 §T1)

define({
    "camera.tgus-t.inferred-turned": {
        "en": "the referee waits for cards turned for {player}'s Hit+?, and {cards} "
              "landed on the pile",
        "ja": "{player}のヒット?のためにめくるカードを待っていて、{cards}が場に置かれたため",
    },
    "camera.tgus-t.inferred-colour": {
        "en": "the referee waits for {player} to name a colour, and the next play, "
              "{card}, is legal only if {color} was named",
        "ja": "{player}の色の指定を待っていて、次に出た{card}は{color}が指定された場合だけ"
              "出せるため",
    },
    "camera.tgus-t.inferred-target": {
        "en": "the camera cannot see whom the {card} aims at: taken as {target}, "
              "the next player",
        "ja": "{card}の対象はカメラには分からないため、次のプレイヤーの{target}としました",
    },
    "camera.tgus-t.amended-hidden": {
        "en": "a later play is legal only if {player} put {hidden} down too, "
              "hidden under the cards the camera saw",
        "ja": "後のプレイは{player}が{hidden}も出していた場合だけ正しいため、"
              "カメラに見えたカードの下に隠れていたとしました",
    },
    "camera.tgus-t.amended-out-together": {
        "en": "the recording ended with the game under way and {player} still counted "
              "with {count} card(s): taken as put down with {card}, {hidden} hidden "
              "under it, which ends the game",
        "ja": "ゲームの途中で記録が終わり、{player}の手札はまだ{count}枚だったので、"
              "{card}と一緒に{hidden}を出し、その下に隠れていたとしました（これでゲーム終了）",
    },
    "camera.tgus-t.amended-gamble": {
        "en": "a later play is legal only if {player}'s Gamble had the effect {effect} "
              "(said, not seen)",
        "ja": "後のプレイは{player}のギャンブルの効果が{effect}だった場合だけ正しいため、"
              "そうしました",
    },
    "camera.tgus-t.inferred-colour-covered": {
        "en": "the referee waits for {player} to name a colour, and {card}, a "
              "colourless card, now covers it: no play shows it, taken as {color}",
        "ja": "{player}の色の指定を待っていて、色のない{card}がその上に出たため、"
              "色は分からず{color}としました",
    },
    "camera.tgus-t.inferred-hidden": {
        "en": "{card} matches neither the colour {color} nor the top card: taken as "
              "played together with {hidden}, hidden under it",
        "ja": "{card}は色{color}にも場のカードにも合わないため、その下に隠れた{hidden}と"
              "一緒に出されたとしました",
    },
    "camera.tgus-t.inferred-misread": {
        "en": "{card} matches neither the colour {color} nor the top card, and the "
              "cards played with it lie fanned over it: taken as {hidden}, read in "
              "another colour",
        "ja": "{card}は色{color}にも場のカードにも合わず、一緒に出したカードが"
              "重なっているため、別の色に読まれた{hidden}としました",
    },
    "camera.tgus-t.amended-target": {
        "en": "a later play is legal only if the {card} aimed at {target}",
        "ja": "後のプレイは{card}の対象が{target}だった場合だけ正しいため、そうしました",
    },
    "camera.tgus-t.inferred-counter": {
        "en": "{drawer} takes cards back while the Hit waits on {player}: "
              "{player} bounced it with a Counter the camera did not see",
        "ja": "ヒットが{player}に向いている間に{drawer}がカードを引いたため、"
              "{player}がカメラに見えないカウンターで返したとしました",
    },
    "camera.tgus-t.inferred-start": {
        "en": "{card} landed on the pile as if it were a first card, but the game "
              "is under way: taken as a play by the player on turn",
        "ja": "{card}が最初のカードのように場に置かれましたが、ゲームは進行中のため、"
              "手番のプレイヤーが出したとしました",
    },
    "camera.tgus-t.amended-unseen": {
        "en": "{later} is legal only after a play of {player}'s that the camera did "
              "not see: taken as {card}",
        "ja": "{later}は{player}がカメラに見えないカードを出していた場合だけ正しいため、"
              "{card}を出したとしました",
    },
    "camera.tgus-t.amended-unseen-hit": {
        "en": "{drawer} takes cards the log does not owe, as after a Hit of "
              "{player}'s that the camera did not see: taken as {card}",
        "ja": "{drawer}が記録上の義務のないカードを引いたため、{player}がカメラに"
              "見えないヒットを出したとして{card}としました",
    },
    "camera.tgus-t.amended-order": {
        "en": "a later play is legal only if {player} put {card} down last, on "
              "top of the cards played with it",
        "ja": "後のプレイは{player}が{card}を最後に（一緒に出したカードの上に）"
              "置いた場合だけ正しいため、そうしました",
    },
    "camera.tgus-t.inferred-still-in": {
        "en": "the camera sees {player} play or draw although the log has "
              "them out: a draw or Counter missed emptied the hand too early",
        "ja": "記録では上がっている{player}がカードを出すか引くのがカメラに見えたため、"
              "見逃したドローかカウンターで手札が早く尽きたとしました",
    },
    "camera.tgus-t.inferred-gone-out": {
        "en": "{player} makes no move the camera sees while the others play "
              "on round the table: the hand was counted too high and is empty",
        "ja": "他の人が一巡以上出す間、{player}の動きがカメラに見えないため、"
              "手札を数え過ぎていて既に上がったとしました",
    },
    "camera.tgus-t.inferred-leftover": {
        "en": "{player} took cards while not on turn and owing none: the forced "
              "draw of a hand without number cards",
        "ja": "{player}が手番でもドローの義務もないのにカードを引いたため、"
              "数字カードのない手札の強制ドローとしました",
    },
})


def is_tgus_t(state: Mapping[str, Any]) -> bool:
    """Whether ``state`` is a tgus-t referee's (the 東幻符闘祭 deck's presets)."""
    return state.get("rules") in TGUS_T_RULES


def _awaiting(state: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """(what, player) the tgus-t referee waits for: ``hit-x``, ``change``,
    ``color``, ``draw`` or ``None`` (from the state's ``awaiting`` message)."""
    said = state.get("awaiting")
    key = getattr(said, "key", None)
    if key is None and isinstance(said, Mapping):  # the message as JSON data
        key, args = said.get("key"), said.get("args") or {}
    else:
        args = getattr(said, "args", None) or {}
    if not isinstance(key, str) or not key.startswith("tgus-t.awaiting."):
        return None, None
    player = args.get("player")
    return key.rsplit(".", 1)[1], str(player) if player is not None else None


def _card_text(label: str) -> Text:
    return say.camera_card(label, "tgus-t")


def start_in_game(event: Mapping[str, Any], state: Mapping[str, Any],
                  ended_early: bool = False) -> dict[str, Any] | None:
    """A camera ``start`` while the game is under way (the referee has its
    first card and the game is not over, or it is over but ``ended_early``:
    the camera saw cards played after the log's end, so the log ended the
    game too early and the players play on) as the play it is (see the
    comment above): the card, by the seat on turn (no ``player``: the
    referee takes the turn), marked ``inferred``; ``None`` for any other
    event."""
    if (
        event.get("source") != "vision" or event.get("type") != "start"
        or state.get("top") is None or not event.get("card")
        or (state.get("over") and not ended_early)
    ):
        return None
    card = str(event["card"])
    why = Text("camera.tgus-t.inferred-start", card=_card_text(card))
    return _inferred("play", why, event, cards=[card])


def complete_tgus_t(event: Mapping[str, Any], state: Mapping[str, Any]
                    ) -> list[dict[str, Any]]:
    """The events to append for one camera ``event`` of a tgus-t table, given
    the referee's state before it (see the comment above); like
    :func:`complete`, inferred events first, the event itself last (or none: a
    reach that turned a card for a Hit+?)."""
    ev = _without_came_in(start_in_game(event, state) or event)
    if ev.get("source") != "vision" or ev.get("type") not in ("play", "draw"):
        return [ev]
    players = list(state.get("players") or [])
    waits, waiter = _awaiting(state)
    turn = state.get("turn")
    on_turn = _reach_on_turn(ev, state, waits)
    if on_turn is not None:
        ev["reach_from"] = on_turn
    _player_from_reach(ev, players)
    who = ev.get("player", turn)
    out: list[dict[str, Any]] = []
    if waits == "hit-x":
        if ev["type"] == "draw":  # the reach that turned the card
            return []
        cards = [str(c) for c in ev.get("cards") or []]
        why = Text("camera.tgus-t.inferred-turned", player=waiter or "?",
                   cards=", ".join(cards))
        turned = _inferred("turned", why, ev, cards=cards)
        turned.update({k: ev[k] for k in ("evidence",) if k in ev})
        return [turned]
    still = still_in(ev, state, who)
    if still is not None:  # a seat the log holds out seen moving: back in
        out.append(still)
        state = _in_again(state, str(who), int(still["count"]))
        turn = state.get("turn")
    if (
        state.get("drew") and who != turn and turn is not None
        and who == _next_active(state, str(turn)) and waits != "draw"
    ):
        why = say.inferred_pass(str(turn), str(who), ev["type"] == "play")
        out.append(_inferred("pass", why, ev, player=turn))
        turn = who  # the player on turn once the pass is appended
    if ev["type"] == "draw":
        owed = dict(state.get("owed") or {})
        pending = state.get("pending_target") if state.get("pending_draw") else None
        if (
            who is not None and turn is not None and not state.get("over")
            and who != turn and who != pending
            and not owed.get(who) and ev.get("player_from") == "reach"
        ):
            takes = int(ev.get("count", 1))
            reports = max(1, -(-takes // LEFTOVER_DRAW))
            why = Text("camera.tgus-t.inferred-leftover", player=who)
            out += [_inferred("picture-leftover", why, ev, player=who)
                    for _ in range(reports)]
            if reports * LEFTOVER_DRAW != takes:
                ev["count"], ev["takes"] = reports * LEFTOVER_DRAW, takes
        return out + [ev]
    cards = [str(c) for c in ev.get("cards") or [ev.get("card")] if c]
    first = cards[0] if cards else ""
    colour = _colour(first)
    if waits in ("color", "change") and waiter is not None and colour is not None:
        why = Text("camera.tgus-t.inferred-colour", player=waiter,
                   card=_card_text(first), color=color_text(colour))
        out.insert(0, _inferred("color", why, ev, player=waiter, color=colour))
    elif (
        waits in ("color", "change") and waiter is not None and first
        and "counter" not in cards
    ):  # a colourless card covers the colour: whichever it was, it is gone
        named = str(state.get("color") or COLOURS[0])
        why = Text("camera.tgus-t.inferred-colour-covered", player=waiter,
                   card=_card_text(first), color=color_text(named))
        out.insert(0, _inferred("color", why, ev, player=waiter, color=named))
    ordered, hidden = _first_matching(cards, state, who, turn, waits)
    if still is not None:  # the log's pile is in doubt: the cards as seen
        ordered, hidden = cards, None
    misread = _misread_in_fan(ordered, state) if hidden is not None else None
    if misread is not None:  # one of the fan's cards read in another colour
        why = Text("camera.tgus-t.inferred-misread", card=_card_text(ordered[0]),
                   color=color_text(str(state.get("color"))),
                   hidden=_card_text(hidden))
        ordered, hidden = [hidden] + ordered[1:], None
        ev.update(misread=[misread], inferred=str(why), inferred_msg=why.data())
        ev.pop("card", None)
    if ordered != cards:
        cards = ordered
        ev["cards"] = cards
    if hidden is not None:
        why = Text("camera.tgus-t.inferred-hidden", card=_card_text(first),
                   color=color_text(str(state.get("color"))),
                   hidden=_card_text(hidden))
        cards = [hidden] + cards
        ev.update(cards=cards, hidden=[hidden], inferred=str(why),
                  inferred_msg=why.data())
        ev.pop("card", None)
    if "target" not in ev and any(c in ("change", "replace") for c in cards):
        actor = who if who in players else turn
        target = _next_active(state, str(actor)) if actor is not None else None
        if target is not None:
            why = Text("camera.tgus-t.inferred-target", card=_card_text(first),
                       target=target)
            ev.update(target=target, target_from="next", inferred=str(why),
                      inferred_msg=why.data())
    return out + [ev]


def still_in(ev: Mapping[str, Any], state: Mapping[str, Any], who: Any
             ) -> dict[str, Any] | None:
    """The ``still-in`` event to go before the camera play or draw ``ev`` that
    the camera saw ``who`` make (its arm reached in; no play inferred
    unseen), a seat the log holds out with no cards (not the seat left last
    at the end, who still holds cards), marked ``inferred``: the log emptied
    that hand too early (a draw or a Counter the camera missed), so the game
    the log ended goes on. ``count``: the cards seen played (0 for a draw).
    ``None`` for any other event."""
    if (ev.get("type") not in ("play", "draw") or who is None
            or ev.get("player_from") != "reach" or ev.get("unseen")
            or ev.get("inferred")):  # only a move the camera saw the seat make
        return None
    ranking = [str(p) for p in state.get("ranking") or []]
    if str(who) not in ranking or (state.get("over") and ranking[-1] == str(who)):
        return None
    if int((state.get("hand_counts") or {}).get(str(who), 0) or 0) > 0:
        return None
    played = len([c for c in ev.get("cards") or [ev.get("card")] if c])
    seen = played if ev.get("type") == "play" else 0
    why = Text("camera.tgus-t.inferred-still-in", player=str(who))
    return _inferred("still-in", why, ev, player=str(who), count=seen)


#: camera moves :class:`TgusTHandsFree` keeps for :func:`gone_out`
MOVES_KEPT = 200


def _stuck(ev: Mapping[str, Any], state: Mapping[str, Any],
           stuck: tuple[str, int] | None) -> tuple[str, int] | None:
    """``stuck`` (see :class:`TgusTHandsFree`) after the camera event ``ev``."""
    turn = state.get("turn")
    seat = ev.get("reach_from")
    if turn is None or state.get("over") or seat == turn:
        return None
    if ev.get("type") != "play" or ev.get("inferred") or not isinstance(seat, str):
        return stuck
    held = stuck[1] if stuck is not None and stuck[0] == str(turn) else 0
    return (str(turn), held + 1)


def gone_out(ev: Mapping[str, Any], state: Mapping[str, Any],
             moved: list[str], stuck: int | None = None,
             config: PlayConfig | None = None) -> dict[str, Any] | None:
    """The ``gone-out`` event to go before the camera play ``ev`` of a seat
    not on turn (its arm seen reaching in, no play of the seat on turn
    inferred unseen before it), when the seat on turn has made no camera
    move (``moved``: the seats of the camera moves before ``ev``, oldest
    first) while every other seat still in made at least
    ``config.gone_out_plays`` since, and the referee has held it on turn
    through ``stuck`` camera plays of others (this one too; at least
    ``config.gone_out_stuck``, ``None``: not asked; ``config``: a
    :class:`vision.config.PlayConfig`, ``None``: the defaults): the log holds in a player whose hand it counted too high (two
    cards of one value read as one), and who went out unseen. Nothing while
    the referee waits for a colour, a turned card or a draw. Marked
    ``inferred``; ``None`` otherwise."""
    turn = state.get("turn")
    seat = ev.get("reach_from")
    players = [str(p) for p in state.get("players") or []]
    if (ev.get("type") != "play" or ev.get("source") != "vision"
            or ev.get("unseen") or ev.get("inferred") or state.get("over")
            or turn is None or not isinstance(seat, str) or seat not in players
            or seat == turn or str(turn) not in players
            or _awaiting(state)[0] is not None):
        return None
    out = {str(p) for p in state.get("ranking") or []}
    if str(turn) in out:
        return None
    others = [p for p in players if p not in out and p != turn]
    since = moved[::-1]  # the camera moves since the seat on turn's last
    if str(turn) in since:
        since = since[:since.index(str(turn))]
    config = config or PlayConfig()
    if any(since.count(p) < config.gone_out_plays for p in others):
        return None
    if stuck is not None and stuck < config.gone_out_stuck:
        return None
    why = Text("camera.tgus-t.inferred-gone-out", player=str(turn))
    return _inferred("gone-out", why, ev, player=str(turn))


def _out_now(state: Mapping[str, Any], player: str) -> dict[str, Any]:
    """``state`` as the referee holds it once ``player`` has gone out
    (:mod:`referee.tgus_t.gone_out`): on the ranking with no cards, the next
    player on turn (the game over where one is left)."""
    view = dict(state)
    ranking = [str(p) for p in state.get("ranking") or []] + [player]
    hands = dict(state.get("hand_counts") or {})
    hands[player] = 0
    view.update(ranking=ranking, hand_counts=hands, drew=False)
    left = [p for p in state.get("players") or [] if p not in ranking]
    if len(left) <= 1:
        view.update(ranking=ranking + left, over=True, turn=None)
    else:
        view["turn"] = _next_active(view, player)
    return view


def _in_again(state: Mapping[str, Any], player: str, seen: int
              ) -> dict[str, Any]:
    """``state`` as the referee holds it once ``player`` is back in
    (:mod:`referee.tgus_t.still_in`): off the ranking (with the seat left
    last where the game had ended, the player then on turn), its hand at
    least ``seen`` cards and one (as the referee counts it)."""
    view = dict(state)
    ranking = [p for p in state.get("ranking") or [] if p != player]
    if state.get("over"):
        ranking = ranking[:-1]
        view.update(over=False, turn=player, drew=False)
    hands = dict(state.get("hand_counts") or {})
    hands[player] = max(int(hands.get(player, 0) or 0), seen, 1)
    view.update(ranking=ranking, hand_counts=hands)
    return view


def split_play(event: Mapping[str, Any], top: str | None = None
               ) -> list[dict[str, Any]]:
    """A camera play whose cards change value split into one play a value (see
    the comment above); any other event as it is, in a list of one. With
    fewer seats reaching onto the pile than values, a value whose cards are
    all the pile's ``top`` card (the card below, seen again as the new one
    landed beside it) is dropped instead. A play of one value holding the
    pile's ``top`` card once beside other cards is read without it: the card
    below seen again beside the cards played over it. A play's
    ``carried_in`` goes on as :data:`CAME_IN` (for :func:`moved_copy`)."""
    ev = dict(event)
    if ev.pop("carried_in", None):
        ev[CAME_IN] = True
    unseen = ev.pop("unseen", None)
    if isinstance(unseen, Mapping) and ev.get("type") in ("play", "draw") and (
            unseen.get("card")):
        card, seat = str(unseen["card"]), unseen.get("seat")
        missed = _inferred("play", unseen_why(ev, seat, card), ev, cards=[card],
                           unseen=True)
        if seat is not None:
            missed["reach_from"] = seat
        return [missed] + split_play(ev, card)
    cards = [str(c) for c in ev.get("cards") or []]
    if ev.get("source") != "vision" or ev.get("type") != "play" or len(cards) < 2:
        return [ev]
    values = [_value(c) for c in cards]
    runs: list[list[str]] = []
    for k, card in enumerate(cards):
        if k and values[k] == values[k - 1]:
            runs[-1].append(card)
        else:
            runs.append([card])
    if len(runs) == 1:
        ev["cards"] = _without_top(cards, top)
        return [ev]
    reaches = [str(r) for r in ev.get("pile_reaches") or []]
    if len(reaches) < len(runs) and top is not None:
        new = [run for run in runs if any(c != top for c in run)]
        if len(new) == 1:
            return [{**ev, "cards": new[0]}]
    last = ev.get("reach_from")
    seats: list[Any] = reaches[-len(runs):] if len(reaches) >= len(runs) else []
    if not seats:
        seats = [None] * (len(runs) - 1) + [last]
    if last is not None:
        seats[-1] = last
    out = []
    for k, (run, seat) in enumerate(zip(runs, seats)):
        piece = {**ev, "cards": run, "split": [k + 1, len(runs)]}
        piece.pop("card", None)
        piece.pop("player", None)
        piece.pop("player_from", None)
        if seat is None:
            piece.pop("reach_from", None)
        else:
            piece["reach_from"] = seat
        out.append(piece)
    return out


def _without_top(run: list[str], top: str | None) -> list[str]:
    """One value's cards of a camera play without the pile's ``top`` card
    where it is among them once beside other cards (the card below seen
    again); else as they are."""
    if top is None or run.count(top) != 1 or len(run) < 2:
        return run
    return [c for c in run if c != top]


def amend_hidden(referee: Any, config: PlayConfig | None = None) -> bool:
    """The play or draw just appended (the referee's last line, from the
    camera) is ruled illegal: amend the log as :func:`amendment` finds (one
    ``referee.correct`` or ``referee.delete``). Returns whether the log was
    amended (the referee replays it)."""
    found = amendment(referee, config)
    if found is None:
        return False
    action, line, event = found
    if action == "delete":
        referee.delete(line)
    else:
        referee.correct(line, event)
    return True


def amendment(referee: Any, config: PlayConfig | None = None
              ) -> tuple[str, int, dict[str, Any] | None] | None:
    """The one correction that explains the last line's illegal ruling, found
    on a copy of ``referee`` (``referee`` itself is not changed), as
    ``("correct", line, event)`` or ``("delete", line, None)``; ``None`` when
    there is none. The play or draw just appended (the referee's last line,
    from the camera) is ruled illegal: a card hidden under an earlier camera
    play may explain it (see the comment above). Tries, the latest play first,
    each camera play of one value among the last ``config.hidden_back`` lines
    (:class:`vision.config.PlayConfig`; default: its default) that
    is the last play before this one or the last play of the seat now on turn,
    with one more card of that value in each colour under it (no label more
    often than the deck prints it: :func:`deck_holds`); keeps the first
    amendment under which nothing from the amended line on contradicts the log
    (:func:`contradicted`: no line ruled illegal, no camera play or draw after
    the game's end); failing
    that, an earlier Gamble's effect (:func:`_amend_gamble`); failing that, a
    play of cards the pile's last plays put down is those cards seen again
    (:func:`seen_again`: an arm passing over the pile) and its line is
    deleted. A live table applies it through
    its own corrections (``serve``: stored like a person's)."""
    import copy

    from referee.tgus_t.common import DECK_LABELS

    events = referee.events
    if not events or events[-1].get("type") not in ("play", "draw"):
        return None
    last_line = len(events)
    if not any(r.event == last_line and r.ruling == "illegal" for r in referee.rulings):
        return None
    config = config or PlayConfig()
    turn = referee.state().get("turn")
    referee = copy.deepcopy(referee)  # the tries below replay a copy
    events = referee.events
    for i, amended in _fan_orders(referee, config.hidden_back):
        if not _colour_to_rename(events, i, amended["cards"]) and _keeps(
                referee, i, amended):  # no colour to name again: one line
            return "correct", i + 1, amended
    tried: set[int] = set()
    for i in range(last_line - 2, max(-1, last_line - 2 - config.hidden_back), -1):
        e = events[i]
        if e.get("type") != "play" or e.get("source") != "vision" or e.get("hidden"):
            continue
        if tried and e.get("player") != turn:
            continue
        tried.add(i)
        seen = _one_value(e)
        if seen is None:
            continue
        cards = [str(c) for c in e["cards"]]
        for colour in hidden_colours(seen):
            hidden = f"{colour}-{seen[0].value}"
            if hidden not in DECK_LABELS or not deck_holds(cards + [hidden],
                                                           referee.header):
                continue
            why = Text("camera.tgus-t.amended-hidden", player=str(e.get("player")),
                       hidden=_card_text(hidden))
            amended = {**e, "cards": [hidden] + cards, "hidden": [hidden],
                       "inferred": str(why), "inferred_msg": why.data()}
            if _keeps(referee, i, amended):
                return "correct", i + 1, amended
    under = _hidden_under_last(referee, config.hidden_back)
    if under is not None:
        return under
    gamble = _amend_gamble(referee, last_line, config.gamble_back)
    if gamble is not None:
        return gamble
    target = _amend_target(referee, last_line, config.gamble_back)
    if target is not None:
        return target
    if events[-1].get("type") != "play":
        return None
    if seen_again(referee, last_line, config.seen_again_plays):
        return "delete", last_line, None  # a card on the pile seen again, no play
    return None


def _colour_to_rename(events: list[Mapping[str, Any]], i: int,
                      cards: list[str]) -> bool:
    """Whether the line before 0-based line ``i`` is a colour the completion
    inferred from that play's first card that ``cards[0]``, the play's first
    card now, would name otherwise (:func:`_recoloured`)."""
    before = events[i - 1] if i else {}
    first = _colour(cards[0]) if cards else None
    return (before.get("type") == "color" and bool(before.get("inferred"))
            and first is not None and before.get("color") != first)


def _recoloured(referee: Any, i: int, cards: list[str]) -> int:
    """Where the line before line ``i + 1`` is a colour the completion
    inferred from that play's first card (``inferred``), that colour named
    again (in ``referee``, changed) from ``cards[0]``, the play's first card
    now. Returns the 0-based index of the first line changed or to be
    changed (``i - 1`` or ``i``)."""
    if not _colour_to_rename(referee.events, i, cards):
        return i
    before, first = referee.events[i - 1], _colour(cards[0])
    said = Text("camera.tgus-t.inferred-colour", player=str(before.get("player")),
                card=_card_text(cards[0]), color=color_text(first))
    referee.correct(i, {**before, "color": first, "inferred": str(said),
                        "inferred_msg": said.data()})
    return i - 1


def _kept_recoloured(referee: Any, i: int, amended: dict[str, Any]) -> Any:
    """Line ``i + 1`` amended on a copy of ``referee``, with the colour
    inferred from its first card before it named again (:func:`_recoloured`);
    the copy where nothing from the first line changed on contradicts the log
    (:func:`contradicted`), else ``None``."""
    import copy

    again = copy.deepcopy(referee)
    line = _recoloured(again, i, [str(c) for c in amended.get("cards") or []])
    logged = again.events
    if again.try_correct(
        i + 1, amended, lambda r: not contradicted(r, line),
        refused=lambda r: _contradicts(r, logged),
    ):
        return again
    return None


#: lines that leave the pile's top card and colour as they were
LEAVE_THE_PILE = ("draw", "pass", "call", "uno", "catch", "picture-leftover")


def reordered(referee: Any, config: PlayConfig | None = None
              ) -> OutTogether | None:
    """The log's last line, a camera play or draw, is ruled illegal: the last
    camera play before it (within ``config.hidden_back`` lines), of one value
    in several colours, read with another of its cards put down last (draws,
    passes and calls between them leave the pile as it was:
    :data:`LEAVE_THE_PILE`), and a colour the completion inferred from its
    first card named again from the new first card (:func:`_recoloured`):
    the first such reading, on a copy of ``referee`` (not changed), under
    which nothing from it on contradicts the log (:func:`contradicted`);
    else ``None``. The camera does not see which card of a fan went down
    last (the top card, whose colour is then in play), and lists the cards
    it saw in no such order: the next play tells. (:func:`amendment` tries
    the orders that need no colour named again, as one correction.)"""
    if getattr(referee.header, "rules", None) not in TGUS_T_RULES:
        return None
    for i, amended in _fan_orders(referee, (config or PlayConfig()).hidden_back):
        again = _kept_recoloured(referee, i, amended)
        if again is not None:
            return OutTogether(again, i + 1)
    return None


def _fan_orders(referee: Any, back: int):  # noqa: ANN202
    """(0-based line, amended play) for each other order of the fan before
    the log's last line, a camera play or draw ruled illegal (see
    :func:`reordered`)."""
    events = referee.events
    if not events or events[-1].get("type") not in ("play", "draw") or (
            events[-1].get("source") != "vision"):
        return
    last_line = len(events)
    if not any(r.event == last_line and r.ruling == "illegal" for r in referee.rulings):
        return
    i = _fan_line(referee, back)
    if i is None:
        return
    e = events[i]
    cards = [str(c) for c in e["cards"]]
    for k, card in enumerate(cards[:-1]):
        if card == cards[-1]:
            continue
        order = cards[:k] + cards[k + 1:] + [card]
        why = Text("camera.tgus-t.amended-order", player=str(e.get("player")),
                   card=_card_text(card))
        yield i, {**e, "cards": order, "inferred": str(why),
                  "inferred_msg": why.data()}


def _fan_line(referee: Any, back: int) -> int | None:
    """The 0-based line of the last play before the log's last line (within
    ``back`` lines, only :data:`LEAVE_THE_PILE` lines between) where it is a
    camera play of one value in several colours that the referee took (not
    ruled illegal: a refused play left the pile as it was); else ``None``."""
    events = referee.events
    for i in range(len(events) - 2, max(-1, len(events) - 2 - back), -1):
        e = events[i]
        if e.get("type") == "play":
            if e.get("source") != "vision" or _one_value(e) is None or any(
                    r.event == i + 1 and _contradicts(r, events)
                    for r in referee.rulings):
                return None
            colours = {_colour(str(c)) for c in e["cards"]}
            return i if len(colours) > 1 else None
        if e.get("type") not in LEAVE_THE_PILE:
            return None
    return None


def _hidden_under_last(referee: Any, back: int
                       ) -> tuple[str, int, dict[str, Any]] | None:
    """The log's last line, a camera play of one value ruled illegal, whose
    colour the multi-play before it holds (:func:`_fan_line`, within
    ``back`` lines), read with a card of its value in another colour hidden
    under it: the completion leaves such a play as seen (the fan may have
    ended on its colour, :func:`_first_matching`); where no order of the fan
    makes it legal (:func:`reordered`), the card under it did. The first
    colour under which nothing from it on contradicts the log, as
    ``("correct", line, event)``, tried on ``referee`` (put back as it was
    where it fails); else ``None``."""
    from referee.tgus_t.common import DECK_LABELS

    events = referee.events
    i = len(events) - 1
    e = events[i]
    seen = _one_value(e)
    if e.get("type") != "play" or e.get("source") != "vision" or e.get(
            "hidden") or seen is None:
        return None
    fan = _fan_line(referee, back)
    colours = {str(c.color) for c in seen}
    if fan is None or not colours & {_colour(str(c)) for c in events[fan]["cards"]}:
        return None
    cards = [str(c) for c in e["cards"]]
    for colour in COLOURS:
        hidden = f"{colour}-{seen[0].value}"
        if colour in colours or hidden not in DECK_LABELS or not deck_holds(
                [hidden] + cards, referee.header):
            continue
        why = Text("camera.tgus-t.inferred-hidden", card=_card_text(cards[0]),
                   color=color_text(colour), hidden=_card_text(hidden))
        amended = {**e, "cards": [hidden] + cards, "hidden": [hidden],
                   "inferred": str(why), "inferred_msg": why.data()}
        if _keeps(referee, i, amended):
            return "correct", i + 1, amended
    return None


def seen_again(referee: Any, line: int, plays: int | None = None) -> bool:
    """Whether the camera play on ``line`` (1-based; ruled illegal, so it left
    the pile as it was) holds only cards the pile's last ``plays`` plays
    before it put down (legal lines only): the cards of a multi-play lie
    fanned, and each may peek out again from under the cards played over it
    as an arm passes and be reported landing. A card no such play holds more
    often than it does. ``plays`` defaults to ``play.seen_again_plays``."""
    if plays is None:
        plays = PlayConfig().seen_again_plays
    events = referee.events
    e = events[line - 1]
    cards = [str(c) for c in e.get("cards") or []]
    if e.get("type") != "play" or not cards or plays < 1:
        return False
    refused = {r.event for r in referee.rulings if r.ruling == "illegal"}
    on_pile: list[str] = []
    found = 0
    for k in range(line - 1, 0, -1):
        prev = events[k - 1]
        if prev.get("type") == "start" and prev.get("card"):
            on_pile.append(str(prev["card"]))
            break
        if prev.get("type") not in ("play", "turned") or k in refused:
            continue
        on_pile += [str(c) for c in prev.get("cards") or []]
        found += 1
        if found >= plays:
            break
    return all(cards.count(c) <= on_pile.count(c) for c in set(cards))


@dataclass(frozen=True)
class OutTogether:
    """A reading of the log found at the camera's source's end
    (:func:`out_together`) or when a multi-play is read with another card
    on top (:func:`reordered`), adopted as the recoveries' readings are
    (:meth:`vision.live.LiveTable.adopt`, :func:`web.recover.take`): the
    referee holding the amended log and the amended line (1-based)."""

    referee: Any
    line: int


def out_together(referee: Any, config: PlayConfig | None = None
                 ) -> OutTogether | None:
    """The log read again at the end of the camera's source, where the game
    is still under way (see the comment above): its last play, a camera play
    of one value (among the last ``config.hidden_back`` lines,
    :class:`vision.config.PlayConfig`) whose seat the referee now counts with
    one card (or up to ``config.out_together_max``), with as many more cards of
    that value hidden by the fan, in the colours of :func:`hidden_colours` in
    turn (no label more often than the deck prints it, :func:`deck_holds`),
    put down first, else last; the first under which the game is over
    and no line from the amended one on contradicts the log
    (:func:`contradicted`) is returned, on a copy of ``referee`` (``referee``
    itself is not changed); else ``None``."""
    import copy

    from referee.tgus_t.common import DECK_LABELS

    if getattr(referee.header, "rules", None) not in TGUS_T_RULES:
        return None
    state = referee.state()
    events = referee.events
    if state.get("over") or state.get("top") is None or not events:
        return None
    config = config or PlayConfig()
    back = max(-1, len(events) - 1 - config.hidden_back)
    i = next((k for k in range(len(events) - 1, back, -1)
              if events[k].get("type") == "play"), None)
    if i is None:
        return None
    e = events[i]
    seat = e.get("player")
    left = int((state.get("hand_counts") or {}).get(seat, 0)) if seat is not None else 0
    if e.get("source") != "vision" or not 1 <= left <= config.out_together_max:
        return None
    seen = _one_value(e)
    if seen is None:
        return None
    again = copy.deepcopy(referee)
    refused = (lambda r: _contradicts(r, again.events))
    cards = [str(c) for c in e["cards"]]
    labels = [f"{colour}-{seen[0].value}" for colour in hidden_colours(seen)]
    for hidden in combinations_with_replacement(
            [c for c in labels if c in DECK_LABELS], left):
        hidden = list(hidden)
        if not deck_holds(cards + hidden, referee.header):
            continue
        why = Text("camera.tgus-t.amended-out-together", player=str(seat),
                   count=left, card=_card_text(cards[-1]),
                   hidden=(_card_text(hidden[0]) if len(hidden) == 1
                           else ", ".join(hidden)))
        for order in (hidden + cards, cards + hidden):  # put down first or last
            amended = {**e, "cards": order,
                       "hidden": [str(c) for c in e.get("hidden") or ()] + hidden,
                       "inferred": str(why), "inferred_msg": why.data()}
            if again.try_correct(
                i + 1, amended,
                lambda r: bool(r.state().get("over")) and not contradicted(r, i),
                refused=refused,
            ):
                return OutTogether(again, i + 1)
    return None


def _one_value(play: Mapping[str, Any]) -> list[Any] | None:
    """A play's cards (:class:`referee.cards.Card`) where they are coloured
    cards of one value, the kind a fan may hide one more of; else ``None``."""
    from referee.cards import Card

    try:
        seen = [Card.from_label(str(c)) for c in play.get("cards") or []]
    except ValueError:
        return None
    if not seen or any(c.color is None or c.value != seen[0].value for c in seen):
        return None
    return seen


def deck_holds(cards: list[str], header: Any = None) -> bool:
    """Whether one play's ``cards`` hold no label more often than the deck
    does (a 0 is printed once a colour: a 0 taken as hidden under a 0 of its
    colour is no card of the deck). ``header``: the game's (its
    ``options.deck_size`` over one deck's size, rounded up: that many decks)."""
    from referee.tgus_t.cards import deck_counts

    counts = deck_counts()
    options = getattr(header, "options", None)
    if options is None and isinstance(header, Mapping):
        options = header.get("options")
    size = (options or {}).get("deck_size") if isinstance(options, Mapping) else None
    one = sum(counts.values())
    decks = max(1, -(-int(size) // one)) if isinstance(size, int) and size > 0 else 1
    return all(cards.count(c) <= counts.get(c, 0) * decks
               for c in set(cards) if c in counts)


def hidden_colours(seen: list[Any]) -> list[str]:
    """The colours a card hidden under the cards ``seen`` (one value) is
    tried in. Under a single card, the other colours first (two cards
    played together are most often of two colours). Under two cards or more,
    theirs first, the last seen first: the detector's second look names each
    label of a fan once (:meth:`vision.decks.DeckDetector._named_apart`), so
    a twin of a card in sight is never seen, where a card of another colour
    peeks out beside the others."""
    colours = [str(c.color) for c in seen if c.color is not None]
    if len(seen) < 2:
        return sorted(COLOURS, key=lambda c: c in colours)
    twins = list(dict.fromkeys(reversed(colours)))
    return twins + [c for c in COLOURS if c not in twins]


#: the ruling on an event after the game's end (``refusal``: nothing counts)
GAME_OVER_RULE = "game-over"


def _after_end(ruling: Any, events: list[Mapping[str, Any]]) -> bool:
    """Whether ``ruling`` refuses a camera play or draw as coming after the
    game's end (see :func:`contradicted`)."""
    if ruling.ruling != "info" or not str(ruling.rule).endswith("." + GAME_OVER_RULE):
        return False
    e = events[ruling.event - 1] if 0 < ruling.event <= len(events) else {}
    return e.get("source") == "vision" and e.get("type") in ("play", "draw")


#: the ruling that takes a seat the log holds out back in (``still-in``)
STILL_IN_RULE = "still-in"


def _held_out(ruling: Any, events: list[Mapping[str, Any]]) -> bool:
    """Whether ``ruling`` takes a seat back in on an inferred ``still-in``
    (:func:`still_in`): the camera saw a seat the log held out move."""
    if ruling.ruling != "ok" or not str(ruling.rule).endswith("." + STILL_IN_RULE):
        return False
    e = events[ruling.event - 1] if 0 < ruling.event <= len(events) else {}
    return e.get("type") == STILL_IN_RULE and bool(e.get("inferred"))


def _contradicts(ruling: Any, events: list[Mapping[str, Any]]) -> bool:
    """Whether ``ruling`` says the log as read is wrong (see
    :func:`contradicted`)."""
    return (ruling.ruling == "illegal" or _after_end(ruling, events)
            or _held_out(ruling, events))


def contradicted(referee: Any, line: int, before: int | None = None) -> bool:
    """Whether a line after ``line`` (1-based, 0: the header; and before line
    ``before``, if given) contradicts the log as read: a line ruled illegal,
    a camera play or draw after the game's end, or a seat the log held out
    taken back in (an inferred ``still-in``). A tgus-t game is played
    until one player is left and the referee counts nothing after it
    (``info``, ``game-over``), so cards the camera sees played or drawn after
    the end, or by a seat out, say the log emptied a hand too early (a card
    hidden under a play that was not there, a Gamble given the wrong effect)
    as surely as an illegal line does; the ``still-in`` only lets the game
    go on where no reading of the log mends it."""
    events = referee.events
    return any(r.event > line and (before is None or r.event < before)
               and _contradicts(r, events) for r in referee.rulings)


def first_after_end(referee: Any, start: int, end: int) -> bool:
    """Whether lines ``start + 1 .. end`` (one camera event's) hold the first
    camera play or draw refused after the game's end, or a seat the log held
    out taken back in (:func:`_held_out`): it asks for the log to be read
    again; plays refused after the first add nothing to ask (see
    :func:`contradicted`)."""
    events = referee.events
    first = min((r.event for r in referee.rulings if _after_end(r, events)),
                default=None)
    return (first is not None and start < first <= end) or any(
        start < r.event <= end and _held_out(r, events) for r in referee.rulings)


def _keeps(referee: Any, i: int, amended: dict[str, Any]) -> bool:
    """Line ``i + 1`` amended; kept where nothing from it on contradicts the
    log (:func:`contradicted`), else put back as it was."""
    return referee.try_correct(
        i + 1, amended, lambda r: not contradicted(r, i),
        refused=lambda r: _contradicts(r, referee.events))


def unsaid_gamble(event: Mapping[str, Any]) -> bool:
    """A camera Gamble played as a plain wild, its effect not said: an
    amendment may give it one (:func:`_amend_gamble`)."""
    return (event.get("type") == "play" and event.get("source") == "vision"
            and "effect" not in event and "gamble" in (event.get("cards") or []))


def guessed_target(event: Mapping[str, Any]) -> bool:
    """A camera Change or Replace whose target the completion took as the
    next player (``target_from`` ``next``: the camera cannot see it): an
    amendment may aim it at another seat (:func:`_amend_target`)."""
    return (event.get("type") == "play" and event.get("source") == "vision"
            and event.get("target_from") == "next")


def _amend_target(referee: Any, last_line: int, back: int
                  ) -> tuple[str, int, dict[str, Any]] | None:
    """The latest camera Change or Replace whose target was taken as the next
    player (:func:`guessed_target`) among the last ``back`` lines
    (``play.gamble_back``: a swapped hand shows only when a count runs out,
    as a Gamble's effect does), aimed at each other seat still in; the first
    under which no line from it on contradicts the log is kept, marked
    ``inferred``, else ``None``."""
    events = referee.events
    for i in range(last_line - 2, max(-1, last_line - 2 - back), -1):
        e = events[i]
        if not guessed_target(e):
            continue
        for target in referee.header.players:
            if target in (e.get("player"), e.get("target")):
                continue
            cards = [str(c) for c in e.get("cards") or []]
            why = Text("camera.tgus-t.amended-target", card=_card_text(
                cards[0] if cards else "change"), target=target)
            amended = {**e, "target": target, "target_from": "amended",
                       "inferred": str(why), "inferred_msg": why.data()}
            if _keeps(referee, i, amended):
                return "correct", i + 1, amended
        return None  # the latest one only
    return None


def _amend_gamble(referee: Any, last_line: int, back: int
                  ) -> tuple[str, int, dict[str, Any]] | None:
    """A camera Gamble played as a plain wild (its effect is only said) among
    the last ``back`` lines (``play.gamble_back``), given each effect (a Change's or
    Replace's target each other player still in) in turn; the first under which
    no line from it on is illegal is kept, marked ``inferred`` (``referee``, a
    copy, is left amended; the correction is returned), else ``None``."""
    from referee.tgus_t.cards import GAMBLE_EFFECTS

    events = referee.events
    for i in range(last_line - 2, max(-1, last_line - 2 - back), -1):
        e = events[i]
        if not unsaid_gamble(e):
            continue
        others = [p for p in referee.header.players if p != e.get("player")]
        for effect in GAMBLE_EFFECTS:
            if effect in ("wild", "counter"):
                continue
            targets = others if effect in ("change", "replace") else [None]
            for target in targets:
                why = Text("camera.tgus-t.amended-gamble", player=str(e.get("player")),
                           effect=effect)
                amended = {**e, "effect": effect, "inferred": str(why),
                           "inferred_msg": why.data()}
                if target is not None:
                    amended["target"] = target
                if _keeps(referee, i, amended):
                    return "correct", i + 1, amended
        return None  # the latest Gamble only
    return None


def unseen_cards(seen: list[str], state: Mapping[str, Any]) -> list[str]:
    """Cards a play the camera missed may be taken as, given the referee's
    ``state`` before it and the ``seen`` cards played next: legal on the top
    card and making the seen play's first card match (the colour in play with
    the seen card's value, the seen card's colour with the top card's value,
    a copy of the top card), deck labels only, in that order."""
    from referee.tgus_t.common import DECK_LABELS

    colour, top_effect = state.get("color"), state.get("top_effect")
    first = seen[0] if seen else ""
    seen_colour = _colour(first)
    out = []
    if colour is not None and seen_colour is not None:
        out.append(f"{colour}-{_value(first)}")
    if seen_colour is not None and top_effect is not None:
        out.append(f"{seen_colour}-{top_effect}")
    if colour is not None and top_effect is not None:
        out.append(f"{colour}-{top_effect}")
    return [c for k, c in enumerate(out) if c in DECK_LABELS and c not in out[:k]]


def unseen_why(event: Mapping[str, Any], seat: Any, card: str) -> Text:
    """Why a camera play or draw is read after ``seat``'s play of ``card``
    that the camera missed (``unseen``): the play seen is legal only after
    it, or the draw takes that Hit's cards."""
    if event.get("type") == "draw":
        return Text("camera.tgus-t.amended-unseen-hit", player=str(seat),
                    card=_card_text(card),
                    drawer=str(event.get("player") or event.get("reach_from")))
    return Text("camera.tgus-t.amended-unseen", player=str(seat), card=_card_text(card),
                later=_card_text(str((event.get("cards") or [event.get("card")])[0])))


def unseen_hits(state: Mapping[str, Any]) -> list[str]:
    """Cards a Hit the camera missed may be taken as, given the referee's
    ``state`` before the seat before the one on turn took cards: a Reverse
    Hit+2 (it turns the play back onto that seat) in the colour in play, or in
    each colour on a Reverse Hit+2; deck labels only, in that order."""
    from referee.tgus_t.common import DECK_LABELS

    colour = state.get("color")
    out = [f"{colour}-reverse-hit2"] if colour is not None else []
    if state.get("top_effect") == "reverse-hit2":
        out += [f"{c}-reverse-hit2" for c in COLOURS]
    return [c for k, c in enumerate(out) if c in DECK_LABELS and c not in out[:k]]


def _seat_before(state: Mapping[str, Any], player: str) -> str | None:
    """The player still in whose next player (:func:`_next_active`) is
    ``player``; ``None`` with two players still in (the next one too)."""
    before = next((p for p in state.get("players") or []
                   if p != player and _next_active(state, str(p)) == player), None)
    return None if before == _next_active(state, player) else before


def _value(label: str) -> str:
    from referee.cards import Card

    try:
        return str(Card.from_label(label).value)
    except ValueError:
        return label


def _reach_on_turn(ev: Mapping[str, Any], state: Mapping[str, Any],
                   waits: str | None) -> str | None:
    """The seat on turn where a camera play's reach names another seat that
    did not bring the card (see the comment above), else ``None``: the seat
    on turn's arm lay on the pile (``pile_reaches``) since the last play, and
    the seat the play's reach names either did not (its arm lingered there
    from the play before) or is neither on turn nor the one after it (whose
    play a missed move or a turn draw of the seat on turn would explain);
    or no arm lay on the pile since the last play, so the reach named
    lingered, and that seat is neither on turn nor the one after it (a Hit
    waiting on the seat on turn too)."""
    reaches = [str(r) for r in ev.get("pile_reaches") or []]
    lingered = "pile_reaches" in ev and not reaches  # the camera saw no arm
    if ev.get("type") != "play" or "player" in ev or (
            waits not in (None, "color") and not (lingered and waits == "draw")):
        return None
    turn, seat = state.get("turn"), ev.get("reach_from")
    players = [str(p) for p in state.get("players") or []]
    if (
        turn is None or state.get("over") or seat is None or seat == turn
        or (str(turn) not in reaches and not lingered) or str(seat) not in players
        or seat in (state.get("ranking") or ())
        or ((str(seat) in reaches or state.get("drew") or lingered)
            and _next_active(state, str(turn)) == seat)
        or "counter" in (ev.get("cards") or ())
    ):
        return None
    return str(turn)


def _first_matching(cards: list[str], state: Mapping[str, Any], who: Any, turn: Any,
                    waits: str | None) -> tuple[list[str], str | None]:
    """A multi-play's cards with one that matches first, and the card hidden
    under them (see the comment above; ``None``: none was needed or nothing can
    be said). The order is left as seen where the play may stand or the
    referee waits for anything but a play on turn."""
    from referee.cards import Card
    from referee.tgus_t.common import DECK_LABELS

    if not cards or waits is not None or who != turn or turn is None:
        return cards, None
    if state.get("pending_draw") or state.get("pending_target"):
        return cards, None
    current, top_effect = state.get("color"), state.get("top_effect")
    try:
        seen = [Card.from_label(c) for c in cards]
    except ValueError:
        return cards, None
    if current is None or top_effect is None:
        return cards, None
    if any(c.value != seen[0].value for c in seen):  # not one multi-play
        return cards, None

    def fits(c: Card) -> bool:
        return c.color is None or c.color == current or c.value == top_effect

    if fits(seen[0]):
        return cards, None
    for k, c in enumerate(seen):
        if fits(c):  # the camera's order is not the order they were put down
            return [cards[k]] + cards[:k] + cards[k + 1:], None
    if seen[0].color in (state.get("multi_colours") or ()):
        return cards, None  # the play before may have ended on this colour
    hidden = f"{current}-{seen[0].value}"
    return cards, hidden if hidden in DECK_LABELS else None


def _misread_in_fan(cards: list[str], state: Mapping[str, Any]) -> str | None:
    """The card of a camera play, none of whose cards matches (see
    :func:`_first_matching`), read in another colour than it has: where two
    cards or more of two colours or more were seen, the first of them (the
    camera does not say which was misread); ``None`` for a single card or
    cards of one colour (a card hidden under them, as the comment above
    says)."""
    from referee.cards import Card

    try:
        colours = {Card.from_label(c).color for c in cards}
    except ValueError:
        return None
    if len(cards) < 2 or len(colours) < 2 or None in colours:
        return None
    return cards[0]


def _next_active(state: Mapping[str, Any], player: str) -> str | None:
    """The next player still in after ``player`` in the direction of play."""
    players = list(state.get("players") or [])
    out = set(state.get("ranking") or [])
    if player not in players:
        return None
    step = 1 if int(state.get("direction") or 1) >= 0 else -1
    i = players.index(player)
    for k in range(1, len(players)):
        seat = players[(i + step * k) % len(players)]
        if seat not in out:
            return seat
    return None


#: a play's ``carried_in`` as :func:`split_play` passes it on to
#: :class:`TgusTHandsFree` (:class:`vision.handsfree.HandsFree` drops
#: ``carried_in`` before completing a piece)
CAME_IN = "came_in"


def _without_came_in(event: Mapping[str, Any]) -> dict[str, Any]:
    """``event`` without what was said to :func:`moved_copy` (not for the log)."""
    return {k: v for k, v in event.items() if k not in ("carried_in", CAME_IN)}


def moved_copy(event: Mapping[str, Any], state: Mapping[str, Any],
               last: tuple[str, str] | None) -> bool:
    """Whether a camera ``event`` is the pile's top card moved by a drawing
    arm, no play (see the comment above): a play of just the top card
    (``state``'s) by the seat whose take was the camera's last play or draw
    (``last``: its type and seat), not seen coming in from a hand
    (``carried_in``, :meth:`vision.pile_memory.PileMemory.carried_in`), while
    the referee waits for nothing (a card landing while it waits for cards
    turned for a Hit+?, or a colour, is what it waits for)."""
    if event.get("source") != "vision" or event.get("type") != "play":
        return False
    seat = event.get("player") or event.get("reach_from")
    top = state.get("top")
    cards = [str(c) for c in event.get("cards") or []]
    came_in = event.get("carried_in") or event.get(CAME_IN)
    return (
        seat is not None and top is not None and not came_in
        and last == ("draw", str(seat)) and cards == [str(top)]
        and not state.get("over") and _awaiting(state)[0] is None
        and not state.get("pending_draw")
    )


def hidden_seen(event: Mapping[str, Any],
                hidden: tuple[str, list[str]] | None) -> bool:
    """Whether a camera ``event`` is the card the completion took as hidden
    under the play just before it (``hidden``: that play's seat and hidden
    cards), seen once it peeked out: a play of those cards, and no more,
    whose reach names that seat, its arm not back on the pile since
    (``pile_reaches``: it lingered over its own play). No new play."""
    if hidden is None or event.get("type") != "play" or "player" in event:
        return False
    seat, cards = hidden
    seen = [str(c) for c in event.get("cards") or []]
    reaches = [str(r) for r in event.get("pile_reaches") or []]
    return (bool(seen) and event.get("reach_from") == seat and seat not in reaches
            and all(seen.count(c) <= cards.count(c) for c in seen))


def unseen_counter(event: Mapping[str, Any], state: Mapping[str, Any],
                   last: tuple[str, str] | None) -> list[dict[str, Any]] | None:
    """A camera draw by the seat whose Hit was the camera's last move, while
    its chain waits on another seat (``state``: the referee's before it;
    ``last``: the camera's last play or draw and its seat) and that seat owes
    nothing else: the target bounced the chain back with a Counter the camera
    did not see (a card laid on the pile under the arm that took it back).
    Returns the Counter's ``play`` for the target, marked ``inferred``, and the
    draw for the seat, counted as the chain (``takes``: the camera's count),
    else ``None``. A picture leftover's forced draw, the other reading, is
    seen as two takes (its 2 cards): a draw the camera counted two or more
    is left to it."""
    if event.get("source") != "vision" or event.get("type") != "draw":
        return None
    waits, target = _awaiting(state)
    seat = event.get("player") or event.get("reach_from")
    amount = int(state.get("pending_draw") or 0)
    if (
        waits != "draw" or target is None or seat is None or str(seat) == target
        or last != ("play", str(seat)) or amount <= 0 or state.get("over")
        or int(event.get("count", 1)) >= LEFTOVER_DRAW
        or (state.get("owed") or {}).get(seat)
        or str(seat) not in [str(p) for p in state.get("players") or []]
    ):
        return None
    why = Text("camera.tgus-t.inferred-counter", player=target, drawer=str(seat))
    counter = _inferred("play", why, event, player=target, cards=["counter"],
                        player_from="reach")
    draw = {**dict(event), "player": str(seat), "player_from": "reach"}
    takes = int(event.get("count", 1))
    if takes < amount:
        draw.update(count=amount, takes=takes)
    return [counter, draw]


class TgusTHandsFree:
    """:func:`complete_tgus_t` with the memory it needs to infer passes: the
    player on turn took a turn draw (the referee still has them on turn after
    it), and the next seat now plays or draws. One per table; call it with
    each camera event and the referee's state just before it."""

    def __init__(self, config: PlayConfig | None = None) -> None:
        #: the play settings (``play.gone_out_plays``, ``play.gone_out_stuck``;
        #: ``None``: the defaults); the completion sets the table's
        self.config = config
        self.drawer: str | None = None  # who drew on their turn, last event
        #: (seat, cards) still to come of a draw counted whole before its takes
        #: were seen (:meth:`_rest_of_draw`)
        self.rest: tuple[str, int] | None = None
        #: the colours of the last play when it held several: the camera does
        #: not see which was put down last, so any may be the colour in play
        self.multi_colours: list[str] = []
        #: (type, seat) of the last camera play or draw taken
        self.last: tuple[str, str] | None = None
        #: (seat, cards) the completion took as hidden under the last play
        #: (:func:`hidden_seen`)
        self.hidden: tuple[str, list[str]] | None = None
        #: the camera saw a card played after the log's end (the log ended
        #: the game too early): a camera ``start`` then is no new round
        #: (:func:`start_in_game`)
        self.after_end = False
        #: the seats of the camera moves (plays and draws whose arm the
        #: camera saw reach in), oldest first: who has not moved for a while
        #: (:func:`gone_out`)
        self.moved: list[str] = []
        #: (seat, plays): the referee has held ``seat`` on turn through the
        #: last ``plays`` camera plays of other seats, none of its own seen
        self.stuck: tuple[str, int] | None = None

    def __call__(self, event: Mapping[str, Any], state: Mapping[str, Any]
                 ) -> list[dict[str, Any]]:
        if not state.get("over"):
            self.after_end = False
        elif event.get("source") == "vision" and event.get("type") == "play":
            self.after_end = True  # cards played on after the log's end
        play = start_in_game(event, state, self.after_end)
        if play is not None:
            event = play
        if event.get("source") != "vision" or event.get("type") not in ("play", "draw"):
            return [dict(event)]
        seat = event.get("player") or event.get("reach_from")
        last, self.last = self.last, (str(event.get("type")), str(seat))
        if moved_copy(event, state, last):
            self.last = last  # no move of theirs: the take stays the last one
            return []
        event = _without_came_in(event)
        hidden, self.hidden = self.hidden, None
        if hidden_seen(event, hidden):
            return []
        event = self._rest_of_draw(event)
        if event is None:
            return []
        bounced = unseen_counter(event, state, last)
        if bounced is not None:  # the Hit's player takes its chain back
            self.drawer, self.multi_colours = None, []
            takes = int(bounced[-1].get("takes", 0) or 0)
            left = int(bounced[-1]["count"]) - takes
            self.rest = (str(seat), left) if takes and left > 0 else None
            return bounced
        self.stuck = _stuck(event, state, self.stuck)
        gone = gone_out(event, state, self.moved,
                        stuck=self.stuck[1] if self.stuck else 0, config=self.config)
        if seat is not None and event.get("reach_from") == seat:
            self.moved = (self.moved + [str(seat)])[-MOVES_KEPT:]
        if gone is not None:  # the seat on turn seen no more: out
            state = _out_now(state, str(gone["player"]))
            self.drawer = None
        turn = state.get("turn")
        view = dict(state)
        view["drew"] = bool(self.drawer is not None and self.drawer == turn)
        view["multi_colours"] = self.multi_colours
        out = complete_tgus_t(event, view)
        if gone is not None:
            out = [gone] + out
        last = out[-1] if out else {}
        if last.get("type") == "play" and last.get("hidden") and last.get("player"):
            self.hidden = (str(last["player"]), [str(c) for c in last["hidden"]])
        if last.get("type") == "play":
            colours = {c.split("-")[0] for c in last.get("cards") or []
                       if _colour(c) is not None}
            self.multi_colours = sorted(colours) if len(colours) > 1 else []
        elif last.get("type") == "turned":
            self.multi_colours = []
        self.drawer = None
        if any(e.get("type") == "pass" for e in out):  # the drawer's turn now
            turn = last.get("player", turn)
        waits, _ = _awaiting(state)
        if (
            last.get("type") == "draw" and last.get("player", turn) == turn
            and waits != "draw" and not (state.get("owed") or {}).get(turn)
        ):
            self.drawer = turn
        if last.get("type") == "draw" and int(last.get("takes", 0) or 0) > 0:
            seat = last.get("player", last.get("reach_from"))
            left = int(last.get("count", 0)) - int(last["takes"])
            self.rest = (str(seat), left) if seat is not None and left > 0 else None
        return out

    def _rest_of_draw(self, event: Mapping[str, Any]) -> dict[str, Any] | None:
        """A draw counted whole when its first take was seen (the cards owed, or
        a picture leftover's 2: ``count`` over ``takes``): the same seat's next
        takes, before any other event, are the rest of it, not new draws. Such
        a draw is dropped (``None``) or keeps only the cards beyond the rest."""
        rest, self.rest = self.rest, None
        ev = dict(event)
        if rest is None or ev.get("type") != "draw":
            return ev
        seat = ev.get("player", ev.get("reach_from"))
        if seat != rest[0]:
            return ev
        count = int(ev.get("count", 1))
        if count <= rest[1]:
            if count < rest[1]:
                self.rest = (rest[0], rest[1] - count)
            return None
        ev["count"] = count - rest[1]
        return ev

