"""The refusals every route answers with: a stable code and one sentence in
the viewer's language.

An error body is ``{"error", "code", "message", "status"}`` (a route may add
its own fields): ``code`` is the refusal's stable name for clients (one of
:data:`ERRORS`, or ``http_<status>`` for an error the server raised without
one, such as an unknown address), ``message`` its sentence in the request's
language (:func:`web.i18n.pick_lang`), ``error`` the HTTP status's name.

A route refuses with :func:`fail` (or raises :class:`web.table_error.TableError`
/ :class:`web.events.EventError` with a ``reason``); the English sentence is
also the exception's message, said in the server's log and by the command line.
The variable parts are put in as given (a line, a field's name), said in the
viewer's language where they are catalogue texts (a :class:`referee.text.Text`:
the referee's reasons, the part of a request a check names), or by a table
of their own (:data:`TYPES`, :data:`ACTIONS`). A failure another module says
in its own words (an ``OSError``, a database's or a camera's error: the
``why`` of a refusal) is said by the kind of failure (:data:`FAILURES`,
:func:`failure_kind`) in Japanese; its own words come in the body's
``detail`` (with the kind's name as ``failure``), in every language
(:func:`details`). The kind comes from a code the failure carries where it
was raised (an ``OSError``'s number, a SQLite result code, the game store's
``StoreError.kind``, a camera source's ``SourceError.kind``, the kind a
camera's status gives with its message: :class:`Words`), never from its
words.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any, NoReturn

from werkzeug.exceptions import HTTPException

from referee import game as _game  # noqa: F401  (defines game.cannot-start)
from referee.store import failure_of
from referee.text import catalog

#: code -> its sentence per language; ``{name}`` is a variable part
ERRORS: dict[str, dict[str, str]] = {
    # the request body (web.api.body)
    "body_empty": {
        "en": "the request body is empty; send a JSON object",
        "ja": "リクエストの本文が空なので、JSONオブジェクトを送ってください。",
    },
    "body_not_utf8": {
        "en": "the request body is not UTF-8 text",
        "ja": "リクエストの本文がUTF-8のテキストではありません。",
    },
    "body_not_json": {
        "en": "the request body is not valid JSON ({kind})",
        "ja": "リクエストの本文が正しいJSONではありません（{kind}）。",
    },
    "body_not_object": {
        "en": "the request body must be a JSON object, got {got_type}",
        "ja": "リクエストの本文はJSONオブジェクトにしてください（届いたのは{got_type}です）。",
    },
    "body_too_large": {
        "en": "the request body is over {kib} KiB",
        "ja": "リクエストの本文が{kib} KiBを超えています。",
    },
    "lone_surrogate": {
        "en": "{what} contains a lone UTF-16 surrogate (such as \\ud800), which is "
        "not a character; send proper Unicode text",
        "ja": "{what}に対になっていないUTF-16サロゲート（\\ud800など）があり、文字ではない"
        "ため、正しいUnicodeのテキストを送ってください。",
    },
    "control_character": {
        "en": "{what} contains the control character U+{point}{at}, which is not "
        "text; send plain text",
        "ja": "{what}{at}に制御文字 U+{point} があり、テキストではないため、"
        "普通のテキストを送ってください。",
    },
    # the fields of an event or a header (web.events)
    "not_text": {
        "en": "'{name}' must be a string, got {got_type}",
        "ja": "'{name}' は文字列にしてください（届いたのは{got_type}です）。",
    },
    "text_too_long": {
        "en": "'{name}' is {n} characters long (limit {limit})",
        "ja": "'{name}' が{n}文字あり、上限の{limit}文字を超えています。",
    },
    "not_whole_number": {
        "en": "'{name}' must be a whole number, got {got}",
        "ja": "'{name}' は整数にしてください（届いたのは {got} です）。",
    },
    "out_of_range": {
        "en": "'{name}' must be between {low} and {high}, got {value}",
        "ja": "'{name}' は{low}から{high}までにしてください（届いたのは{value}です）。",
    },
    "event_not_object": {
        "en": "an event must be a JSON object, got {got_type}",
        "ja": "イベントはJSONオブジェクトにしてください（届いたのは{got_type}です）。",
    },
    "event_too_many_fields": {
        "en": "an event may have at most {limit} fields",
        "ja": "イベントの項目は{limit}個までです。",
    },
    "event_no_type": {
        "en": "an event needs a string 'type' (play, draw, uno ...)",
        "ja": "イベントには文字列の 'type'（play、draw、uno など）が必要です。",
    },
    "event_is_header": {
        "en": "a header cannot be sent as an event; start a new game instead",
        "ja": "ヘッダーはイベントとして送れないため、新しいゲームを始めてください。",
    },
    "cards_empty": {
        "en": "'cards' must be a non-empty list of card labels",
        "ja": "'cards' はカード名を1つ以上並べたリストにしてください。",
    },
    "cards_too_many": {
        "en": "'cards' may list at most {limit} cards",
        "ja": "'cards' に並べられるカードは{limit}枚までです。",
    },
    "time_not_number": {
        "en": "'t' must be a number of seconds",
        "ja": "'t' は秒数（数値）にしてください。",
    },
    "field_too_large": {
        "en": "field '{name}' is too large (limit {limit} characters)",
        "ja": "項目 '{name}' が大きすぎます（上限{limit}文字）。",
    },
    "header_not_object": {
        "en": "a game header must be a JSON object, got {got_type}",
        "ja": "ゲームのヘッダーはJSONオブジェクトにしてください（届いたのは{got_type}です）。",
    },
    "players_count": {
        "en": "'players' must list 2 to 10 names in seating order",
        "ja": "'players' には座席順に2〜10人の名前を並べてください。",
    },
    "player_no_name": {
        "en": "every player needs a name",
        "ja": "プレイヤー全員に名前が必要です。",
    },
    "players_same_name": {
        "en": "two players have the same name; give each a distinct name",
        "ja": "同じ名前のプレイヤーがいるため、それぞれ別の名前にしてください。",
    },
    "options_not_object": {
        "en": "'options' must be an object of house-rule settings",
        "ja": "'options' はハウスルールの設定のオブジェクトにしてください。",
    },
    "options_too_large": {
        "en": "'options' is too large",
        "ja": "'options' が大きすぎます。",
    },
    # the JSON API's own fields (web.api)
    "since_not_index": {
        "en": "'since' must be a ruling index, got {got}",
        "ja": "'since' には裁定の番号を指定してください（届いたのは {got} です）。",
    },
    "last_event_not_number": {
        "en": "Last-Event-ID must be a number, got {got}",
        "ja": "Last-Event-ID は数にしてください（届いたのは {got} です）。",
    },
    "paused_not_recorded": {
        "en": "the table is paused; this event was not recorded",
        "ja": "テーブルが一時停止中のため、このイベントは記録されませんでした。",
    },
    "pause_not_bool": {
        "en": 'send {"paused": true} or {"paused": false}',
        "ja": '{"paused": true} か {"paused": false} を送ってください。',
    },
    "camera_not_text": {
        "en": "'{name}' must be a camera source or file path (a string)",
        "ja": "'{name}' にはカメラ入力かファイルのパスを文字列で指定してください。",
    },
    "no_stored_game": {
        "en": "there is no stored game {gid}",
        "ja": "保存されたゲーム {gid} はありません。",
    },
    "scan_not_bool": {
        "en": 'send {"on": true} or {"on": false}',
        "ja": '{"on": true} か {"on": false} を送ってください。',
    },
    "scan_no_pipeline": {
        "en": "no camera pipeline is running to scan the hands",
        "ja": "手札を読み取るカメラ処理が動いていません。",
    },
    "scan_refused": {
        "en": "the camera cannot scan the hands: {why}",
        "ja": "カメラは手札を読み取れません（{why}）。",
    },
    # the table (web.table, web.corrections, web.questions)
    "no_game": {
        "en": "no game is running: start one on the setup page",
        "ja": "ゲームが始まっていないため、設定ページで始めてください。",
    },
    "game_held": {
        "en": "game {gid} is being refereed by another server on this store "
        "(process {pid}); open it there, or stop that server first",
        "ja": "ゲーム {gid} は同じ保存先の別のサーバー（プロセス {pid}）が審判中のため、"
        "そちらで開くか、先にそのサーバーを止めてください。",
    },
    # the referee's own sentence (``tableref watch`` says it too)
    "game_refused": catalog()["game.cannot-start"],
    "game_module_broken": {
        "en": "cannot start this game: a game module failed to load ({why})",
        "ja": "ゲームのモジュールを読み込めなかったため、このゲームは始められません（{why}）。",
    },
    "stored_log_unreadable": {
        "en": "stored game {gid}'s log cannot be exported: {why}",
        "ja": "保存されたゲーム {gid} の記録を書き出せません（{why}）。",
    },
    "stored_game_unrefereeable": {
        "en": "stored game {gid} cannot be refereed: {why}",
        "ja": "保存されたゲーム {gid} は審判できません（{why}）。",
    },
    "referee_failed": {
        "en": "line {line} was recorded, but the referee failed on it ({kind}); "
        "correct or delete it",
        "ja": "{line}行目は記録しましたが審判が処理できなかったため（{kind}）、"
        "修正するか削除してください。",
    },
    "replay_failed": {
        "en": "the referee could not replay the log after this {action} ({kind}); "
        "nothing was changed",
        "ja": "この{action}の後の記録を審判が再生できなかったため、何も変えていません（{kind}）。",
    },
    "no_event_on_line": {
        "en": "there is no event on line {line} (the log has {n})",
        "ja": "{line}行目にイベントはありません（記録は{n}行です）。",
    },
    "cannot_insert": {
        "en": "cannot insert before line {line} (the log has {n})",
        "ja": "{line}行目の前には挿入できません（記録は{n}行です）。",
    },
    "nothing_to_undo": {
        "en": "there is no event to undo",
        "ja": "取り消せるイベントはありません。",
    },
    "undo_gone": {
        "en": "the last change can no longer be undone",
        "ja": "最後の変更はもう取り消せません。",
    },
    "store_failed": {
        "en": "the event was not recorded: the game store failed ({why})",
        "ja": "ゲームの保存に失敗したため、イベントは記録されませんでした（{why}）。",
    },
    "store_unreadable": {
        "en": "the game store could not be read ({why}); try again",
        "ja": "ゲームの保存先を読めなかったため（{why}）、もう一度試してください。",
    },
    "store_full": {
        "en": "the event was not recorded: the game store failed ({why})",
        "ja": "保存先のディスクがいっぱいのため、イベントは記録されませんでした（{why}）。",
    },
    "answer_no_id": {
        "en": "send the answer's id as 'answer' (a string)",
        "ja": "答えのidを 'answer'（文字列）として送ってください。",
    },
    "answer_no_digest": {
        "en": "send the question's 'digest' as the page showed it (a string), so "
        "that an answer to an older log is refused",
        "ja": "古い記録への答えを断れるよう、ページが示した質問の 'digest'（文字列）を"
        "送ってください。",
    },
    "no_open_question": {
        "en": "there is no open question on line {line}: it was answered or the log "
        "changed; reload the page",
        "ja": "{line}行目に未回答の質問はありません（回答済みか記録が変わりました）ので、"
        "ページを再読み込みしてください。",
    },
    "question_stale": {
        "en": "the event on line {line} is not the one this answer was for (the log "
        "changed); reload the page and answer again",
        "ja": "記録が変わり{line}行目はこの答えの対象ではなくなったため、ページを再読み込みして"
        "答え直してください。",
    },
    "answer_unknown": {
        "en": "the question on line {line} has no answer {choice}; its answers: {ids}",
        "ja": "{line}行目の質問に答え {choice} はありません（答えは {ids} です）。",
    },
    "answer_not_hand": {
        "en": "the answer {choice} on line {line} is not a hand of this game's deck: "
        "{bad}",
        "ja": "{line}行目の答え {choice} はこのゲームのデッキの手札ではありません（{bad}）。",
    },
    # the pages' JSON-like answers (web.pages)
    "view_unknown": {
        "en": "view must be 'referee' or 'table'",
        "ja": "view は 'referee' か 'table' にしてください。",
    },
    "fragments_none": {
        "en": "name the fragments to render: {names}",
        "ja": "描く部分の名前を指定してください（{names}）。",
    },
    "fragment_unknown": {
        "en": "no fragment {name}; fragments: {names}",
        "ja": "部分 {name} はありません（あるのは {names} です）。",
    },
    "no_camera_frame": {
        "en": "no camera frame yet",
        "ja": "カメラの画像はまだありません。",
    },
    "camera_not_available": {
        "en": "the camera is not available",
        "ja": "カメラは使えません。",
    },
    "evidence_no_line": {
        "en": "there is no event on line {line}",
        "ja": "{line}行目にイベントはありません。",
    },
    "evidence_none": {
        "en": "the event on line {line} has no evidence frame",
        "ja": "{line}行目のイベントに証拠画像はありません。",
    },
    "evidence_outside": {
        "en": "the evidence of line {line} is outside the evidence folders",
        "ja": "{line}行目の証拠画像は証拠フォルダの外にあるため、見せられません。",
    },
    "evidence_missing": {
        "en": "the evidence frame of line {line} is missing",
        "ja": "{line}行目の証拠画像が見つかりません。",
    },
    "referee_view_token": {
        "en": "the referee view needs the token printed by 'tableref serve'; the "
        "table view is open to everyone",
        "ja": "審判ビューには 'tableref serve' が表示したトークンが必要です"
        "（テーブルビューは誰でも見られます）。",
    },
    # the deck enrollment (web.enroll)
    "enroll_body": {
        "en": 'send a JSON object, e.g. {"deck": "kitchen"}',
        "ja": 'JSONオブジェクトを送ってください（例: {"deck": "kitchen"}）。',
    },
    "field_empty": {
        "en": "'{name}' must be a non-empty string",
        "ja": "'{name}' は空でない文字列にしてください。",
    },
    "field_too_long": {
        "en": "'{name}' is too long or holds a NUL character",
        "ja": "'{name}' が長すぎるか、NUL文字を含んでいます。",
    },
    "labels_bad": {
        "en": "labels: {why}",
        "ja": "カードの指定を読めません（{why}）。",
    },
    "label_not_card": {
        "en": "labels: {label} is not a card label (e.g. red-7)",
        "ja": "{label} はカードの名前ではありません（例: red-7）。",
    },
    "labels_none": {
        "en": "labels: name at least one card (uno, tgus-t or red-7,blue-skip)",
        "ja": "カードを1枚以上指定してください（uno、tgus-t、red-7,blue-skip など）。",
    },
    "labels_too_long": {
        "en": "labels: too long",
        "ja": "カードの指定が長すぎます。",
    },
    "label_required": {
        "en": "'label' is required",
        "ja": "'label' が必要です。",
    },
    "label_unknown": {
        "en": "'label' must be one of the cards being enrolled, not {got}",
        "ja": "'label' は登録中のカードのどれかにしてください（{got} は違います）。",
    },
    "no_enroll_frame": {
        "en": "no enrollment camera frame yet",
        "ja": "登録用カメラの画像はまだありません。",
    },
    "frame_not_encoded": {
        "en": "the frame could not be encoded",
        "ja": "画像を変換できませんでした。",
    },
    "mode_unknown": {
        "en": "'mode' must be one of {modes}",
        "ja": "'mode' は {modes} のどれかにしてください。",
    },
    "page_out_of_range": {
        "en": "'page' must be a whole number from 0 to {last}",
        "ja": "'page' は0から{last}までの整数にしてください。",
    },
    # the request guards (web.security)
    "token_needed": {
        "en": "this action needs the token printed by 'tableref serve' (open the "
        "printed URL once, or send the X-Tableref-Token header)",
        "ja": "この操作には 'tableref serve' が表示したトークンが必要です（表示されたURLを"
        "一度開くか、X-Tableref-Token ヘッダーを送ってください）。",
    },
    "host_unknown": {
        "en": "unknown Host {host}; open the address 'tableref serve' printed",
        "ja": "Host {host} は知らないため、'tableref serve' が表示したアドレスを開いてください。",
    },
    "cross_site_origin": {
        "en": "cross-site request refused (its Origin is another site)",
        "ja": "別のサイトからのリクエスト（Origin が別のサイト）は断りました。",
    },
    "cross_site_referer": {
        "en": "cross-site request refused (its Referer is another site)",
        "ja": "別のサイトからのリクエスト（Referer が別のサイト）は断りました。",
    },
    "not_json_type": {
        "en": "send the request body as JSON (Content-Type: application/json)",
        "ja": "リクエストの本文はJSONで送ってください（Content-Type: application/json）。",
    },
    "unexpected": {
        "en": "the referee hit an unexpected error; the game is safe in the store",
        "ja": "審判で予期しないエラーが起きましたが、ゲームは保存されています。",
    },
}

#: what an error the server raised without a code says, by its status
#: (the short sentences of :data:`web.i18n.MESSAGES` ``http_<status>``)
HTTP_FALLBACK = "http_4xx"

#: Python's names of the JSON types (``{got_type}``)
TYPES: dict[str, dict[str, str]] = {
    "list": {"en": "list", "ja": "配列"},
    "str": {"en": "str", "ja": "文字列"},
    "int": {"en": "int", "ja": "整数"},
    "float": {"en": "float", "ja": "数値"},
    "bool": {"en": "bool", "ja": "真偽値"},
    "NoneType": {"en": "NoneType", "ja": "null"},
    "dict": {"en": "dict", "ja": "オブジェクト"},
}

#: a correction's action (``{action}``)
ACTIONS: dict[str, str] = {"correct": "修正", "delete": "削除", "insert": "挿入",
                           "undo": "取り消し", "answer": "回答"}


#: the kinds of failure another module reports in its own words (the ``why``
#: of a refusal: an ``OSError``, a database's error, a camera's message), as a
#: Japanese sentence says them (:func:`failure_kind`); English keeps the words
FAILURES: dict[str, dict[str, str]] = {
    "disk_full": {"en": "the disk is full", "ja": "ディスクがいっぱい"},
    "no_permission": {"en": "permission was denied", "ja": "アクセスが許可されていない"},
    "not_found": {"en": "a file or folder is missing",
                  "ja": "ファイルかフォルダが見つからない"},
    "read_only": {"en": "the disk is read-only", "ja": "ディスクが読み取り専用"},
    "store_locked": {"en": "the database is locked",
                     "ja": "データベースが使用中かロックされている"},
    "store_damaged": {"en": "the database file is damaged",
                      "ja": "データベースのファイルが壊れている"},
    "io_error": {"en": "an input or output error", "ja": "入出力のエラー"},
    "device_missing": {"en": "a disk or device is not there",
                       "ja": "ディスクか装置が見つからない"},
    "log_damaged": {"en": "a stored line cannot be read back",
                    "ja": "保存された行を読み戻せない"},
    "module_missing": {"en": "a module is missing or broken",
                       "ja": "モジュールが見つからないか壊れている"},
    "camera_not_found": {"en": "the camera was not found", "ja": "カメラが見つからない"},
    "cannot_open_source": {"en": "the camera's source cannot be opened",
                           "ja": "カメラの入力を開けない"},
    "video_missing": {"en": "the video file is missing", "ja": "動画ファイルが見つからない"},
    "no_images": {"en": "the folder holds no images", "ja": "フォルダに画像がない"},
    "frames_stopped": {"en": "the camera stopped delivering frames",
                       "ja": "カメラから画像が届かなくなった"},
    "frames_failed": {"en": "frames failed one after another",
                      "ja": "画像の処理が続けて失敗した"},
    "detector_missing": {"en": "the card detector cannot load",
                         "ja": "カードを見つけるモデルを読み込めない"},
    "calibration": {"en": "the table cannot be calibrated",
                    "ja": "テーブルの位置合わせができない"},
    "camera_error": {"en": "the camera failed", "ja": "カメラのエラー"},
    "failed": {"en": "an error", "ja": "エラー"},
}

# an ``OSError``'s number and a SQLite error's result code -> its kind of
# failure (:data:`FAILURES`): the game store's tables (referee.store
# ERRNO_KINDS, SQLITE_KINDS: one table each), an OSError's whoever raised it
# (a device that is not there is a disk's or a file's as much as a camera's;
# a camera's is said by the source that raised it:
# :func:`vision.sources.source_error`, a ``SourceError`` ``camera_not_found``)


class Words(str):
    """Another module's words (a camera's status message) with the kind of
    failure they say (``failure``: a key of :data:`FAILURES`, given where the
    failure was raised; ``None``: not known), for :func:`failure_kind`."""

    failure: str | None

    def __new__(cls, text: Any, failure: Any = None) -> "Words":
        out = super().__new__(cls, str(text))
        out.failure = failure if isinstance(failure, str) and failure in FAILURES \
            else None
        return out


def failure_kind(value: Any, depth: int = 0) -> str | None:
    """The kind of failure (a key of :data:`FAILURES`) another module reported
    (``value``: an exception, or a camera's message), or ``None`` where
    ``value`` is the referee's own sentence (a :class:`referee.text.Text`,
    said in every language). The kind comes from a code the failure carries,
    never from its words: a :class:`referee.store.StoreError`'s ``kind``
    (a read's or a write's: the database's or the disk's code, a stored row
    it cannot read back), a :class:`vision.sources.SourceError`'s ``kind``
    (what a camera's source said where it raised it), an ``OSError``'s
    number (whoever raised it: a device that is not there is
    ``device_missing``, not a camera), a SQLite error's result code, an
    ``ImportError``, a failure it was raised from; a camera's message
    (:class:`Words`) by the kind given with it. Else ``io_error`` for an
    ``OSError``, ``failed`` for another exception, ``camera_error`` for a
    camera's message."""
    if isinstance(value, BaseException):
        said = _reason(value)
        if _is_text(said):
            return None
        if isinstance(value, ImportError):
            return "module_missing"
        carried = failure_of(value)  # a store's, an OSError's, a SQLite error's
        if carried in FAILURES:
            return carried
        sources = sys.modules.get("vision.sources")  # none raised where not loaded
        if sources is not None and isinstance(value, sources.SourceError) \
                and value.kind in FAILURES:
            return str(value.kind)
        cause = value.__cause__ or value.__context__
        if cause is not None and cause is not value and depth < 4:
            kind = failure_kind(cause, depth + 1)
            if kind not in (None, "failed", "io_error"):
                return kind
        return "io_error" if isinstance(value, OSError) else "failed"
    if _is_text(value):
        return None
    kind = getattr(value, "failure", None)
    return kind if isinstance(kind, str) and kind in FAILURES else "camera_error"


def _reason(exc: BaseException) -> Any:
    try:
        from referee.game import reason
    except ImportError:
        return str(exc)
    return reason(exc)


def _is_text(value: Any) -> bool:
    return isinstance(value, str) and callable(getattr(value, "render", None))


def _said(value: Any, lang: str) -> str:
    """A part in ``lang``: a catalogue text (a :class:`referee.text.Text`, or
    an exception raised with one) rendered; another module's failure (an
    ``OSError``, a camera's message) said by its kind in a language other
    than English (:func:`failure_kind`), its own words in English."""
    said = _reason(value) if isinstance(value, BaseException) else value
    if _is_text(said):
        try:
            return str(said.render(lang))
        except Exception:  # a sentence that cannot be said: its English
            return str(said)
    if lang == "en":
        return str(said)
    kind = failure_kind(value)
    return FAILURES.get(kind or "failed", FAILURES["failed"]).get(lang) or str(said)


def _foreign(reason: str, name: str, value: Any) -> bool:
    """Whether part ``name`` of refusal ``reason`` may be another module's
    failure in its own words: an exception, or a camera's message (a ``why``
    of :data:`CAMERA_WHY`); a text the page was given (a label set's
    complaint) is put in as it is."""
    if name not in FREE or _is_text(value):
        return False
    return isinstance(value, BaseException) or reason in CAMERA_WHY


def _part(reason: str, name: str, value: Any, lang: str) -> str:
    if _foreign(reason, name, value) or isinstance(value, BaseException) \
            or _is_text(value):
        return _said(value, lang)
    text = str(value)
    if lang != "ja":
        return text
    if name == "got_type":
        return TYPES.get(text, {}).get("ja", text)
    if name == "action":
        return ACTIONS.get(text, text)
    if name == "kind":
        return KINDS_JA.get(text, text)
    return text


#: the parts that are another module's words where they are no catalogue text
#: (``why``: an exception, a camera's message)
FREE = ("why",)
#: the refusals whose ``why`` is a camera's message (its status, in English)
CAMERA_WHY = ("scan_refused",)

#: the Python errors a ``{kind}`` names, in Japanese (another is said as named)
KINDS_JA: dict[str, str] = {
    "JSONDecodeError": "書き方の誤り", "RecursionError": "入れ子が深すぎる",
    "ValueError": "JSONにない値", "UnicodeDecodeError": "UTF-8でない文字",
}


def details(reason: str, params: Mapping[str, Any] | None, lang: str = "en"
            ) -> dict[str, Any]:
    """The fields a refusal's body adds to its sentence, the same in every
    language: ``failure`` and ``detail`` where its ``why`` is another module's
    failure (the kind, :data:`FAILURES`, and its own words), ``options``
    where a new game's header options were refused (each named with what it
    may be, in ``lang``: :meth:`referee.game.OptionsRefused.data`)."""
    out: dict[str, Any] = {}
    why = (params or {}).get("why")
    if why is None:
        return out
    data = getattr(why, "data", None)
    if isinstance(why, BaseException) and callable(data) and hasattr(why, "refusals"):
        try:
            out["options"] = data(lang)
        except Exception:  # noqa: BLE001 - the sentence still says it
            pass
    kind = failure_kind(why) if _foreign(reason, "why", why) else None
    if kind is not None:
        out["failure"] = kind
        out["detail"] = str(why)[:500]
    return out


def say(reason: str, lang: str = "en", params: Mapping[str, Any] | None = None) -> str:
    """The sentence of refusal ``reason`` in ``lang`` (English if unknown)."""
    entry = ERRORS.get(reason)
    if entry is None:
        from .i18n import MESSAGES

        entry = MESSAGES.get(reason) or MESSAGES[HTTP_FALLBACK]
    text = entry.get(lang) or entry["en"]
    values = {k: _part(reason, k, v, lang) for k, v in (params or {}).items()}
    try:
        return text.format(**values)
    except (KeyError, IndexError, ValueError):  # a sentence missing a part
        return entry.get(lang) or entry["en"]


def viewer_lang() -> str:
    """The request's language (English outside a request)."""
    from flask import g, has_request_context

    if not has_request_context():
        return "en"
    lang = getattr(g, "lang", None)
    if lang is None:
        from .i18n import pick_lang

        try:
            lang = pick_lang()
        except Exception:  # a request whose query cannot be read
            lang = "en"
    return lang


class Refusal(HTTPException):
    """An HTTP error with a stable ``reason`` (the body's ``code``)."""

    def __init__(self, status: int, reason: str, **params: Any):
        super().__init__(say(reason, "en", params))
        self.code = status
        self.reason = reason
        self.params = params

    @property
    def name(self) -> str:  # type: ignore[override]
        from werkzeug.http import HTTP_STATUS_CODES

        return HTTP_STATUS_CODES.get(self.code or 500, "Error")


def fail(status: int, reason: str, **params: Any) -> NoReturn:
    """Refuse the request: ``status``, code ``reason``, its sentence."""
    if reason not in ERRORS:
        raise KeyError(f"no refusal {reason!r} in web.errors.ERRORS")
    raise Refusal(status, reason, **params)


def short(value: Any, limit: int = 40) -> str:
    """A value the client sent, as a short quoted text."""
    return repr(value if not isinstance(value, str) else value[:limit])[: limit + 2]
