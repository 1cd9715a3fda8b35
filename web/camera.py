"""The camera side of the page: the vision pipeline in a thread, or a replayed demo log.

``vision.pipeline`` is imported only here and only when a camera is started;
when it is missing or fails, the page keeps working on manual events and shows
the camera as unavailable with the reason.

A started camera keeps the table's completion of its events
(:attr:`Camera.handsfree`, a :class:`vision.handsfree.HandsFree` that reads the
live game's state): who played, passes, colours, and a drawn copy of the top
card held until the camera's next move, as ``tableref watch`` does.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

#: why a camera's events stopped coming (:attr:`Camera.ended`): its
#: ``source`` ran out by itself (a video file played to its end), the
#: recorded ``log`` played in its stead ran out, or it was ``lost`` (the
#: pipeline stopped on an error, a source it gave up on)
ENDS = ("source", "log", "lost")

#: why the camera does not run, as this module says it (:meth:`Camera.replaying`)
NO_SOURCE = "no camera source"

#: what the camera says, by what it knows, in each viewer's language
#: (:meth:`Camera.message`); ``{cause}``: why the camera does not run
SAID: dict[str, dict[str, str]] = {
    "replaying": {"en": "{cause}; replaying the demo table log instead",
                  "ja": "{cause}。代わりにデモの記録を再生しています"},
    "log": {"en": "{cause}; the demo table log has ended",
            "ja": "{cause}。デモの記録の再生は終わりました"},
    "lost": {"en": "the camera pipeline stopped: {cause}",
             "ja": "カメラ処理が止まりました: {cause}"},
    "source": {"en": "the camera's source has ended",
               "ja": "カメラの入力は終わりました"},
}
#: the causes this module names, in Japanese (others: :func:`web.i18n.camera_message`)
CAUSES = {NO_SOURCE: "カメラ入力がありません", "no camera": "カメラなし"}

#: the camera events the table refused (:meth:`Camera.refusal`), said after
#: the camera's message: how many, and the kind of the last (never why: the
#: reason may name a card, and the table view shows the camera's message)
REFUSED: dict[str, dict[str, str]] = {
    "one": {"en": "1 camera event was not recorded ({kind})",
            "ja": "カメラのイベント1件を記録できませんでした（{kind}）"},
    "many": {"en": "{n} camera events were not recorded (the last: {kind})",
             "ja": "カメラのイベント{n}件を記録できませんでした（最後: {kind}）"},
}
KINDS: dict[str, dict[str, str]] = {
    "start": {"en": "the first card", "ja": "最初の札"},
    "play": {"en": "a play", "ja": "出した札"},
    "draw": {"en": "a draw", "ja": "ドロー"},
    "pass": {"en": "a pass", "ja": "パス"},
    "reveal": {"en": "a shown hand", "ja": "見せた手札"},
    "uno": {"en": "an UNO call", "ja": "ウノ宣言"},
    "catch": {"en": "a catch", "ja": "指摘"},
    "challenge": {"en": "a challenge", "ja": "チャレンジ"},
}


def _viewer_lang() -> str:
    """The language of the request being answered (``en`` outside one)."""
    try:
        from flask import g, has_request_context
    except ImportError:  # pragma: no cover - flask is the page's own dependency
        return "en"
    return str(getattr(g, "lang", "en")) if has_request_context() else "en"


def _may_see_why() -> bool:
    """Whether the viewer may read why a camera event was refused (the
    referee, with the token; anyone outside a request)."""
    try:
        from flask import has_request_context

        from .security import has_token
    except ImportError:  # pragma: no cover
        return True
    return has_token() if has_request_context() else True


def _cause(text: str, lang: str, cause: bool = True,
           failure: str | None = None) -> str:
    """Why the camera does not run, in ``lang`` where it is known (in
    Japanese, a reason in another module's words by its kind of failure
    ``failure``, a key of :data:`web.errors.FAILURES` given where it was
    raised, its words after it in parentheses: :func:`web.i18n.camera_message`);
    ``cause``: ``text`` is such a reason (else a status message that may be
    one)."""
    if lang == "en":
        return text
    if text in CAUSES:
        return CAUSES[text]
    try:
        from flask import has_request_context

        from .i18n import camera_message
    except ImportError:  # pragma: no cover
        return text
    return camera_message(text, cause, failure) if has_request_context() else text


def _failure(exc: BaseException) -> str | None:
    """The kind of failure of ``exc`` (:func:`web.errors.failure_kind`: by
    the code it carries), ``None`` where it says none."""
    from .errors import failure_kind

    kind = failure_kind(exc)
    return None if kind in (None, "failed") else kind


def _checked(status: dict[str, Any]) -> dict[str, Any]:
    """A pipeline's status as the page shows it: ``state`` and ``message``
    text, ``fps`` a finite number, ``frames`` a count (a value of another
    kind is left out, ``error`` where the state is none)."""
    import math

    out = dict(status)
    if not isinstance(out.get("state"), str) or not out["state"]:
        out["state"] = "error"
    if out.get("message") is not None and not isinstance(out["message"], str):
        out["message"] = str(out["message"])
    fps = out.get("fps")
    if "fps" in out and (isinstance(fps, bool) or not isinstance(fps, (int, float))
                         or not math.isfinite(fps)):
        del out["fps"]
    frames = out.get("frames")
    if "frames" in out and (isinstance(frames, bool) or not isinstance(frames, int)):
        del out["frames"]
    return out


class Camera:
    """A :class:`vision.pipeline.TablePipeline` run in a daemon thread."""

    def __init__(self) -> None:
        self.pipeline: Any = None
        self.thread: threading.Thread | None = None
        self.stop = threading.Event()
        #: why the camera does not run (its pipeline's words), or ``None``
        self.error: str | None = "no camera started"
        #: the kind of failure :attr:`error` says (a key of
        #: :data:`web.errors.FAILURES`, from the code of the failure where it
        #: was raised), or ``None``: not known, or no failure
        self.failure: str | None = None
        #: whether a recorded log plays in the camera's stead (:meth:`replaying`)
        self.stand_in = False
        #: why its events stopped coming (one of :data:`ENDS`), or ``None``
        self.ended: str | None = None
        self.source: str | None = None
        self.refused = 0  # camera events the table refused (misreads, store errors)
        self.last_refusal: str | None = None
        self.last_refused_kind: str | None = None  # the last one's type
        #: the table's completion of camera events (``vision.handsfree``); set
        #: by :meth:`start`, reading the live game's state
        self.handsfree: Any = None
        #: a tgus-t game's re-reads (:mod:`web.reread`), for game
        #: :attr:`rereads_gid`; the worker's mode (``vision.reread_tgus_t``)
        self.rereads: Any = None
        self.rereads_gid: int | None = None
        self.reread_mode = "thread"
        #: called once its events stopped coming by themselves: the source
        #: ended or the camera was lost (:meth:`start`, :attr:`ended`)
        self.on_end: Callable[[], Any] | None = None
        #: evidence frames the table's store kept for this camera's events
        #: that no line of the log shows yet (path: game id), each kept while
        #: the camera path holds its event and deleted once it is dropped
        #: (``web.commands._frames_settled``)
        self.unlogged: dict[str, int] = {}
        self.swept: set[int] = set()  # games whose stray frames were looked for
        #: the game whose events it took last: what its path holds is that
        #: game's (handed to the camera that replaces it, web.commands._hand_over)
        self.game: int | None = None

    def replaying(self, cause: str | None = None) -> None:
        """A recorded log plays in the camera's stead (the demo's, where the
        camera cannot run); ``cause``: why the camera does not run (default:
        what it says now)."""
        failure = None
        if cause is None:
            failure = self.failure if self.error else self.pipeline_failure()
            cause = self.error or self._pipeline_message() or "no camera"
            failure = failure if cause != "no camera" else None
        self.error, self.stand_in, self.ended = cause, True, None
        self.failure = failure

    def _pipeline_message(self) -> str | None:
        try:
            return str(self.pipeline.status().get("message") or "") or None
        except Exception:
            return None

    def pipeline_failure(self, status: Any = None) -> str | None:
        """The kind of failure the pipeline's status (``status``, default:
        asked now) says, by a code, never by its words: its ``failure``, the
        one place a failure's kind is given
        (:meth:`vision.pipeline.TablePipeline.status` sets it with the state
        and message it goes with: its own, a detector
        that cannot load, or its source's while it retries or gave up, set
        where the source raised it); ``None``: none known. The source is not
        asked apart: what it says now may be of another moment than the
        status's message (a source reopened since)."""
        from .errors import FAILURES

        try:
            if status is None:
                status = self.pipeline.status()
            kind = status.get("failure")
        except Exception:
            return None
        return kind if isinstance(kind, str) and kind in FAILURES else None

    def message(self, lang: str = "en") -> str | None:
        """What the camera says when it does not run, in ``lang`` (``en``,
        ``ja``): why, and what plays in its stead and whether that ended;
        built here alone from :attr:`error`, :attr:`stand_in` and
        :attr:`ended`."""
        lang = lang if lang in SAID["log"] else "en"
        if self.stand_in:
            said = SAID["log" if self.ended == "log" else "replaying"][lang]
            return said.format(cause=_cause(self.error or "no camera", lang,
                                            failure=self.failure))
        if self.ended == "lost" and self.error:
            return SAID["lost"][lang].format(
                cause=_cause(self.error, lang, failure=self.failure))
        if self.ended == "source":
            return SAID["source"][lang]
        return _cause(self.error, lang, failure=self.failure) if self.error else None

    def refusal(self, why: str, kind: Any = None) -> None:
        """Note a camera event the table refused (``kind``: its type); the
        pipeline goes on."""
        self.refused += 1
        self.last_refusal = why
        self.last_refused_kind = kind if isinstance(kind, str) else None

    def refusals(self, lang: str = "en") -> str | None:
        """How many camera events the table refused and the kind of the last,
        in ``lang``, one sentence; ``None`` where it refused none."""
        if not self.refused:
            return None
        lang = lang if lang in SAID["log"] else "en"
        kind = self.last_refused_kind or "event"
        named = KINDS.get(kind, {}).get(lang, kind)
        said = REFUSED["one" if self.refused == 1 else "many"][lang]
        return said.format(n=self.refused, kind=named)

    def start(
        self,
        source: Any,
        header: dict[str, Any],
        on_event: Callable[[dict], Any],
        evidence_dir: str | None = None,
        table: Any = None,
        game_state: Callable[[], dict[str, Any]] | None = None,
        config: Any = None,
        on_end: Callable[[], Any] | None = None,
    ) -> bool:
        """Start the pipeline on ``source``; False (and :attr:`error` set) if not.

        ``game_state`` returns the live referee's state: UNO play detection
        settles close calls in favour of the legal play, and the round-end scan
        checks hand counts (see ``docs/vision.md``). ``config`` is the
        pipeline's :class:`vision.config.PipelineConfig` (``None``: defaults).
        ``on_end`` is called once the camera's events stopped coming by
        themselves (a video file's end, or the camera lost: :attr:`ended`
        says which; not when :attr:`stop` ended it), after its last event.
        """
        self.source = str(source)
        self.handsfree = _handsfree(game_state)
        try:
            from vision.pipeline import TablePipeline
        except Exception as exc:  # missing module or a broken install: page still works
            self.error = f"the camera pipeline is not available ({exc})"
            self.failure = _failure(exc)
            return False
        try:
            self.pipeline = TablePipeline(
                _source(source),
                game=header.get("game", "uno"),
                players=list(header["players"]),
                table=table,
                evidence_dir=evidence_dir,
                on_event=on_event,
                options=dict(header.get("options") or {}),
                game_state=game_state,
                **({} if config is None else {"config": config}),
            )
        except Exception as exc:
            self.error = f"the camera could not start on {source}: {exc}"
            self.failure = _failure(exc)
            return False
        self.error, self.stand_in, self.ended = None, False, None
        self.failure = None
        self.on_end = on_end
        self.thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self.thread.start()
        return True

    def _run(self) -> None:
        """Run the pipeline; once its events stop coming by themselves (the
        source ended, or the camera was lost: not when :attr:`stop` ended it)
        :attr:`ended` says why and :attr:`on_end` is called."""
        try:
            self.pipeline.run(self.stop)
        except Exception as exc:
            log.exception("the camera pipeline stopped")
            self.error, self.ended = str(exc) or type(exc).__name__, "lost"
            self.failure = _failure(exc)
        else:
            if self.stop.is_set():  # stopped (a restart, the server's end)
                return
            try:
                state = self.pipeline.status().get("state")
            except Exception:
                state = None
            self.ended = "source" if state == "ended" else "lost"
        if self.on_end is not None and not self.stop.is_set():
            try:
                self.on_end()
            except Exception:  # the page goes on without it
                log.exception("the end of the camera's source")

    def status(self, lang: str | None = None) -> dict[str, Any]:
        """The pipeline's status, or ``unavailable`` with the reason; the
        camera's own words (:meth:`message`) in ``lang`` (default: the
        viewer's, in a request). ``ended``: why its events stopped coming
        (:data:`ENDS`), where they did; ``stand_in``: a recorded log plays in
        its stead."""
        lang = lang or _viewer_lang()
        extra: dict[str, Any] = {}
        if self.ended is not None:
            extra["ended"] = self.ended
        if self.stand_in:
            extra["stand_in"] = True
        if self.pipeline is None or self.error:
            out = {"state": "unavailable", "message": self.message(lang),
                   "source": self.source, **extra}
            failure = self.failure if self.error else None
        else:
            try:
                out = _checked(dict(self.pipeline.status()))
            except Exception as exc:
                out = {"state": "error", "message": str(exc), "source": self.source}
            failure = self.pipeline_failure(out)
            if not out.get("message") and self.ended is not None:
                out["message"] = self.message(lang)
                failure = None  # the source's end: no failure
            out.update(extra)
        out.pop("failure", None)
        if failure is not None:  # the kind of failure its message says
            out["failure"] = failure
        if self.refused:  # said after the message, in the viewer's language
            out["refused"] = self.refused
            if _may_see_why():
                out["last_refusal"] = self.last_refusal
            message = out.get("message")
            refused = self.refusals(lang)
            out["message"] = refused if not message else \
                f"{_cause(str(message), lang, False, failure)} · {refused}"
        return out

    def jpeg(self) -> bytes | None:
        """The latest frame with the pipeline's overlays, or None."""
        if self.pipeline is None:
            return None
        try:
            frame = self.pipeline.latest_jpeg()
        except Exception:
            return None
        return frame if isinstance(frame, (bytes, bytearray)) else None


def _handsfree(game_state: Callable[[], dict[str, Any]] | None) -> Any:
    """A completion of camera events that reads the live game's state with
    ``game_state`` (so it can hold a drawn copy of the top card until the
    camera's next move), or ``None`` when hands-free refereeing is missing."""
    try:
        from vision.handsfree import HandsFree
    except Exception as exc:  # a broken install: the events go in as they come
        log.info("no hands-free completion: %s", exc)
        return None
    return HandsFree(state=game_state)


def _source(source: Any) -> Any:
    """A camera index given as text ("0") becomes an int; anything else stays."""
    return int(source) if isinstance(source, str) and source.isdigit() else source


def bundled_demo() -> tuple[str, dict[str, Any], Path | None] | None:
    """The pipeline's demo video, its header and its recorded log; None if absent."""
    try:
        from vision import pipeline

        video, header = pipeline.bundled_demo()
    except Exception as exc:
        log.info("no bundled demo video: %s", exc)
        return None
    if not Path(video).is_file():
        return None
    recorded = getattr(pipeline, "DEMO_LOG", None)
    return str(video), dict(header), Path(recorded) if recorded else None


def read_demo_log(path: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and events of a table log (the demo replayed without a camera)."""
    lines = [
        json.loads(s)
        for s in Path(path).read_text(encoding="utf-8").splitlines()
        if s.strip()
    ]
    return lines[0], lines[1:]


class LogPlayer:
    """Feeds recorded events to the table one at a time, as if they happened now.

    ``source``: the log's identity (what a restarted server playing it again
    from its start compares, :meth:`web.pending.Pending.plays`); by default
    ``log:`` and the SHA-256 of its events (their JSON, keys sorted).
    ``on_end`` is called once the log has ended, after its last event, as
    :meth:`Camera.start`'s is at the end of a video file (not when
    :attr:`stop` ended it).
    """

    def __init__(
        self,
        events: Iterable[dict[str, Any]],
        append: Callable[[dict], Any],
        interval: float = 2.0,
        paused: Callable[[], bool] = lambda: False,
        source: str | None = None,
        on_end: Callable[[], Any] | None = None,
        stop_with: threading.Event | None = None,
    ):
        self.events = list(events)
        self.on_end = on_end
        if source is None:
            import hashlib

            text = json.dumps(self.events, sort_keys=True, default=str)
            source = "log:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
        self.source = source
        self.paused = paused
        self.append = append
        self.interval = interval
        self.stop = threading.Event()  # set to stop it
        #: another stop it heeds too (the camera's, whose stead it plays in)
        self.stop_with = stop_with
        self.thread = threading.Thread(target=self._run, name="demo-log", daemon=True)

    def start(self) -> LogPlayer:
        self.thread.start()
        return self

    def _run(self) -> None:
        for event in self.events:
            if self.stop.wait(self.interval) or self.stopped():
                return
            while self.paused():  # a paused table holds the demo, it does not drop it
                if self.stop.wait(0.2) or self.stopped():
                    return
            event = dict(event)
            event["source"] = "vision"  # it stands in for the camera: pause applies
            try:
                self.append(event)
            except Exception as exc:
                log.warning("demo event not applied: %s", exc)
        if self.on_end is not None and not self.stopped():
            try:
                self.on_end()
            except Exception:  # the page goes on without it
                log.exception("the end of the demo table log")

    def stopped(self) -> bool:
        """Whether it was stopped, or the camera it plays for."""
        return self.stop.is_set() or (
            self.stop_with is not None and self.stop_with.is_set())


VIDEO_SUFFIXES = (".mp4", ".avi", ".mov", ".mkv", ".webm", ".m4v")
MAX_FILES = 50  # video files listed per folder


def camera_choices(
    video_dirs: Iterable[str | Path] = (),
    current: str | None = None,
    devices: str = "/dev/video*",
) -> list[dict[str, str]]:
    """What the setup page offers as the camera: ``{value, kind, label}`` each.

    Kinds: ``keep`` (the camera running now, value ``""``: the game starts
    without restarting it), ``index`` (a camera found as ``/dev/videoN``),
    ``file`` (a video file in ``video_dirs``), ``demo`` (the bundled demo
    video). The labels are the raw names; the page says them in its language.
    """
    import glob
    import re

    out: list[dict[str, str]] = []
    if current:
        out.append({"value": "", "kind": "keep", "label": str(current)})
    seen = {str(current)} if current else set()
    for dev in sorted(glob.glob(devices)):
        m = re.fullmatch(r".*?video(\d+)", dev)
        if m and m.group(1) not in seen:
            seen.add(m.group(1))
            out.append({"value": m.group(1), "kind": "index", "label": dev})
    for folder in video_dirs:
        try:
            files = sorted(
                p for p in Path(folder).iterdir() if p.suffix.lower() in VIDEO_SUFFIXES
            )[:MAX_FILES]
        except OSError:
            continue
        for path in files:
            if str(path) not in seen:
                seen.add(str(path))
                out.append({"value": str(path), "kind": "file", "label": path.name})
    demo = bundled_demo()
    if demo is not None and demo[0] not in seen:
        out.append({"value": demo[0], "kind": "demo", "label": Path(demo[0]).name})
    return out
