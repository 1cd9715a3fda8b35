"""The TGUS-TGC-UNO house rules (seed 000): their options and the presets tgus-1/2/3.

:class:`TgusOptions` extends :class:`~referee.uno.options.UnoOptions` with the
house rules of seed 000; the presets are instances of it, each the official
value with the fields its seed section changes (tgus-2 builds on tgus-1 and
tgus-3 on tgus-2, as the seed's sections do). :data:`PRESET_SOURCES` says,
per preset and option, which seed section sets it (``tableref rules tgus-3``
prints it beside the field's own source).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .options import UnoOptions, option_field

S1 = "000 TGUS-TGC-UNO.1"
S2 = "000 TGUS-TGC-UNO.2"
S3 = "000 TGUS-TGC-UNO.3"

TGUS1_ANSWERS = ("draw2>draw2", "draw2>wild-draw4", "wild-draw4>wild-draw4")
DEFLECT_ANSWERS = ("draw2>reverse", "draw2>skip", "wild-draw4>draw2",
                   "wild-draw4>reverse", "wild-draw4>skip")

@dataclass(frozen=True)
class TgusOptions(UnoOptions):
    """The official options plus the TGUS-TGC-UNO house rules (seed 000)."""

    hand_size_max: int = option_field(
        0, "largest hand a header may set; a bigger hand_size gets an info ruling "
        "(0: no limit)", "000 TGUS-TGC-UNO.1 (最大でも10枚)", minimum=0)
    direction_rps: bool = option_field(
        False, "the first player's two neighbours play rock-paper-scissors for the "
        "direction, recorded by a 'direction' event before the first play",
        "000 TGUS-TGC-UNO.1")
    uno_catch: bool = option_field(
        True, "a missing UNO call may be caught ('catch' event); false: catches are "
        "ignored", "001 公式 7; 000 TGUS-TGC-UNO.1 (非推奨)")
    picture_leftover: bool = option_field(
        False, "a hand of picture cards only draws 2 at a time until a number card "
        "comes (self-reported 'picture-leftover' event)",
        "000 TGUS-TGC-UNO.1 (英語残り・絵柄残り)")
    picture_leftover_draw: int = option_field(
        2, "cards drawn at a time by a player whose hand holds picture cards only",
        "000 TGUS-TGC-UNO.1 (2枚ずつ引く)", minimum=0, rule="picture-leftover")
    number_finish: int = option_field(
        0, "cards drawn by a player who goes out on anything but number cards: the "
        "cards stay played and play continues (0: off)", "000 TGUS-TGC-UNO.2/.3",
        minimum=0, rule="number-finish")
    multi_out_penalty: int = option_field(
        0, "with multi_out 'allowed': cards drawn by a player who goes out with "
        "several cards without calling UNO first; they are not out (0: no call needed)",
        "000 TGUS-TGC-UNO.3", minimum=0, rule="multi-out")
    challenge_on_stack: bool = option_field(
        False, "a Wild Draw Four played on a Wild Draw Four may be challenged too "
        "(only the one just played)",
        "000 TGUS-TGC-UNO.2 (直前のワイルド・ドロー4のみ)")
    after_failed_challenge: str = option_field(
        "pass-on", "after a lost challenge: 'pass-on' (with stacking, the cards + 2 "
        "may be passed on), 'draw' (the challenger takes the cards + 2) or "
        "'stack' (they may still pass the cards on, and then the +2 is void)",
        "001 チャレンジ失敗; 000 TGUS-TGC-UNO.2/.3", ("pass-on", "draw", "stack"))
    white_wild: str = option_field(
        "wild", "the white customizable wild: 'wild' (a plain Wild), 'downpour' (UNO "
        "H2O's Wild Downpour: every other player draws downpour_draw) or 'all-mighty' "
        "(acts as the picture card named by the play's 'as')",
        "000 TGUS-TGC-UNO.2/.3", ("wild", "downpour", "all-mighty"))
    downpour_draw: int = option_field(
        2, "cards each other player draws for a Wild Downpour",
        "000 TGUS-TGC-UNO.2 / UNO H2O", minimum=1, rule="white-wild")
    face_down: int = option_field(
        0, "face-down plays (skip your own turn; others may doubt) each player may "
        "make per game; never to go out (0: not used)", "000 TGUS-TGC-UNO.3", minimum=0)
    doubt_penalty: int = option_field(
        4, "cards drawn by the loser of a doubt", "000 TGUS-TGC-UNO.3", minimum=0,
        rule="doubt")
    success_weight: str = option_field(
        "none", "extra starting cards for the next game: 'none', 'rank' (previous "
        "game's 1st/2nd/3rd +3/+2/+1), 'wins' (+1 a game won) or 'points' (the "
        "tgus-3 table)",
        "000 TGUS-TGC-UNO.2/.3", ("none", "rank", "wins", "points"))
    play_to_last: bool = option_field(
        False, "play goes on after the first player goes out until one player is left; "
        "the round ends with a ranking", "000 TGUS-TGC-UNO.1")
    stop_by_points: bool = option_field(
        False, "a 'stop' event ends a game that drags on by official point scoring",
        "000 TGUS-TGC-UNO.3")
    play_after_forced_draw: bool = option_field(
        False, "a player who has just drawn the cards of a Draw Two / Wild Draw Four "
        "keeps the turn and may still play or pass (officially the turn is lost)",
        "000 TGUS-TGC-UNO.2/.3 (そのターンにカードを出すことを認める)")


_T1: dict[str, tuple[Any, str]] = {
    "deck": (108, f"{S1}: written for the 108-card deck (Shuffle Hands came in 2016)"),
    "hand_size": (7, f"{S1}: 最大でも10枚だが…5~7枚程度を想定"),
    "hand_size_max": (10, f"{S1}: 最大でも10枚"),
    "direction_rps": (
        True,
        f"{S1}: 一番手の隣同士のプレイヤーがじゃんけんしてから決定する"),
    "multi_play": (
        "same",
        f"{S1}: 数字か同じ絵柄であれば色が異なっていても許可する…「階段」"
        "ルールは採用していない; ワイルドカードの2枚以上も許可"),
    "multi_out": (
        "allowed",
        f"{S1}: 2枚以上で上がる場合…「ウノ」を宣言しなくても上がることが可能"),
    "uno_catch": (False, f"{S1}: チャレンジ・ウノ…非推奨ルールとはしている"),
    "picture_leftover": (
        True,
        f"{S1}: 絵柄カード…しか残っていない場合は、強制的に山札から数字のカードが出るま"
        "で2枚ずつ引く"),
    "stacking": (True, f"{S1}: アプリなどでは「スタッキング」…"),
    "stack_answers": (
        TGUS1_ANSWERS,
        f"{S1}: ドロー2が出されたらドロー2かワイルドドロー4のみ… "
        "ワイルドドロー4についてはワイルドドロー4のみ (推奨); リバース・"
        "スキップは使用できず"),
    "face_down": (
        0,
        f"{S1}: カードを裏返しにして出すことができるルールなどについてはすべて採用して"
        "いない"),
    "play_to_last": (True, f"{S1}: 最後の1人になるまでゲームを続行する"),
}

_T2: dict[str, tuple[Any, str]] = {
    "deck": (
        112,
        f"{S2}: 2016年に追加された「とりかえっこワイルド」は採用 (112-card deck)"),
    "hand_size_max": (0, f"{S2}: 7枚 plus the success weight (no 10-card ceiling)"),
    "success_weight": (
        "rank",
        f"{S2}: 前回勝利者については順位に応じて最大3枚までの追加手札"
        "「サクセスウェイト」"),
    "picture_leftover": (False, f"{S2}: 強制的に山札からカードを引かなくても良い"),
    "number_finish": (
        2,
        f"{S2}: 上がる時は必ず数字カード…数字以外で上がってしまった場合はペナルティとし"
        "て2枚ドローして続行"),
    "uno_catch": (True, f"{S2}: チャレンジ・ウノは採用されている"),
    "stack_answers": (
        TGUS1_ANSWERS + DEFLECT_ANSWERS,
        f"{S2}: ドロー系のカードに対してリバースもしくはスキップの使用も許可… "
        "ドロー4に対しても色宣言後にドロー2やリバース・スキップで受け流す"),
    "after_failed_challenge": (
        "draw",
        f"{S2}: チャレンジに失敗した場合はそのドローカードを受け流すことは出来ない"),
    "challenge_on_stack": (
        True,
        f"{S2}: チャレンジの対象は直前のワイルド・ドロー4のみ"),
    "play_after_forced_draw": (
        True,
        f"{S2}: ドロー系のカードを食らったプレイヤーは、"
        "そのターンにカードを出すことを認める"),
    "white_wild": (
        "downpour",
        f"{S2}: 「白いワイルドカード」は『UNO H2O』…"
        "「ワイルドドボンカード」として運用"),
}

_T3: dict[str, tuple[Any, str]] = {
    "success_weight": (
        "wins",
        f"{S3}: 勝利した数に応じて手札を1枚ずつ追加する「サクセスウェイト」 (points "
        "series: the table of 獲得ポイント/残りポイント)"),
    "face_down": (
        3,
        f"{S3}: カードを裏返しにするルール…各プレイヤー3回まで…上がり時には使用不可"),
    "multi_out_penalty": (
        3,
        f"{S3}: 2枚での上がりを許可するが…「ウノ」の宣言をしておくこと。"
        "宣言せずに上がったらペナルティとして3枚ドロー"),
    "after_failed_challenge": (
        "stack",
        f"{S3}: チャレンジ失敗後もドローカードでスタッキングすることが可能…"
        "チャレンジ失敗時の+2枚は不発"),
    "stack_answers": (
        TGUS1_ANSWERS + DEFLECT_ANSWERS
        + ("draw2>wild-custom", "wild-draw4>wild-custom"),
        f"{S3}: as {S2}, and the all-mighty white wild may answer as a "
        "draw card, Reverse or Skip"),
    "white_wild": (
        "all-mighty",
        f"{S3}: 「白いワイルドカード」は『東幻符闘祭』のギャンブルルール(オールマイティ"
        "扱いのカード)として運用"),
    "stop_by_points": (
        True,
        f"{S3}: あまりにも長引いてしまう場合、UNOの公式ルールを元に点数計算でゲームを強"
        "制的に終了させる"),
}

#: One line per preset for ``tableref rules``.
SUMMARIES: dict[str, str] = {
    "tgus-1": f"{S1}: rock-paper-scissors direction, same number/symbol "
              "multi-play, picture leftover draws, Draw Two/Wild Draw Four stacking, "
              "play to the last",
    "tgus-2": f"{S2}: tgus-1 plus success weight by rank, number-card finish, "
              "Reverse/Skip deflection, draw then play, Shuffle Hands, Wild Downpour",
    "tgus-3": f"{S3}: tgus-2 plus a weight per win, face-down plays with doubt, UNO "
              "call for a 2-card finish, all-mighty white wild, stop by points",
}

#: preset -> option -> the seed section that sets it (inherited entries included).
PRESET_SOURCES: dict[str, dict[str, str]] = {}


def tgus_presets() -> dict[str, TgusOptions]:
    """Build the three presets from the official values (``TgusOptions()``).

    Returns:
        ``{"tgus-1": ..., "tgus-2": ..., "tgus-3": ...}``, each a ``TgusOptions``.
    """
    out: dict[str, TgusOptions] = {}
    base, sources = TgusOptions(), {}
    for name, table in (("tgus-1", _T1), ("tgus-2", _T2), ("tgus-3", _T3)):
        base = replace(base, **{k: v for k, (v, _) in table.items()})
        sources = {**sources, **{k: src for k, (_, src) in table.items()}}
        out[name] = base
        PRESET_SOURCES[name] = dict(sources)
    return out


#: The presets ``TgusGame`` runs.
TGUS_PRESETS: dict[str, TgusOptions] = tgus_presets()


def preset_summary(preset: str) -> str:
    """The one-line description of a tgus preset, or ``""`` for any other."""
    return SUMMARIES.get(preset, "")


def preset_source(preset: str, option: str) -> str:
    """The seed section that sets ``option`` in ``preset``, or ``""``."""
    return PRESET_SOURCES.get(preset, {}).get(option, "")
