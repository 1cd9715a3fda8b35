"""The page wizard that enrolls a deck: ``/enroll`` in ``tableref serve``.

A person names the deck, picks the cards (the 54 of a UNO deck, the tgus-t
deck's, or labels separated by commas) and the camera, and shows the cards one
by one (in the order asked, or in any order: the camera names each card) or
lays them out as the printed sheet (``/enroll/sheet``) shows. The page
says which card to show next, confirms each card taken, and keeps counts of the
cards taken, still missing, unsure (the shipped classifier reads another card,
or is not sure) and skipped; any card can be skipped or taken again. ``Enroll``
fine-tunes in the background and saves the deck where ``tableref decks`` finds
it; the page then names the command that plays with it.

The engine is :mod:`web.enroll_wizard`. Routes (every one needs the token; the
writes are JSON, checked by :mod:`web.security`):

- ``GET /enroll``: the page; ``GET /enroll/sheet?labels=uno``: the sheet to print;
  ``GET /enroll/frame.jpg``: the camera's latest frame with the boxes found.
- ``GET /api/enroll``: the wizard's and the fine-tuning's state, the prompt said
  in the viewer's language.
- ``POST /api/enroll/start`` ``{"deck", "labels", "camera", "mode"}``;
  ``/skip`` ``{"label"?}``; ``/redo`` ``{"label"}``; ``/mode`` ``{"mode",
  "page"?}``; ``/stop``; ``/train``.

Settings (``create_app``'s config): ``ENROLL_SOURCE`` (spec -> an opened frame
source), ``ENROLL_TOOLS`` (() -> (finder, reader)), ``ENROLL_TRAINER`` ((shots,
progress) -> :class:`vision.enroll.EnrollResult`), ``ENROLL_GUIDE`` (a
:class:`vision.enroll_camera.GuideConfig`), ``DECKS_DIR`` (default: beside the
saved tables, as ``tableref decks``).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    g,
    jsonify,
    make_response,
    render_template,
    request,
)
from werkzeug.http import HTTP_STATUS_CODES

from .enroll_wizard import (
    MODES,
    SHEET_COLUMNS,
    EnrollJob,
    Wizard,
    default_trainer,
    sheet_pages,
)
from .api import body as api_body
from .errors import fail, short, viewer_lang
from .security import require_token

bp = Blueprint("enroll", __name__)

LABEL_SETS = ("uno", "tgus-t")
MAX_TEXT = 2000  # characters of a labels list or a camera spec

MESSAGES: dict[str, dict[str, str]] = {
    "title": {"en": "Enroll a deck", "ja": "デッキの登録"},
    "intro": {
        "en": "Teach the camera your own deck: show it every card once, then "
              "press Enroll. About three minutes for a 54-card deck.",
        "ja": "自分のデッキをカメラに覚えさせます。全部のカードを1回ずつ見せてから"
              "「登録」を押してください。54枚のデッキで約3分です。",
    },
    "setup_link": {"en": "Enroll your own deck (teach the camera your cards)",
                   "ja": "自分のデッキを登録（カメラにカードを覚えさせる）"},
    "deck_name": {"en": "Deck name", "ja": "デッキ名"},
    "cards": {"en": "Cards", "ja": "カード"},
    "set_uno": {"en": "UNO (54 cards)", "ja": "UNO（54枚）"},
    "set_tgus-t": {"en": "東幻符闘祭 deck (tgus-t)", "ja": "東幻符闘祭デッキ（tgus-t）"},
    "set_custom": {"en": "Labels, comma-separated", "ja": "ラベル（カンマ区切り）"},
    "camera": {"en": "Camera", "ja": "カメラ"},
    "no_camera_found": {
        "en": "No camera found on this machine: type a video file or a folder of "
              "photos instead.",
        "ja": "このマシンにカメラが見つかりません。動画ファイルか写真のフォルダを"
              "入力してください。",
    },
    "mode": {"en": "How", "ja": "方法"},
    "mode_one": {"en": "One card at a time, as asked", "ja": "1枚ずつ（指定の順）"},
    "mode_any": {"en": "One card at a time, any order (the camera names it)",
                 "ja": "1枚ずつ順不同（カメラがカードを読み取る）"},
    "mode_sheet": {"en": "Laid out as on the printed sheet",
                   "ja": "印刷したシートのとおりに並べる"},
    "print_sheet": {"en": "Print the layout sheet", "ja": "配置シートを印刷"},
    "start": {"en": "Start", "ja": "開始"},
    "stop": {"en": "Stop the camera", "ja": "カメラを止める"},
    "skip": {"en": "Skip", "ja": "スキップ"},
    "redo": {"en": "Take again", "ja": "撮り直す"},
    "enroll": {"en": "Enroll", "ja": "登録"},
    "captured": {"en": "Taken", "ja": "撮影済み"},
    "missing": {"en": "Missing", "ja": "未撮影"},
    "unsure": {"en": "Unsure", "ja": "要確認"},
    "skipped": {"en": "Skipped", "ja": "スキップ"},
    "page_n": {"en": "Sheet page {page} of {pages}", "ja": "シート {page}/{pages} ページ"},
    "picture": {"en": "What the camera sees", "ja": "カメラの映像"},
    "pick_help": {
        "en": "Tap a card to take it (again) next.",
        "ja": "カードをタップすると、次にそのカードを撮ります（撮り直し）。",
    },
    "decks": {"en": "Enrolled decks", "ja": "登録済みのデッキ"},
    "no_decks": {"en": "No deck enrolled yet.", "ja": "登録済みのデッキはありません。"},
    "deck_line": {"en": "{name}: {cards} cards, {missing} missing, {unsure} unsure",
                  "ja": "{name}: {cards}枚、未撮影{missing}枚、要確認{unsure}枚"},
    "use_deck": {
        "en": "Play with it: tableref serve --deck {name} "
              "(or watch/detect --deck {name})",
        "ja": "使い方: tableref serve --deck {name}（watch・detect も --deck {name}）",
    },
    "sheet_title": {"en": "Layout sheet: {deck}", "ja": "配置シート: {deck}"},
    "sheet_help": {
        "en": "Lay each card on its place, this way up, the page's top row at the "
              "top of the camera's picture; one page at a time.",
        "ja": "カードをそれぞれの位置に、この向きで置いてください。上の行がカメラの"
              "映像の上になるように。1ページずつ撮ります。",
    },
    "back": {"en": "Back to the wizard", "ja": "登録画面に戻る"},
    # prompts (the wizard's "say")
    "say_loading": {"en": "Starting the camera and the card finder…",
                    "ja": "カメラとカード検出を準備しています…"},
    "say_show": {"en": "Show {card}", "ja": "{card}を見せてください"},
    "say_clear": {"en": "Take the card away", "ja": "カードをどけてください"},
    "say_clear_sheet": {"en": "Clear the table for the next page",
                        "ja": "次のページのためにカードを片付けてください"},
    "say_any": {"en": "Show any card not taken yet ({n} to go)",
                "ja": "まだ撮っていないカードをどれでも見せてください（残り{n}枚）"},
    "say_got_again": {"en": "{card} is already taken: show another card",
                      "ja": "{card}は撮影済みです。別のカードを見せてください"},
    "say_got_unknown": {
        "en": "Not sure which card that was (it looked like {read}): go on, and "
              "pick it by name below at the end",
        "ja": "どのカードか確かではありません（{read}に見えました）。続けて、"
              "最後に下の一覧から名前で選んでください",
    },
    "say_hold": {"en": "Seen: hold it still…", "ja": "見えています。そのまま動かさないで…"},
    "say_got": {"en": "Got {card}", "ja": "{card}を撮りました"},
    "say_got_unsure": {
        "en": "Got {card}, but the reader saw {read}: take it again if that was "
              "the wrong card",
        "ja": "{card}を撮りましたが、{read}に見えます。違うカードなら撮り直してください",
    },
    "say_got_page": {"en": "Page taken: {n} cards ({unsure} unsure)",
                     "ja": "ページを撮りました: {n}枚（要確認{unsure}枚）"},
    "say_lay": {
        "en": "Lay out page {page} of {pages} ({n} cards) as printed; leave out "
              "skipped cards and close up the gap",
        "ja": "{page}/{pages}ページの{n}枚を印刷どおりに並べてください"
              "（スキップしたカードは抜いて詰めてください）",
    },
    "say_sheet_found": {"en": "Page {page}: {n} of {of} cards found",
                        "ja": "{page}ページ: {of}枚中{n}枚が見えています"},
    "say_sheet_rows": {"en": "Page {page}: lay the cards in straight rows",
                       "ja": "{page}ページ: カードをまっすぐな行に並べてください"},
    "say_done": {"en": "Every card is taken or skipped: press Enroll",
                 "ja": "全部のカードを撮影またはスキップしました。「登録」を押してください"},
    "say_ended": {"en": "The camera's frames ended", "ja": "カメラの映像が終わりました"},
    "say_error": {"en": "Stopped", "ja": "停止しました"},
    # the wizard stopped on a failure: {why} its own words in English, its
    # kind (web.errors.FAILURES) in another language
    "say_error_finder": {"en": "Stopped: the card finder did not load: {why}",
                         "ja": "停止しました。カードを見つけるモデルを読み込めませんでした（{why}）"},
    "say_error_camera": {"en": "Stopped: the camera stopped: {why}",
                         "ja": "停止しました。カメラが止まりました（{why}）"},
    "say_stopped": {"en": "The camera is stopped", "ja": "カメラは止まっています"},
    "no_card": {"en": "no card", "ja": "カードなし"},
    # the fine-tuning
    "job_training": {"en": "Learning the deck… {pct} %",
                     "ja": "デッキを学習しています… {pct}%"},
    "job_done": {
        "en": "Deck {deck} enrolled: {cards} cards from {photos} frames in {seconds} s",
        "ja": "デッキ {deck} を登録しました: {cards}枚（{photos}フレーム、{seconds}秒）",
    },
    "job_missing": {"en": "Missing: {labels}", "ja": "未撮影: {labels}"},
    "job_confused": {"en": "Still unsure on its own frames: {pairs}",
                     "ja": "撮影した画像でもまだ不確か: {pairs}"},
    "job_failed": {"en": "Enrollment failed: {error}", "ja": "登録に失敗しました: {error}"},
    # refusals (the API's message is English; the page shows ``text``)
    "err_no_camera": {"en": "No camera: {reason}", "ja": "カメラを開けません（{reason}）"},
    "err_camera_busy": {
        "en": "The game's camera is reading {spec}: enroll with another camera, or "
              "before the game's camera starts",
        "ja": "ゲームのカメラが {spec} を使っています。別のカメラで登録するか、"
              "ゲームのカメラを始める前に登録してください",
    },
    "err_deck_name": {
        "en": "Name the deck with 1-64 letters, digits, '_', '.' or '-', starting "
              "with a letter or digit",
        "ja": "デッキ名は英数字と _ . - の1〜64文字で、英数字で始めてください",
    },
    "err_nothing_taken": {"en": "No card taken yet: show the camera at least one card",
                          "ja": "まだ1枚も撮っていません。カードを1枚以上見せてください"},
    "err_busy": {"en": "A deck is being enrolled: wait until it is done",
                 "ja": "デッキを登録中です。終わるまでお待ちください"},
    "err_not_started": {"en": "Press Start first", "ja": "先に「開始」を押してください"},
}

SCRIPT_KEYS = ("start", "enroll", "skip", "redo", "captured", "missing", "unsure",
               "skipped", "page_n")


@bp.app_template_global("enroll_t")
def t(key: str, **values: Any) -> str:
    """The message ``key`` in the request's language."""
    lang = getattr(g, "lang", "en")
    entry = MESSAGES.get(key, {})
    text = entry.get(lang) or entry.get("en") or key
    return text.format(**values) if values else text


def card_text(label: str | None, deck_kind: str = "uno") -> str:
    """A label said in the request's language (the deck's card namer)."""
    from referee.text import card_name

    if not label:
        return "—"
    if label == "no card":
        return t("no_card")
    lang = getattr(g, "lang", "en")
    name = card_name(label, lang, deck_kind)
    if name == label and deck_kind != "uno":
        name = card_name(label, lang, "uno")
    return name


class _Holder:
    """The app's one wizard and one fine-tuning job."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.wizard: Wizard | None = None
        self.job: EnrollJob | None = None


def _holder() -> _Holder:
    return current_app.extensions.setdefault("tableref.enroll", _Holder())


def _refuse(code: int, message: str, key: str, **values: Any) -> None:
    """Abort with the app's JSON error (code ``key``), plus ``text``: the
    refusal said in the viewer's language, which is also the ``message`` of a
    viewer who reads another language than English. A ``reason`` that is
    another module's failure (an ``OSError``, a camera's error) is said by its
    kind in a language other than English (:func:`web.errors.failure_kind`),
    its own words in the body's ``detail`` (the kind as ``failure``)."""
    from .errors import FAILURES, failure_kind

    extra: dict[str, Any] = {}
    reason = values.get("reason")
    if isinstance(reason, BaseException):
        kind = failure_kind(reason) or "failed"
        extra = {"failure": kind, "detail": str(reason)[:500]}
        lang = viewer_lang()
        values["reason"] = (str(reason) if lang == "en"
                            else FAILURES[kind].get(lang) or str(reason))
    text = t(key, **values)
    said = message if viewer_lang() == "en" else text
    body = {"error": HTTP_STATUS_CODES.get(code, "Error"), "code": key,
            "message": said, "status": code, "text": text, **extra}
    abort(make_response(jsonify(body), code))


def _body() -> dict[str, Any]:
    data = api_body()
    if not isinstance(data, dict):
        fail(400, "enroll_body")
    return data


def _text(data: dict, key: str, default: str | None = None) -> str:
    value = data.get(key, default)
    if isinstance(value, int) and not isinstance(value, bool) and key == "camera":
        value = str(value)
    if not isinstance(value, str) or not value.strip():
        fail(400, "field_empty", name=key)
    if len(value) > MAX_TEXT or "\x00" in value:
        fail(400, "field_too_long", name=key)
    return value.strip()


def _decks_root() -> Path | None:
    root = current_app.config.get("DECKS_DIR")
    return Path(root) if root else None


def _not_a_card(spec: str) -> str | None:
    """The first label of a list ``spec`` (labels separated by commas, as
    :func:`vision.enroll_camera.label_set` reads it) that names no card
    (:meth:`referee.cards.Card.from_label` refuses it), or ``None``: the
    label a refusal names."""
    import referee.tgus_t.cards  # noqa: F401  (its labels are cards too)
    from referee.cards import Card, CardError

    for text in spec.split(","):
        text = text.strip()
        if not text:
            continue
        try:
            Card.from_label(text)
        except CardError:
            return text
    return None


def _labels(spec: str) -> tuple[list[str], str]:
    """The labels of ``spec`` and the deck whose card names say them."""
    from referee.cards import CLASSES
    from vision.enroll import EnrollError
    from vision.enroll_camera import label_set

    try:
        labels = label_set(spec)
    except (EnrollError, ValueError) as exc:
        bad = _not_a_card(spec)
        if bad is not None:  # the label itself, as the person wrote it
            fail(400, "label_not_card", label=repr(bad)[:60])
        fail(400, "labels_bad", why=str(exc)[:200])
    labels = list(dict.fromkeys(labels))
    if not labels:
        fail(400, "labels_none")
    kind = "tgus-t" if spec == "tgus-t" or any(x not in CLASSES for x in labels) \
        else "uno"
    return labels, kind


def _open_source(spec: str) -> Any:
    factory = current_app.config.get("ENROLL_SOURCE")
    if factory is not None:
        return factory(spec)
    from vision.sources import FrameSource

    source = FrameSource(int(spec) if spec.isdigit() else spec, realtime=True)
    source.open()
    return source


_TOOLS: dict[str, Any] = {}
_TOOLS_LOCK = threading.Lock()


def default_tools() -> tuple[Any, Any]:
    """The still-photo finder (``detector.photo_model``) and a reader of the
    shipped classifier (loaded once)."""
    with _TOOLS_LOCK:
        if "tools" not in _TOOLS:
            from vision.decks import CardFinder
            from vision.detector import Detector, photo_model

            detector = Detector(photo_model())
            _TOOLS["tools"] = (CardFinder(detector), shipped_reader(detector))
        return _TOOLS["tools"]


def shipped_reader(detector: Any):  # noqa: ANN201
    """(frame, boxes) -> [(label, probability)] by the shipped crop classifier."""
    import numpy as np

    from referee.cards import CLASSES

    def read(frame: Any, xyxy: Any) -> list[tuple[str, float]]:
        if getattr(detector, "classifier", None) is None:
            return []
        probs = detector._classify(np.ascontiguousarray(frame), xyxy)
        out = []
        for p in probs:
            k = int(np.argmax(p))
            out.append((CLASSES[k] if k < len(CLASSES) else "no card", float(p[k])))
        return out

    return read


def _wizard_or_409() -> Wizard:
    wizard = _holder().wizard
    if wizard is None:
        _refuse(409, "no enrollment started; POST /api/enroll/start first",
                "err_not_started")
    return wizard


def _label_of(wizard: Wizard, data: dict, required: bool) -> str | None:
    if "label" not in data or data["label"] in (None, ""):
        if required:
            fail(400, "label_required")
        return None
    label = data["label"]
    if not isinstance(label, str) or label not in wizard.cards:
        fail(400, "label_unknown", got=short(str(label)))
    return label


# -- pages ---------------------------------------------------------------------------
@bp.get("/enroll")
def page():
    """The wizard."""
    require_token()
    from vision.decks import list_decks

    from .camera import camera_choices

    holder = _holder()
    cameras = [c for c in camera_choices(current_app.config.get("VIDEO_DIRS", ()))
               if c["kind"] in ("index", "file")]
    return render_template(
        "enroll.html", t=t, decks=_deck_rows(list_decks(_decks_root())),
        cameras=cameras, has_device=any(c["kind"] == "index" for c in cameras),
        wizard=holder.wizard.snapshot() if holder.wizard else None,
        modes=MODES, label_sets=LABEL_SETS,
        script={k: t(k) for k in SCRIPT_KEYS},
    )


def _deck_rows(manifests: list) -> list[dict[str, Any]]:
    return [
        {"name": m.name, "cards": len(m.photos), "missing": len(m.missing),
         "unsure": len(m.confused), "created": m.created}
        for m in manifests
    ]


@bp.get("/enroll/sheet")
def sheet():
    """The layout sheet to print: the cards in pages of rows."""
    require_token()
    spec = request.args.get("labels", "uno")
    if len(spec) > MAX_TEXT:
        fail(400, "labels_too_long")
    labels, kind = _labels(spec)
    deck = request.args.get("deck", "")[:64]
    pages = [
        [[(x, card_text(x, kind)) for x in p[i : i + SHEET_COLUMNS]]
         for i in range(0, len(p), SHEET_COLUMNS)]
        for p in sheet_pages(labels)
    ]
    return render_template("enroll_sheet.html", t=t, pages=pages, deck=deck or spec)


@bp.get("/enroll/frame.jpg")
def frame():
    """The enrollment camera's latest frame with the boxes the finder drew."""
    require_token()
    import cv2

    wizard = _holder().wizard
    image = wizard.preview() if wizard is not None else None
    if image is None:
        fail(404, "no_enroll_frame")
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 75])
    if not ok:
        fail(404, "frame_not_encoded")
    return Response(buf.tobytes(), mimetype="image/jpeg",
                    headers={"Cache-Control": "no-store"})


# -- the API -------------------------------------------------------------------------
def _say_text(snap: dict[str, Any], said: str = "say") -> str:
    if snap[said] is None:
        return ""
    key, args = snap[said]["key"], dict(snap[said]["args"])
    if said == "say" and snap["state"] == "stopped":
        key = "stopped"
    elif said == "say" and snap["state"] == "error" and snap.get("error"):
        if key in ("error_finder", "error_camera"):
            return t("say_" + key, why=_why(snap.get("detail"), snap.get("failure")))
        return t("say_error") + ": " + str(snap["error"])
    kind = snap["deck_kind"]
    if "label" in args:
        args["card"] = card_text(args.pop("label"), kind)
    if "read" in args:
        args["read"] = card_text(args["read"], kind)
    if key == "clear" and snap["mode"] == "sheet":
        key = "clear_sheet"
    try:
        return t("say_" + key, **args)
    except (KeyError, IndexError):
        return t("say_" + key) if ("say_" + key) in MESSAGES else key


def _why(words: Any, failure: Any) -> str:
    """A failure said in the viewer's language: its own ``words`` in
    English, its kind (``failure``, a key of :data:`web.errors.FAILURES`) in
    another language (the words stay in the state's ``detail`` / ``error``)."""
    from .errors import FAILURES

    lang = viewer_lang()
    if lang == "en":
        return str(words)
    kind = FAILURES.get(failure) if isinstance(failure, str) else None
    return (kind or FAILURES["failed"]).get(lang) or str(words)


def _job_text(job: dict[str, Any]) -> str:
    if job["state"] == "training":
        return t("job_training", pct=int(round(100 * job["fraction"])))
    if job["state"] == "failed":
        return t("job_failed", error=_why(job["error"], job.get("failure")))
    lines = [t("job_done", deck=job["deck"], cards=job["cards"], photos=job["photos"],
               seconds=int(round(job["seconds"])))]
    if job["missing"]:
        lines.append(t("job_missing", labels=", ".join(job["missing"])))
    if job["confused"]:
        pairs = ", ".join(f"{a} ~ {b}" for a, b, *_ in job["confused"][:8])
        lines.append(t("job_confused", pairs=pairs))
    lines.append(t("use_deck", name=job["deck"]))
    return "\n".join(lines)


def _state() -> dict[str, Any]:
    holder = _holder()
    out: dict[str, Any] = {"wizard": None, "job": None}
    if holder.wizard is not None:
        snap = holder.wizard.snapshot()
        snap["text"] = _say_text(snap)
        snap["news_text"] = _say_text(snap, "news")
        for card in snap["cards"]:
            card["name"] = card_text(card["label"], snap["deck_kind"])
            card["read_name"] = card_text(card["read"], snap["deck_kind"]) \
                if card["read"] else None
        out["wizard"] = snap
    if holder.job is not None:
        job = holder.job.snapshot()
        job["text"] = _job_text(job)
        out["job"] = job
    return out


@bp.get("/api/enroll")
def state():
    """The wizard and the fine-tuning, as the page shows them."""
    require_token()
    return jsonify(_state())


def _camera_free(spec: str) -> None:
    """409 when the game's camera is reading ``spec`` now (one reader per device)."""
    from .table import get_table

    cam = getattr(get_table(), "camera", None)
    if cam is None or str(getattr(cam, "source", None)) != spec:
        return
    try:
        running = cam.status().get("state") not in ("unavailable", "ended", "error")
    except Exception:  # a camera that cannot say is not in the way
        return
    if running:
        _refuse(409, f"the game's camera is reading {spec}: enroll with another "
                     "camera, or before the game's camera starts",
                "err_camera_busy", spec=spec)


@bp.post("/api/enroll/start")
def start():
    """Open the camera and start asking for cards (replaces an unfinished wizard)."""
    data = _body()
    from vision.decks import DeckError, check_name

    try:
        deck = check_name(_text(data, "deck"))
    except DeckError as exc:
        _refuse(400, str(exc), "err_deck_name")
    labels, kind = _labels(_text(data, "labels", "uno"))
    camera = _text(data, "camera", "0")
    mode = data.get("mode", "one")
    if mode not in MODES:
        fail(400, "mode_unknown", modes=", ".join(MODES))
    _camera_free(camera)
    holder = _holder()
    with holder.lock:
        if holder.job is not None and holder.job.state == "training":
            _refuse(409, "a deck is being enrolled; wait until it is done", "err_busy")
        if holder.wizard is not None:
            holder.wizard.close()
            holder.wizard = None
        try:
            source = _open_source(camera)
        except Exception as exc:  # no camera, a missing file, an unreadable folder
            _refuse(409, f"no camera: {exc}", "err_no_camera", reason=exc)
        from vision.enroll_camera import GuideConfig

        holder.wizard = Wizard(
            deck, labels, source,
            current_app.config.get("ENROLL_TOOLS") or default_tools,
            current_app.config.get("ENROLL_GUIDE") or GuideConfig(),
            mode=mode, deck_kind=kind, camera=camera,
        ).start()
        holder.job = None
    return jsonify(_state()), 201


@bp.post("/api/enroll/skip")
def skip():
    """Skip a card (``label``) or the cards asked for now."""
    data = _body()
    wizard = _wizard_or_409()
    wizard.skip(_label_of(wizard, data, required=False))
    return jsonify(_state())


@bp.post("/api/enroll/redo")
def redo():
    """Take ``label`` (again) next."""
    data = _body()
    wizard = _wizard_or_409()
    wizard.redo(_label_of(wizard, data, required=True))
    return jsonify(_state())


@bp.post("/api/enroll/mode")
def mode():
    """One card at a time, or a page of the sheet (``page``, from 0)."""
    data = _body()
    wizard = _wizard_or_409()
    chosen = data.get("mode")
    if chosen not in MODES:
        fail(400, "mode_unknown", modes=", ".join(MODES))
    page = data.get("page")
    pages = len(sheet_pages(wizard.labels))
    if page is not None and (isinstance(page, bool) or not isinstance(page, int)
                             or not 0 <= page < pages):
        fail(400, "page_out_of_range", last=pages - 1)
    wizard.set_mode(chosen, page)
    return jsonify(_state())


@bp.post("/api/enroll/stop")
def stop():
    """Stop the camera (the cards taken stay; Start again to take more)."""
    _body()
    wizard = _wizard_or_409()
    wizard.close()
    return jsonify(_state())


@bp.post("/api/enroll/train")
def train():
    """Stop the camera and fine-tune on the cards taken, in the background."""
    _body()
    holder = _holder()
    with holder.lock:
        wizard = _wizard_or_409()
        if holder.job is not None and holder.job.state == "training":
            _refuse(409, "this deck is already being enrolled", "err_busy")
        shots = wizard.shots()
        if not shots:
            _refuse(409, "no card taken yet: show the camera at least one card",
                    "err_nothing_taken")
        wizard.close()
        trainer = current_app.config.get("ENROLL_TRAINER") or default_trainer
        holder.job = EnrollJob(wizard.deck, shots, trainer, _decks_root(),
                               asked=wizard.labels).start()
    return jsonify(_state()), 202
