"""A small message catalogue: English and Japanese, chosen by ``?lang=``, a cookie or
the browser's ``Accept-Language``.

Templates call ``_("key")``; the page's script gets its messages from
``script_messages()`` (a ``data-messages`` attribute). The rulings' sentences
are not in this catalogue: they are rendered from each ruling's data in the
viewer's language (``msg``, :mod:`referee.text`; the ``said`` filter,
:func:`web.display.said`), under a headline said from its kind and rule
(:func:`web.display.headline`).
"""

from __future__ import annotations

import re

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
    "game_damaged": {
        "en": "its header cannot be read back (the store keeps it)",
        "ja": "ヘッダーを読み戻せません（保存先には残っています）",
    },
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
    # the table display
    "display": {"en": "Table display", "ja": "テーブル表示"},
    "owed_none": {"en": "none", "ja": "なし"},
    "owed_stack": {"en": "{player} draws {n}", "ja": "{player}が{n}枚引く"},
    "owed_penalty": {
        "en": "{player} draws {n} (penalty)",
        "ja": "{player}が{n}枚引く（ペナルティ）",
    },
    "watch": {"en": "One card, no UNO called", "ja": "残り1枚・ウノ未宣言"},
    "watch_none": {"en": "nobody", "ja": "なし"},
    "last_ruling": {"en": "Last ruling", "ja": "最新の裁定"},
    "no_ruling": {"en": "No ruling yet.", "ja": "裁定はまだありません。"},
    "sound": {"en": "Sound for illegal plays", "ja": "反則時に音を鳴らす"},
    "sound_on": {"en": "Sound: on", "ja": "音: オン"},
    "sound_off": {"en": "Sound: off", "ja": "音: オフ"},
    "next_first_card": {
        "en": "Next: turn up the first card of the round and enter it here.",
        "ja": "次に: ラウンドの最初の札をめくって、ここに入力してください。",
    },
    "next_first_card_table": {
        "en": "Next: the dealer turns up the first card.",
        "ja": "次に: ディーラーが最初の札をめくります。",
    },
    "next_reveal": {
        "en": "Next: enter the hand of each player in “Reveal / score”: {players}.",
        "ja": "次に: 「手札公開・得点」に各プレイヤーの手札を入力してください: {players}。",
    },
    "next_reveal_table": {
        "en": "Next: {players} show their hands for scoring.",
        "ja": "次に: {players}が得点計算のために手札を見せます。",
    },
    "list_sep": {"en": ", ", "ja": "、"},
    "next_challenge": {
        "en": "Next: {accused} shows their hand to {challenger}; "
        "enter it in “Reveal / score”.",
        "ja": "次に: {accused}が{challenger}に手札を見せます。"
        "「手札公開・得点」に入力してください。",
    },
    "next_challenge_table": {
        "en": "Next: {accused} shows their hand to {challenger}.",
        "ja": "次に: {accused}が{challenger}に手札を見せます。",
    },
    "first_card": {"en": "First card (e.g. red-7, R7)", "ja": "最初の札（例: red-7, R7）"},
    "turn_up": {"en": "Turn up", "ja": "めくった札を記録"},
    "against": {"en": "against {player}", "ja": "{player}に対して"},
    "challenger": {"en": "Challenger", "ja": "チャレンジする人"},
    "catcher": {"en": "Caught by", "ja": "指摘した人"},
    "caught": {"en": "Player caught", "ja": "指摘された人"},
    "rule_name": {"en": "rule", "ja": "ルール"},
    "as_logged": {"en": "If it happened as logged:", "ja": "記録どおりなら:"},
    "edit": {"en": "Edit", "ja": "編集"},
    # confirmations
    "confirm": {"en": "Please confirm", "ja": "確認"},
    "cancel": {"en": "Cancel", "ja": "キャンセル"},
    "confirm_delete": {
        "en": "Delete line {line}? The referee replays the game without it.",
        "ja": "{line}行目を削除しますか？ 審判はそれを除いてゲームを再生します。",
    },
    "confirm_new_round": {
        "en": "A round is being played. Start a new round and abandon this one?",
        "ja": "ラウンドの途中です。このラウンドを破棄して新しいラウンドを始めますか？",
    },
    "yes_delete": {"en": "Delete", "ja": "削除する"},
    "yes_new_round": {"en": "Abandon and start", "ja": "破棄して開始"},
    # the status bar (said by the page's script)
    "st_ok": {"en": "Recorded.", "ja": "記録しました。"},
    "st_undo_append": {
        "en": "Undone: line {line} is removed.",
        "ja": "取り消しました: {line}行目を削除しました。",
    },
    "st_undo_delete": {
        "en": "Undone: the deleted line {line} is back.",
        "ja": "取り消しました: 削除した{line}行目を戻しました。",
    },
    "st_undo_correct": {
        "en": "Undone: line {line} is as it was before the correction.",
        "ja": "取り消しました: {line}行目を修正前に戻しました。",
    },
    "st_undo_insert": {
        "en": "Undone: the inserted line {line} is removed.",
        "ja": "取り消しました: 挿入した{line}行目を削除しました。",
    },
    "undo_lost": {
        "en": "{why}, so undo removed the last event (line {line}).",
        "ja": "{why}ため、最後のイベント（{line}行目）を削除しました。",
    },
    "left_out": {
        "en": "Stored line(s) {lines} of this game could not be refereed and are "
              "left out; the store keeps them, and the lines here are numbered "
              "without them.",
        "ja": "このゲームの保存された{lines}行目は審判できないため除きました。"
              "保存先には残っており、ここでの行番号はそれを除いて数えています。",
    },
    "undo_lost_missing": {
        "en": "No undo history was kept for this game across the restart",
        "ja": "再起動の前の取り消し履歴が残っていない",
    },
    "undo_lost_unreadable": {
        "en": "The saved undo history could not be read",
        "ja": "保存された取り消し履歴を読み込めない",
    },
    "undo_lost_stale": {
        "en": "The saved undo history does not match the stored log",
        "ja": "保存された取り消し履歴が記録と一致しない",
    },
    "st_correct": {"en": "Line {line} corrected.", "ja": "{line}行目を修正しました。"},
    "st_delete": {"en": "Line {line} deleted.", "ja": "{line}行目を削除しました。"},
    "st_insert": {
        "en": "Inserted before line {line}.",
        "ja": "{line}行目の前に挿入しました。",
    },
    "st_changes": {
        "en": "{removed} ruling(s) withdrawn, {added} new.",
        "ja": "裁定 {removed}件 取り消し、{added}件 追加。",
    },
    "st_paused": {"en": "Paused.", "ja": "一時停止しました。"},
    "st_resumed": {"en": "Resumed.", "ja": "再開しました。"},
    "st_error": {"en": "Not recorded", "ja": "記録されませんでした"},
    "st_bad_json": {"en": "Not JSON", "ja": "JSONではありません"},
    "st_game": {
        "en": "Game started. Next: turn up the first card.",
        "ja": "ゲームを開始しました。次に: 最初の札をめくってください。",
    },
    # event types, for the log
    "ev_start": {"en": "first card", "ja": "最初の札"},
    "ev_play": {"en": "plays", "ja": "出す"},
    "ev_draw": {"en": "draws", "ja": "引く"},
    "ev_pass": {"en": "passes", "ja": "パス"},
    "ev_uno": {"en": "calls UNO", "ja": "ウノ宣言"},
    "ev_catch": {"en": "catches", "ja": "指摘"},
    "ev_challenge": {"en": "challenges", "ja": "チャレンジ"},
    "ev_reveal": {"en": "shows", "ja": "公開"},
    # camera states and the page's own camera messages
    "cam_starting": {"en": "starting", "ja": "起動中"},
    "cam_running": {"en": "running", "ja": "動作中"},
    "cam_scanning": {"en": "scanning the hands", "ja": "手札を読み取り中"},
    "cam_ended": {"en": "ended", "ja": "終了"},
    "cam_retrying": {"en": "retrying", "ja": "再試行中"},
    "cam_error": {"en": "error", "ja": "エラー"},
    "cam_unavailable": {"en": "unavailable", "ja": "使用不可"},
    "no camera was started": {
        "en": "no camera was started",
        "ja": "カメラは起動されていません",
    },
    "no camera started": {
        "en": "no camera started",
        "ja": "カメラは起動されていません",
    },
    "no camera": {"en": "no camera", "ja": "カメラなし"},
    "no game is running": {
        "en": "no game is running",
        "ja": "ゲームが始まっていません",
    },
    "no camera source; replaying the demo table log": {
        "en": "no camera source; replaying the demo table log",
        "ja": "カメラ入力がないため、デモの記録を再生しています",
    },
    "no camera source; the demo table log has ended": {
        "en": "no camera source; the demo table log has ended",
        "ja": "カメラ入力がないため、デモの記録の再生は終わりました",
    },
    "this server runs without a camera pipeline": {
        "en": "this server runs without a camera pipeline",
        "ja": "このサーバーはカメラ処理なしで動いています",
    },
    "frames": {"en": "frames", "ja": "フレーム"},
    "ignored": {"en": "{n} ignored", "ja": "{n}件を無視"},
    # the setup page
    "cam_keep": {"en": "Keep the current camera ({name})", "ja": "今のカメラのまま（{name}）"},
    "cam_index": {"en": "Camera {n} ({name})", "ja": "カメラ {n}（{name}）"},
    "cam_file": {"en": "Video file: {name}", "ja": "動画ファイル: {name}"},
    "cam_demo": {"en": "The demo video ({name})", "ja": "デモ動画（{name}）"},
    "cam_manual": {
        "en": "No camera: events entered by hand",
        "ja": "カメラなし（手入力）",
    },
    "cam_other": {"en": "Other source (index or file path)", "ja": "その他（番号またはファイルのパス）"},
    "cam_none_found": {"en": "No camera found", "ja": "カメラが見つかりません"},
    "hand_size": {"en": "Cards dealt", "ja": "配る枚数"},
    "scoring": {"en": "Scoring", "ja": "得点方式"},
    "japan": {
        "en": "Japan (fixed rounds, losers go minus)",
        "ja": "日本式（ラウンド数固定・敗者はマイナス）",
    },
    "international": {
        "en": "International (first to the target)",
        "ja": "国際式（目標点に先に到達）",
    },
    "rounds": {"en": "Rounds", "ja": "ラウンド数"},
    "target": {"en": "Target points", "ja": "目標点"},
    "players_help": {
        "en": "After “Start game”, turn up the first card and enter it.",
        "ja": "「ゲーム開始」の後、最初の札をめくって入力します。",
    },
    "current_camera": {"en": "Camera now", "ja": "現在のカメラ"},
    "log": {"en": "log", "ja": "記録"},
    "more_details": {"en": "More details", "ja": "詳しい状態"},
    "fix_cards": {"en": "Cards (fix a misread card)", "ja": "カード（誤認識を直す）"},
    "fix_card": {"en": "Card (fix a misread card)", "ja": "カード（誤認識を直す）"},
    # what an error page says first, by its status, in the viewer's language
    # (web.security._error; the details after it are the server's words)
    "http_400": {"en": "The request could not be read.",
                 "ja": "リクエストを読み取れませんでした。"},
    "http_403": {"en": "This needs the referee's token.",
                 "ja": "この操作には審判のトークンが必要です。"},
    "http_404": {"en": "There is no such page or item.",
                 "ja": "そのページや項目はありません。"},
    "http_405": {"en": "This address does not take that kind of request.",
                 "ja": "このアドレスはその種類のリクエストを受け付けません。"},
    "http_409": {"en": "This cannot be done in the table's present state.",
                 "ja": "テーブルの今の状態ではできません。"},
    "http_413": {"en": "The request is too large.",
                 "ja": "リクエストが大きすぎます。"},
    "http_415": {"en": "The request is not in a form the referee reads.",
                 "ja": "リクエストの形式を読み取れません。"},
    "http_4xx": {"en": "The request was refused.",
                 "ja": "リクエストは受け付けられませんでした。"},
}

# The raw state box ("more details" on the page): a game's own state keys,
# labelled in the viewer's language; a key not listed shows as it is.
STATE_LABELS: dict[str, dict[str, str]] = {
    "round": {"en": "Round", "ja": "ラウンド"},
    "dealer": {"en": "Dealer", "ja": "親"},
    "awaiting": {"en": "Waiting for", "ja": "待っているもの"},
    "called": {"en": "Called", "ja": "宣言"},
    "challenge": {"en": "Challenge", "ja": "チャレンジ"},
    "challenge_reveal": {"en": "Hand shown in a challenge", "ja": "チャレンジで見せた手札"},
    "discard_pile": {"en": "Discard pile", "ja": "捨て札の枚数"},
    "discards": {"en": "Discards", "ja": "捨て札"},
    "draw_pile": {"en": "Draw pile", "ja": "山札の枚数"},
    "drawn_card": {"en": "Card just drawn", "ja": "引いたばかりの札"},
    "face_down": {"en": "Face-down cards", "ja": "伏せ札"},
    "face_down_left": {"en": "Face-down cards left", "ja": "残りの伏せ札"},
    "face_down_placed": {"en": "Face-down cards placed", "ja": "置かれた伏せ札"},
    "next_hand_sizes": {"en": "Next hand sizes", "ja": "次の配る枚数"},
    "out": {"en": "Out", "ja": "上がった人"},
    "pending_rank": {"en": "Rank waiting", "ja": "保留中の数字"},
    "pending_target": {"en": "Target waiting", "ja": "保留中の対象"},
    "picture_stock": {"en": "Picture stock", "ja": "絵札の山"},
    "pile": {"en": "Pile", "ja": "場の山"},
    "ranking": {"en": "Ranking", "ja": "順位"},
    "revealed": {"en": "Hands shown", "ja": "公開された手札"},
    "round_winner": {"en": "Round winner", "ja": "ラウンドの勝者"},
    "stock": {"en": "Stock", "ja": "山札"},
    "top_effect": {"en": "Top card's effect", "ja": "場札の効果"},
    "uno_calls": {"en": "UNO calls", "ja": "ウノ宣言の回数"},
    "winners": {"en": "Winners", "ja": "勝者"},
    "start_player": {"en": "First player", "ja": "最初の人"},
    "owed_draws": {"en": "Cards owed", "ja": "引くべき枚数"},
    "accusation": {"en": "Accusation", "ja": "指摘"},
    "box": {"en": "Box", "ja": "ボックス"},
    "box_counts": {"en": "Box counts", "ja": "ボックスの枚数"},
    "limit_cards": {"en": "Limit cards", "ja": "上限の札"},
    "branches": {"en": "Branches", "ja": "枝"},
    "current_branch": {"en": "Current branch", "ja": "今の枝"},
    "captured": {"en": "Captured", "ja": "取った札"},
    "must": {"en": "Must", "ja": "しなければならないこと"},
    "score_cards": {"en": "Score cards", "ja": "得点札"},
    "start": {"en": "Start", "ja": "開始"},
    "aside": {"en": "Set aside", "ja": "よけた札"},
    "public": {"en": "Shown to all", "ja": "公開情報"},
    "revokes": {"en": "Revokes", "ja": "リボーク"},
    "row": {"en": "Row", "ja": "列"},
    "trick": {"en": "Trick", "ja": "トリック"},
    "trick_no": {"en": "Trick number", "ja": "トリック番号"},
    "tricks_won": {"en": "Tricks won", "ja": "取ったトリック"},
    "trump": {"en": "Trump", "ja": "切り札"},
}


def state_label(key: str) -> str:
    """A state key's label in the request's language (the key if unknown)."""
    lang = getattr(g, "lang", "en")
    labels = STATE_LABELS.get(key, {})
    return labels.get(lang) or labels.get("en") or key


# Messages the page's script writes into the status bar and dialogs.
SCRIPT_KEYS = (
    "st_ok",
    "st_undo_append",
    "st_undo_delete",
    "st_undo_correct",
    "st_undo_insert",
    "st_correct",
    "st_delete",
    "st_insert",
    "st_changes",
    "st_paused",
    "st_resumed",
    "st_error",
    "st_bad_json",
    "st_game",
    "confirm_delete",
    "confirm_new_round",
    "yes_delete",
    "yes_new_round",
    "cancel",
    "sound_on",
    "sound_off",
)


def pick_lang() -> str:
    """The language of this request: ``?lang=``, then the cookie, then the
    browser's ``Accept-Language``, then English."""
    asked = request.args.get("lang")
    if asked in LANGS:
        return asked
    cookie = request.cookies.get(COOKIE)
    if cookie in LANGS:
        return cookie
    return request.accept_languages.best_match(LANGS) or "en"


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
        resp.vary.update(("Accept-Language", "Cookie"))  # the answer's language
        asked = request.args.get("lang")
        if asked in LANGS:
            resp.set_cookie(COOKIE, asked, max_age=365 * 86400, samesite="Lax")
        return resp

    app.jinja_env.globals.update(
        _=translate,
        state_label=state_label,
        LANGS=LANGS,
        script_messages=script_messages,
        cam_states=[k for k in MESSAGES if k.startswith("cam_")],
    )
    app.jinja_env.filters["cam"] = camera_message


def script_messages() -> dict[str, str]:
    """The messages the page's script needs, in the request's language."""
    return {key: translate(key) for key in SCRIPT_KEYS}


# The camera's messages with a variable part (a source, a reason), in Japanese:
# (pattern, Japanese, the groups that are a reason). A source stays as the
# camera named it ("file x.mp4" -> "ファイル x.mp4"); a reason in the camera's
# own words is said by its kind of failure (:data:`web.errors.FAILURES`: camera
# not found, video file missing ...; the code the camera's status gives with
# the message, never read from its words), its words after it in parentheses.
CAMERA_PATTERNS: tuple[tuple[re.Pattern[str], str, tuple[int, ...]], ...] = tuple(
    (re.compile(pattern, re.S), ja, causes)
    for pattern, ja, causes in (
        (r"not started", "未開始", ()),
        (r"opening (.+)", "{0} を開いています", ()),
        (r"reading (.+)", "{0} を読み込み中", ()),
        (r"(.+); the demo table log has ended", "{0}。デモの記録の再生は終わりました", (0,)),
        (r"(.+) has ended", "{0} は終わりました", ()),
        (r"(.+); retry (\d+) in ([\d.]+) s", "{0}（{2}秒後に{1}回目の再試行）", (0,)),
        (r"(.+); gave up after (\d+) retries", "{0}（{1}回再試行して中止）", (0,)),
        (r"the camera pipeline is not available \((.+)\)", "カメラ処理が使えません: {0}",
         (0,)),
        (r"the camera could not start on (.+?): (.+)", "{0} でカメラを起動できません: {1}",
         (1,)),
        (r"the camera pipeline stopped: (.+)", "カメラ処理が止まりました: {0}", (0,)),
        (r"(.+); replaying the demo table log instead", "{0}。代わりにデモの記録を再生中",
         (0,)),
        # what the camera reads (vision.sources.Source.describe), inside the above
        (r"file (.+)", "ファイル {0}", ()),
        (r"folder (.+)", "フォルダ {0}", ()),
        (r"stream (.+)", "ストリーム {0}", ()),
        (r"camera (\d+|/dev/\S+)", "カメラ {0}", ()),
    )
)

#: a text already said in Japanese (kana or kanji)
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def camera_message(message: object, cause: bool = False,
                   failure: str | None = None) -> str:
    """A camera message in the request's language where the page knows it.

    In Japanese, a reason in the camera's own words (``cause``: a part of a
    known message that says why; or a whole message that says a known kind
    of failure) is said by its kind, its own words kept after it in
    parentheses. The kind is ``failure`` (a key of
    :data:`web.errors.FAILURES`: the camera's status gives it, from the code
    of the failure where it was raised, :meth:`web.camera.Camera.status`),
    never guessed from the words; a reason of no known kind is said as a
    camera's error."""
    text = str(message or "")
    if text in MESSAGES:
        return translate(text)
    if getattr(g, "lang", "en") == "ja" and text and not JAPANESE.search(text):
        for pattern, ja, causes in CAMERA_PATTERNS:
            m = pattern.fullmatch(text)
            if m:
                parts = [camera_message(p, i in causes,
                                        failure if i in causes else None)
                         for i, p in enumerate(m.groups())]
                return ja.format(*parts)
        from .camera import CAUSES
        from .errors import FAILURES, Words, failure_kind

        if text in CAUSES:  # the page's own words for why there is no camera
            return CAUSES[text]
        kind = failure_kind(Words(text, failure))
        if kind is not None and (cause or kind != "camera_error"):
            return f"{FAILURES[kind]['ja']}（{text}）"
    return text
