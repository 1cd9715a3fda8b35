"""Rule ``wd4-challenge``: the Wild Draw Four challenge (001 チャレンジ).

The player hit by a Wild Draw Four may challenge it; the accused shows their
hand (a ``reveal``) and the referee judges it against the top card and the
colour in force *before* the Wild Draw Four (``wd4_rule``). The penalties are
options: ``wd4_guilty_penalty`` (4) for a guilty player, who takes the card
back and must play another (``wd4_guilty_takeback``), and
``wd4_challenge_penalty`` (2, on top of the Wild Draw Four's own cards: 6)
for a failed challenger. The verdict is kept in ``UnoState.verdict``.
"""

from __future__ import annotations

from ..cards import Card
from ..log import Event
from ..rulings import Ruling
from .calls import close_windows
from ..text import Text, cap, color, define
from .options import UnoOptions
from .plays import card_name, cards_n, wd4_offending_card
from .state import Say, UnoState

define({
    "uno.wd4-nothing-to-challenge": {
        "en": "{by} challenged, but there is no Wild Draw Four that can be challenged "
              "now, so nothing happens.",
        "ja": "{by}がチャレンジしましたが、今チャレンジできるワイルドドロー4はないので、"
              "何も起きません。"},
    "uno.wd4-only-victim": {
        "en": "Only {victim}, who was hit by the Wild Draw Four, may challenge it, so "
              "{by}'s challenge is ignored.",
        "ja": "チャレンジできるのはワイルドドロー4を受けた{victim}だけなので、{by}の"
              "チャレンジは無視します。"},
    "uno.wd4-on-wd4": {"en": "it was played on a Wild Draw Four",
                       "ja": "ワイルドドロー4の上に出されたため"},
    "uno.wd4-no-challenges": {"en": "this table plays without challenges",
                              "ja": "このテーブルはチャレンジなしで遊ぶため"},
    "uno.wd4-unchallengeable": {
        "en": "This Wild Draw Four cannot be challenged because {why}, so {victim} "
              "draws {n}.",
        "ja": ("このワイルドドロー4にはチャレンジできず（{why}）、"
               "{victim}は{n}枚引きます。")},
    "uno.wd4-challenged": {
        "en": "{victim} challenges {accused}'s Wild Draw Four: {accused} shows their "
              "hand to {victim} (reveal) and the referee judges it.",
        "ja": ("{victim}が{accused}のワイルドドロー4にチャレンジし、"
               "{accused}は{victim}に手札を見せ、審判が判定します。")},
    "uno.wd4-drawn-since": {
        "en": " (the shown hand includes the {cards} drawn since the Wild Draw Four)",
        "ja": "（見せた手札にはワイルドドロー4の後に引いた{cards}も入っています）"},
    "uno.wd4-counted": {"en": " (the referee had counted {cards})",
                        "ja": "（審判の数えでは{cards}でした）"},
    "uno.wd4-failed": {
        "en": "Challenge failed: {accused} had no other card that could be "
              "played{note}, so {victim} draws {n} (the Wild Draw Four's cards plus "
              "{extra}) and loses the turn.",
        "ja": ("チャレンジ失敗で、{accused}にはほかに出せるカードがなく{note}、"
               "{victim}は{n}枚（ワイルドドロー4の分に{extra}枚を足して）引き、"
               "手番を失います。")},
    "uno.wd4-could-play": {"en": "could have played the {card}",
                           "ja": "{card}を出せた"},
    "uno.wd4-held-colour": {"en": "held the {card} of the colour in force",
                            "ja": "場の色の{card}を持っていた"},
    "uno.wd4-upheld-takeback": {
        "en": "Challenge upheld: {accused} {why}{note}, so {accused} takes the Wild "
              "Draw Four back, draws {n} and must play another card.",
        "ja": ("チャレンジ成功で、{accused}は{why}ので{note}、"
               "ワイルドドロー4を戻して{n}枚引き、"
               "別のカードを出さなければなりません。")},
    "uno.wd4-upheld": {
        "en": "Challenge upheld: {accused} {why}{note}, so {accused} draws {n} instead "
              "and {victim} plays on {color}.",
        "ja": ("チャレンジ成功で、{accused}は{why}ので{note}、代わりに{n}枚引き、"
               "{victim}が{color}で続けます。")},
})


def on_challenge(s: UnoState, o: UnoOptions, ev: Event, say: Say) -> list[Ruling]:
    """``challenge``: the player hit by a Wild Draw Four asks to see the hand."""
    rec = s.wd4
    p, _ = s.who(ev, s.turn if s.phase in ("turn", "drawn") else None)
    by = s.players[p] if p is not None else cap(Text("uno.someone"))
    if (s.phase != "turn" or rec is None or s.pending_kind != "wild-draw4"
            or not s.pending or s.turn != rec.victim):
        return [say(ev.index, "info", "wd4-challenge",
                    Text("uno.wd4-nothing-to-challenge", by=by))]
    victim, accused = s.players[rec.victim], s.players[rec.player]
    if p != rec.victim:
        return [say(ev.index, "info", "wd4-challenge",
                    Text("uno.wd4-only-victim", victim=victim, by=by))]
    if not rec.challengeable:
        why = Text("uno.wd4-on-wd4" if o.challenge else "uno.wd4-no-challenges")
        return [say(ev.index, "illegal", "wd4-challenge",
                    Text("uno.wd4-unchallengeable", why=why, victim=victim,
                         n=s.pending), player=victim, draw=s.pending)]
    assert p is not None
    out = close_windows(s, o, ev.index, p, False, say)
    s.phase, s.challenger = "challenge", p
    return out + [say(ev.index, "pending", "wd4-challenge",
                      Text("uno.wd4-challenged", victim=victim, accused=accused),
                      player=accused)]


def judge(s: UnoState, o: UnoOptions, ev: Event, p: int,
          cards: list[Card], say: Say) -> list[Ruling]:
    """Settle a Wild Draw Four challenge from the accused's shown hand."""
    rec = s.wd4
    assert rec is not None and s.challenger is not None
    victim, accused = s.challenger, s.players[p]
    note: Text | str = ""
    if s.hand_counts[p] > rec.count_after >= 0:
        note = Text("uno.wd4-drawn-since",
                    cards=cards_n(s.hand_counts[p] - rec.count_after))
    elif len(cards) != s.hand_counts[p]:
        note = Text("uno.wd4-counted", cards=cards_n(s.hand_counts[p]))
        s.hand_counts[p] = len(cards)
    s.secret_reveal[p] = cards
    s.reveal_viewer[p] = victim
    bad = wd4_offending_card(cards, rec.prev_top, rec.prev_color, rec.prev_pending,
                             rec.prev_pending_kind, o)
    s.phase, s.wd4, s.challenger = "turn", None, None
    s.verdict = (p, bad is not None)
    if bad is None:
        extra = o.wd4_challenge_penalty
        s.pending += extra
        return [say(ev.index, "penalty", "wd4-challenge",
                    Text("uno.wd4-failed", accused=accused, note=note,
                         victim=s.players[victim], n=s.pending, extra=extra),
                    player=s.players[victim], draw=s.pending)]
    fine = o.wd4_guilty_penalty
    s.owed[p] += fine
    why = Text("uno.wd4-could-play" if o.wd4_rule == "no-playable"
               else "uno.wd4-held-colour", card=card_name(bad))
    if o.wd4_guilty_takeback:
        s.top, s.color = rec.prev_top, rec.prev_color
        s.direction = rec.prev_direction
        s.pending, s.pending_kind = rec.prev_pending, rec.prev_pending_kind
        s.hand_counts[p] += rec.cards
        s.discard -= rec.cards
        if s.discard < 1 and s.top is not None and s.draw_pile:
            s.draw_pile, s.discard = s.draw_pile - 1, 1  # reshuffled meanwhile
        s.turn = p
        s.wild_player = rec.prev_wild_player
        s.wd4_returned = p
        s.called[p] = False
        s.catchable.pop(p, None)
        text = Text("uno.wd4-upheld-takeback", accused=accused, why=why, note=note,
                    n=fine)
    else:
        s.pending, s.pending_kind = 0, None
        text = Text("uno.wd4-upheld", accused=accused, why=why, note=note, n=fine,
                    victim=s.players[victim], color=color(str(s.color)))
    return [say(ev.index, "penalty", "wd4-challenge", text, player=accused, draw=fine)]
