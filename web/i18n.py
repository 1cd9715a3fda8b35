"""A small message catalogue: English and Japanese, chosen by ``?lang=`` or a cookie.

Templates call ``_("key")``. The rulings themselves are the referee's
sentences and are shown as written.
"""

from __future__ import annotations

from flask import Flask, Response, g, request

LANGS = ("en", "ja")
COOKIE = "tableref_lang"

MESSAGES: dict[str, dict[str, str]] = {
    "title": {"en": "Table referee", "ja": "テーブル審判"},
    "live": {"en": "Referee view", "ja": "審判ビュー"},
    "table": {"en": "Table view", "ja": "テーブルビュー"},
    "scores": {"en": "Scoreboard", "ja": "スコアボード"},
    "setup": {"en": "Setup", "ja": "設定"},
    "games": {"en": "Games", "ja": "ゲーム一覧"},
    "camera": {"en": "Camera", "ja": "カメラ"},
    "camera_unavailable": {"en": "Camera unavailable", "ja": "カメラは使えません"},
    "top": {"en": "Top card", "ja": "場札"},
    "color": {"en": "Colour", "ja": "色"},
    "turn": {"en": "Turn", "ja": "手番"},
    "direction": {"en": "Direction", "ja": "方向"},
    "clockwise": {"en": "clockwise", "ja": "時計回り"},
    "counterclockwise": {"en": "counter-clockwise", "ja": "反時計回り"},
    "pending_draw": {"en": "Draw owed", "ja": "累積ドロー"},
    "hand_counts": {"en": "Cards in hand", "ja": "手札の枚数"},
    "hidden": {"en": "hidden until judgement", "ja": "判定まで非公開"},
    "rulings": {"en": "Rulings", "ja": "裁定"},
    "events": {"en": "Recorded events", "ja": "記録されたイベント"},
    "evidence": {"en": "frame", "ja": "証拠画像"},
    "round": {"en": "Round", "ja": "ラウンド"},
    "total": {"en": "Total", "ja": "合計"},
    "winner": {"en": "Winner", "ja": "勝者"},
    "no_rounds": {
        "en": "No round finished yet.",
        "ja": "終了したラウンドはまだありません。",
    },
    "scoring_japan": {
        "en": "Japan scoring (rounds: {n}); losers go minus",
        "ja": "日本式: 全{n}ラウンド、敗者はマイナス",
    },
    "scoring_international": {
        "en": "International scoring: first to {n} points",
        "ja": "国際式: {n}点先取",
    },
    "controls": {"en": "Controls", "ja": "操作"},
    "uno": {"en": "UNO!", "ja": "ウノ！"},
    "catch": {"en": "Catch", "ja": "指摘"},
    "challenge": {"en": "Challenge", "ja": "チャレンジ"},
    "reveal": {"en": "Reveal / score", "ja": "手札公開・得点"},
    "play": {"en": "Play", "ja": "出す"},
    "draw": {"en": "Draw", "ja": "引く"},
    "pass": {"en": "Pass", "ja": "パス"},
    "player": {"en": "Player", "ja": "プレイヤー"},
    "target": {"en": "Target", "ja": "対象"},
    "cards": {"en": "Cards (e.g. R7 W4)", "ja": "カード（例: R7 W4）"},
    "count": {"en": "Count", "ja": "枚数"},
    "manual": {"en": "Manual entry (misread card)", "ja": "手入力（誤認識の修正）"},
    "send": {"en": "Send", "ja": "送信"},
    "undo": {"en": "Undo last", "ja": "最後を取り消す"},
    "pause": {"en": "Pause", "ja": "一時停止"},
    "resume": {"en": "Resume", "ja": "再開"},
    "paused": {
        "en": "Paused: camera and voice events are ignored.",
        "ja": "一時停止中: カメラと音声のイベントは無視されます。",
    },
    "new_round": {"en": "New round (first card)", "ja": "新ラウンド（最初の札）"},
    "new_game": {"en": "New game", "ja": "新しいゲーム"},
    "correct": {"en": "Correct", "ja": "修正"},
    "delete": {"en": "Delete", "ja": "削除"},
    "insert": {"en": "Insert before", "ja": "前に挿入"},
    "changed": {"en": "What the correction changed", "ja": "修正による変化"},
    "removed": {"en": "Withdrawn", "ja": "取り消された裁定"},
    "added": {"en": "New", "ja": "新しい裁定"},
    "nothing_changed": {"en": "No ruling changed.", "ja": "裁定に変化はありません。"},
    "no_game": {
        "en": "No game is running. Start one on the setup page.",
        "ja": "ゲームは始まっていません。設定ページで始めてください。",
    },
    "players_seating": {
        "en": "Players in seating order (one per line, clockwise)",
        "ja": "プレイヤー（座席順・時計回り、1行に1人）",
    },
    "game": {"en": "Game", "ja": "ゲーム"},
    "preset": {"en": "Rules preset", "ja": "ルールプリセット"},
    "options": {"en": "Options (JSON)", "ja": "オプション（JSON）"},
    "dealer": {"en": "Dealer", "ja": "ディーラー"},
    "source": {"en": "Camera source", "ja": "カメラ入力"},
    "calibration": {"en": "Calibration", "ja": "キャリブレーション"},
    "start": {"en": "Start game", "ja": "ゲーム開始"},
    "over": {"en": "Game over", "ja": "ゲーム終了"},
    "language": {"en": "日本語", "ja": "English"},
    "uno_called": {"en": "UNO called", "ja": "ウノ宣言済み"},
    "catchable": {"en": "can be caught", "ja": "指摘可能"},
    "chart": {"en": "Totals after each round", "ja": "ラウンドごとの合計"},
    "edit_json": {"en": "Event (JSON)", "ja": "イベント（JSON）"},
    "error": {"en": "Error", "ja": "エラー"},
    "scan": {
        "en": "Scan hands for scoring (camera)",
        "ja": "手札をカメラで読み取って得点計算",
    },
    "raw_event": {"en": "Any event (JSON)", "ja": "任意のイベント（JSON）"},
    "kind_ok": {"en": "ok", "ja": "OK"},
    "kind_illegal": {"en": "illegal", "ja": "反則"},
    "kind_penalty": {"en": "penalty", "ja": "ペナルティ"},
    "kind_pending": {"en": "pending", "ja": "保留"},
    "kind_round-end": {"en": "round end", "ja": "ラウンド終了"},
    "kind_game-end": {"en": "game end", "ja": "ゲーム終了"},
    "kind_info": {"en": "info", "ja": "情報"},
    "red": {"en": "red", "ja": "赤"},
    "yellow": {"en": "yellow", "ja": "黄"},
    "green": {"en": "green", "ja": "緑"},
    "blue": {"en": "blue", "ja": "青"},
}


def pick_lang() -> str:
    """The language of this request: ``?lang=``, then the cookie, then English."""
    asked = request.args.get("lang")
    if asked in LANGS:
        return asked
    cookie = request.cookies.get(COOKIE)
    return cookie if cookie in LANGS else "en"


def translate(key: str, **values: object) -> str:
    """The message ``key`` in the request's language (the key itself if unknown)."""
    lang = getattr(g, "lang", "en")
    text = MESSAGES.get(key, {}).get(lang) or MESSAGES.get(key, {}).get("en") or key
    return text.format(**values) if values else text


def init_app(app: Flask) -> None:
    """Pick the language per request, remember ``?lang=`` in a cookie, expose ``_``."""

    @app.before_request
    def _lang() -> None:
        g.lang = pick_lang()

    @app.after_request
    def _remember(resp: Response) -> Response:
        asked = request.args.get("lang")
        if asked in LANGS:
            resp.set_cookie(COOKIE, asked, max_age=365 * 86400, samesite="Lax")
        return resp

    app.jinja_env.globals.update(_=translate, LANGS=LANGS)
