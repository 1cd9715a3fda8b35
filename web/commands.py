"""``tableref serve``: the camera pipeline, the referee and the page, in one process."""

from __future__ import annotations

import argparse
import ipaddress
import logging
import secrets
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

from referee.data import DEMO_LOG

from .camera import NO_SOURCE, Camera, LogPlayer, bundled_demo, read_demo_log
from .security import LOOPBACK
from .table import Table, TableError

log = logging.getLogger(__name__)


def serve_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "source",
        nargs="?",
        help="camera index, device or video file (none: the bundled demo)",
    )
    from vision.header_args import add_game_arguments

    add_game_arguments(p)  # the same game options as 'tableref watch'
    p.add_argument("--calibration", help="table calibration file for the camera")
    p.add_argument(
        "--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)"
    )
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any)")
    p.add_argument(
        "--db",
        help="game store, shared with 'tableref history' (default: $TABLEREF_DB, "
        "else ~/.local/share/tableref/tableref.sqlite3)",
    )
    p.add_argument(
        "--token", help="control token (default: a random one when not on localhost)"
    )
    p.add_argument(
        "--new",
        action="store_true",
        help="start a new game even if the last stored one can be resumed",
    )
    p.add_argument(
        "--listen",
        nargs="?",
        const="",
        metavar="DEVICE|FILE",
        help="also listen for UNO calls (voice) on a microphone or audio file",
    )
    p.add_argument(
        "--demo-log",
        action="store_true",
        help="with no SOURCE: replay the demo table log instead of the demo video",
    )
    p.add_argument(
        "--demo-interval",
        type=float,
        default=2.0,
        help="seconds between events when the demo log is replayed",
    )
    from vision.config_load import add_config_arguments

    add_config_arguments(p)  # the camera pipeline's thresholds


def _header(args: argparse.Namespace) -> dict[str, Any] | None:
    from vision.header_args import HeaderError, header_from_args

    try:
        return header_from_args(args)
    except HeaderError as exc:
        raise SystemExit(f"tableref serve: {exc}") from None


def is_loopback(host: str) -> bool:
    """True for localhost, 127.0.0.0/8 and ::1."""
    if host in LOOPBACK:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _choose_game(
    table: Table,
    args: argparse.Namespace,
    header: dict | None,
    demo_header: dict | None,
) -> bool:
    """Resume the stored game or start a new one; True if a new one was started."""
    resumable = table.gid is not None and not (table.referee.state().get("over"))
    if resumable and not args.new and header is None:
        print(
            f"tableref serve: resuming game {table.gid} "
            f"({len(table.referee.events)} events); --new starts another"
        )
        return False
    wanted = header or demo_header
    if wanted is None:
        print(
            "tableref serve: give --players to start a game, or set one up on the page",
            file=sys.stderr,
        )
        return False
    try:
        gid = table.new_game(wanted)
    except (TableError, ValueError) as exc:
        print(
            f"tableref serve: {getattr(exc, 'message', exc)}; set one up on the page",
            file=sys.stderr,
        )
        return False
    print(f"tableref serve: new game {gid}: {', '.join(wanted['players'])}")
    return True


def _listen(table: Table, target: str, colour_after: float | None = None,
            listen: Any = None, likely_play: float | None = None) -> Any:
    """Start the voice listener (its own thread); None, with a message, if it cannot.
    ``colour_after``: how long after its wild a heard colour names it
    (``listen.colour_after_s``; None: the listener's default); likewise
    ``likely_play`` (``listen.likely_play_s``). With
    ``listen`` (the pipeline's :class:`vision.config.ListenConfig`), an audio
    file is the camera's video's sound track, heard as ``tableref watch``
    hears it: read ahead on the video's clock, each heard event held until
    the camera reaches its time and attributed then
    (:attr:`Table.hearing`, a :class:`vision.hearing.Hearing`). Without it, an
    audio file is heard in real time and each event recorded as heard, but
    for those a resumed game already took from the same file
    (:meth:`web.pending.Pending.listened`)."""
    try:
        from voice.bridge import listen_into
    except Exception as exc:
        print(
            f"tableref serve: voice listening is not available ({exc})", file=sys.stderr
        )
        return None
    beside = listen is not None and bool(target) and Path(target).is_file()
    if beside:
        kwargs: dict[str, Any] = {"file": target, "attribute_later": True,
                                  "clock": lambda: _video_time(table)}
    elif target and Path(target).is_file():
        kwargs = {"file": target, "realtime": True}
    else:
        kwargs = {"device": int(target) if target.isdigit() else (target or None)}
    # an audio file heard on its own: a restart hears it again from its start
    played = str(target) if "file" in kwargs and not beside else None
    if colour_after is not None:
        kwargs["colour_after"] = colour_after
    if likely_play is not None:
        kwargs["likely_play"] = likely_play
    if beside:
        table.hearing = _hearing(listen, colour_after)
        if table.hearing is None:
            return None

    def append(event: dict) -> Any:
        if beside:  # held until the camera reaches its time
            with table.lock:
                table.pending.take_up(table.camera)
                if table.pending.heard(event):  # not one a restart hears again
                    table.hearing.hear({**event, "source": event.get("source", "voice")})
                table.pending.save()
            return None
        try:
            with table.lock:  # a file heard again from its start: not taken twice
                if not table.pending.listened(played, event):
                    return None
                out = table.append(event, source="voice")
                table.pending.save()
                return out
        except ValueError as exc:  # no game yet, a bad event: say so, keep listening
            print(f"tableref serve: voice event not recorded: {exc}", file=sys.stderr)
            return None

    mine: dict[str, Any] = {}  # the listener, once started

    def state() -> dict:
        listener = mine.get("handle")
        if listener is not None and not beside:  # it judges calls itself
            with table.lock:  # what it learnt read again for a new or resumed game
                table.pending.listening(listener)
        return table.snapshot(public=False).get("state") or {}

    try:
        handle = listen_into(append, state, **kwargs)
    except Exception as exc:
        print(f"tableref serve: cannot listen: {exc}", file=sys.stderr)
        return None
    mine["handle"] = handle
    print(f"tableref serve: listening for UNO calls on {target or 'the microphone'}")
    return handle


def _hearing(listen: Any, colour_after: float | None) -> Any:
    """A :class:`vision.hearing.Hearing` with the listener's attributor, or
    None (said on standard error) where this installation has none."""
    try:
        from vision.hearing import Hearing
        from voice.bridge import Attributor
    except Exception as exc:
        print(f"tableref serve: cannot hold heard events ({exc})", file=sys.stderr)
        return None
    hearing = Hearing(lambda e: [], lambda: {}, lambda: listen)
    hearing.attribute = (Attributor() if colour_after is None
                         else Attributor(after=colour_after))
    return hearing


def _video_time(table: Table) -> float:
    """The video time of the camera's newest frame (the game clock of a
    sound track heard beside it)."""
    pipeline = getattr(table.camera, "pipeline", None)
    return float(getattr(pipeline, "_last_t", 0.0) or 0.0)


def _heard_up_to(table: Table, t: float, wait_s: float = 30.0) -> None:
    """A sound track heard beside the camera: wait (up to ``wait_s``) until
    the listener has heard up to camera time ``t``, as ``watch`` does."""
    listener = table.listener
    if table.hearing is None or listener is None:
        return
    waited = 0.0
    while getattr(listener, "heard_until", t) < t and waited < wait_s:
        time.sleep(0.01)
        waited += 0.01


def _demo_fallback(
    table: Table,
    camera: Camera,
    events: list[dict],
    interval: float,
    wait: float = 10.0,
) -> None:
    """Replay the demo's recorded log if the camera cannot run (no pipeline, model);
    the events a resumed game already took from it are not taken again
    (:meth:`web.pending.Pending.plays`). Its end is the camera's
    (:func:`_camera_ended`): a copy still held for the camera's next move
    stands, as at the end of a video file."""

    def run() -> None:
        deadline = time.monotonic() + wait
        while camera.pipeline is not None and time.monotonic() < deadline:
            if camera.status().get("state") not in ("starting",):
                break
            time.sleep(0.2)
        if camera.status(lang="en").get("state") not in ("unavailable", "error"):
            return
        camera.replaying()  # why the camera does not run, and the log instead
        player = LogPlayer(
            events,
            lambda e: _camera_event(table, camera, e),
            interval=interval,
            paused=lambda: table.paused,
            on_end=lambda: _log_ended(table, camera),  # as a video's end
            stop_with=camera.stop,  # a camera replaced ends the log in its stead
        )
        with table.lock:  # played from its start again by a restarted server
            table.pending.plays(camera, player.source)
        player.start()

    threading.Thread(target=run, name="demo-fallback", daemon=True).start()


def _log_ended(table: Table, camera: Camera) -> None:
    """The demo's log replayed in the camera's stead ended: the camera's end
    is the log's (:attr:`web.camera.Camera.ended`, which its message says),
    and the end is the camera's (:func:`_camera_ended`)."""
    camera.ended = "log"
    _camera_ended(table, camera)


# Documentation addresses (RFC 5737, RFC 3849): a UDP socket "connected" to one
# tells which local address the system would route from; connect() sends nothing.
ROUTE_PROBE = {socket.AF_INET: "192.0.2.1", socket.AF_INET6: "2001:db8::1"}


def reachable_host(host: str) -> str:
    """An address other machines can open for a server bound to ``host``.

    A wildcard bind (``0.0.0.0``, ``::``) gives this machine's LAN address (the
    source address of its route out, found without sending anything), else
    its host name; any other address is itself.
    """
    if host not in ("0.0.0.0", "::", ""):
        return host
    family = socket.AF_INET6 if host == "::" else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect((ROUTE_PROBE[family], 9))
            address = str(probe.getsockname()[0])
        ip = ipaddress.ip_address(address.split("%")[0])
        if not ip.is_unspecified and not ip.is_loopback:
            return address
    except (OSError, ValueError):  # no route out (an offline machine)
        pass
    return socket.gethostname() or "localhost"


def serve(args: argparse.Namespace) -> int:
    """Start the pipeline, the referee and the page; print the URL; serve until ^C."""
    from werkzeug.serving import make_server

    from vision.config import ConfigError
    from vision.config_load import config_from_args

    from . import create_app

    try:
        pipeline_config = config_from_args(args)
    except ConfigError as exc:
        print(f"tableref serve: {exc}", file=sys.stderr)
        return 2

    config: dict[str, Any] = {}
    if args.db:
        config["DATABASE"] = str(Path(args.db).resolve())
    token = args.token
    if not is_loopback(args.host):
        token = token or secrets.token_urlsafe(16)
        config["ALLOWED_HOSTS"] = (
            None  # reached by this machine's address, whatever it is
        )
    config["TOKEN"] = token
    app = create_app(config)
    store = app.extensions["tableref.store"]
    if getattr(store, "durable", True) is False:
        print(
            "tableref serve: warning: no durable game store installed; games live in "
            "memory only",
            file=sys.stderr,
        )
    table: Table = app.extensions["tableref.table"]
    evidence = Path(app.config["EVIDENCE_DIRS"][-1])  # the store's, where it has one
    from .sweep import sweep

    swept = sweep(store, evidence)  # what a stop left half-done, before the camera
    if swept:
        print(f"tableref serve: deleted {len(swept)} file(s) a stop left half-written")
    table.camera = camera = Camera()

    source, demo_header, demo_events = args.source, None, None
    if source is None:
        demo = None if args.demo_log else bundled_demo()
        if demo is not None:
            source, demo_header, recorded = demo
            if recorded is not None and recorded.is_file():
                demo_events = read_demo_log(recorded)[1]
        else:
            demo_header, demo_events = read_demo_log(DEMO_LOG)
    started = _choose_game(table, args, _header(args), demo_header)
    current = {"source": source, "calibration": args.calibration}

    def start_camera(src: str | None = None, calibration: str | None = None) -> dict:
        """(Re)start the camera for the current game; used by the setup page too."""
        nonlocal camera
        old = camera
        old.stop.set()  # its late events are not taken (_camera_event)
        with table.lock:  # what the old camera held goes on with the new one
            table.camera = camera = new = Camera()
            _hand_over(table, old, new)
        current["source"] = src or current["source"]
        current["calibration"] = calibration or current["calibration"]
        if table.referee is None or current["source"] is None:
            camera.error = (
                "no game is running" if table.referee is None else "no camera"
            )
            return camera.status()
        camera.start(  # each callback bound to this camera, not the next one
            current["source"],
            table.referee.header.to_dict(),
            lambda e: _camera_event(table, new, e),
            evidence_dir=str(evidence / f"camera-{table.gid}"),
            table=current["calibration"],
            game_state=lambda: _game_state(table),
            config=pipeline_config,
            on_end=lambda: _camera_ended(table, new),
        )
        return camera.status()

    app.extensions["tableref.start_camera"] = start_camera
    status = start_camera() if source is not None else None
    if status is not None:
        print(
            f"tableref serve: camera {source}: {status.get('state')}"
            f"{': ' + str(status['message']) if status.get('message') else ''}"
        )
    if started and demo_events:
        if source is None:
            camera.replaying(NO_SOURCE)
        _demo_fallback(table, camera, demo_events, args.demo_interval)
    listen = args.listen
    if listen is None and args.source is None and source is not None:
        # the bundled demo: its sound track is the table's microphone
        from vision.demo.run import audio_beside

        track = audio_beside(Path(source))
        listen = str(track) if track is not None else None
    if listen is not None:
        table.listener = _listen(
            table, listen, pipeline_config.listen.colour_after_s,
            pipeline_config.listen if source is not None else None,
            pipeline_config.listen.likely_play_s)

    try:
        server = make_server(args.host, args.port, app, threaded=True)
    except (OSError, SystemExit) as exc:  # werkzeug exits itself on a taken port
        why = getattr(exc, "strerror", None) or "the address is in use or not available"
        print(
            f"tableref serve: cannot listen on {args.host}:{args.port}: {why}",
            file=sys.stderr,
        )
        camera.stop.set()
        return 2
    host = reachable_host(args.host)
    host = host if ":" not in host else f"[{host.split('%')[0]}]"
    url = f"http://{host}:{server.server_port}/"
    if token:
        url += f"?token={token}"
        print(f"tableref serve: control token: {token}")
    print(f"tableref serve: open {url}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        camera.stop.set()
        server.server_close()
    return 0


def _game_state(table: Table) -> dict:
    """The live referee's state for the camera's thread (empty with no game)."""
    with table.lock:
        return table.referee.state() if table.referee is not None else {}


def _amend(table: Table, event: dict[str, Any], play: Any = None) -> None:
    """A tgus-t camera play or draw ruled illegal that a card hidden under an
    earlier play, a Gamble's unheard effect or the top card seen again explains
    (:func:`vision.handsfree_tgus_t.amendment`): that one correction is made
    like a person's (stored, announced, undoable), but as the camera's own, so
    that the game's re-reads go on (:mod:`web.reread`). ``play`` is the camera
    pipeline's :class:`vision.config.PlayConfig` (``None``: the defaults)."""
    from vision.handsfree_tgus_t import TGUS_T_RULES, amendment

    from . import corrections

    with table.lock:  # found on a copy of the referee as it stands
        referee = table.referee
        if (
            event.get("type") not in ("play", "draw") or referee is None
            or referee.header.rules not in TGUS_T_RULES
        ):
            return
        found = amendment(referee, play)
    if found is None:
        return
    action, line, amended = found
    if action == "delete":
        corrections.delete(table, line)
    else:
        corrections.correct(table, line, amended)


def _colours_again(table: Table, held: dict | None = None,
                   move: dict | None = None) -> None:
    """A held copy stood: the heard colours that wait for their wild, tried
    now (the listener's, or those held for the camera, :func:`web.recover.stood`)."""
    from . import recover

    if table.hearing is not None and held is not None and move is not None:
        recover.stood(table, table.camera, held, move)
    if table.listener is not None:
        table.listener.retry_colours()


def _camera_ended(table: Table, camera: Camera) -> None:
    """The camera's events stopped coming (its source ended, the log played
    in its stead ended, or the camera was lost: :attr:`Camera.ended`): a copy
    still held for the camera's next move stands, as at the end of
    ``tableref watch``; a tgus-t game's last play is read as the players'
    last cards put down together only where the source ran out by itself (a
    lost camera is not a game over)."""
    from . import recover

    _heard_up_to(table, float("inf"))  # the sound track's last words first
    play = getattr(getattr(camera.pipeline, "config", None), "play", None)
    with table.lock:
        if table.camera is camera and not table.paused:
            if table.pending.loaded is not None:  # a copy held at a restart
                _completion(table, camera)
            table.pending.take_up(camera)
            recover.finish(table, camera, lambda: _game_state(table),
                           lambda e: _amend(table, e, play),
                           ended=getattr(camera, "ended", None) != "lost")
            table.pending.save()
    _frames_settled(table, camera)


def _completion(table: Table, camera: Camera) -> None:
    """The camera's completion of its events (who played, passes, colours),
    made where none was started with it (a replayed log)."""
    if camera.handsfree is None:
        from vision.handsfree import HandsFree

        camera.handsfree = HandsFree(state=lambda: _game_state(table))
    if getattr(camera.handsfree, "on_stood", False) is None:
        # a held copy that stands may be the wild a heard colour waits for
        camera.handsfree.on_stood = lambda held, move: _colours_again(
            table, held, move)


def _camera_event(table: Table, camera: Camera, event: dict) -> None:
    """Record one camera event; a refusal is reported, never fatal to the camera.

    The pipeline's evidence frame is handed to the store (``save_evidence``),
    which enforces the size limit and retention, and the event points at the
    store's copy. The event is completed and the log read again where the
    camera's plays say how it went, as ``tableref watch`` does
    (:mod:`web.recover`). In a tgus-t game the event is kept as it came, and
    one whose lines stay ruled illegal asks for a re-read, run off this
    callback (:mod:`web.reread`). What the camera path then holds until a
    later event is saved beside the stored game, and what a resumed game had
    saved is taken up first (:mod:`web.pending`). An event of a recording
    that this game already took (played again from its start after a restart)
    is dropped before its frame is kept: the pipeline's frame is deleted.
    The store keeps a frame before a line that names it is stored (a stop
    between the two leaves no line naming a missing frame); a frame whose
    event the table then did not log (dropped while paused, refused, folded
    into another) is deleted from the store (:func:`_frames_settled`).
    """
    from . import recover, reread

    rereads = None
    try:
        with table.lock:  # a recording played again: taken already? (web.pending)
            if _replaced(table, camera):  # a late event of a camera replaced
                _late(camera, event)
                return
            again = table.pending.replayed(camera, event)
        frame, gid = event.get("evidence"), table.gid
        # a line names the store's copy of its frame or none (never the
        # pipeline's file, gone once the store has its copy or the event is
        # dropped, nor one that was not written)
        event = {k: v for k, v in event.items() if k != "evidence"}
        there = isinstance(frame, str) and _is_file(frame)
        if there and not again and gid is not None:
            try:
                kept = table.store.save_evidence(gid, Path(frame).read_bytes())
            except Exception as exc:  # no room for the frame: keep the event anyway
                log.warning("evidence frame %s not kept: %s", frame, exc)
            else:
                camera.unlogged[kept] = gid  # until a line shows it
                event["evidence"] = kept
        if there:  # kept by the store, or not at all
            Path(frame).unlink(missing_ok=True)
        _completion(table, camera)
        play = getattr(getattr(camera.pipeline, "config", None), "play", None)
        if event.get("source") == "vision":  # a sound track heard up to it
            _heard_up_to(table, float(event.get("t", 0)))
        with table.lock:
            if _replaced(table, camera):  # replaced since: the store's copy too
                kept = event.get("evidence")
                drop = getattr(table.store, "drop_evidence", None)
                if camera.unlogged.pop(kept, None) is not None and drop is not None:
                    drop(gid, kept)
                return
            camera.game = table.gid  # what it holds is this game's
            _frames_loaded(table, camera)
            table.pending.take_up(camera)  # what a resumed game had pending
            rereads = None if table.paused else reread.rereads_for(table, camera)
            recover.take_camera_event(
                table, camera, event, lambda: _game_state(table),
                lambda e: _amend(table, e, play), play, rereads, replayed=again)
            table.pending.save()
    except Exception as exc:
        why = getattr(exc, "message", None) or str(exc)
        log.warning("camera event %s refused: %s", event.get("type"), why)
        camera.refusal(f"{event.get('type')} refused: {why}", event.get("type"))
    finally:
        _frames_settled(table, camera)
        if rereads is not None:  # queued with the table's lock released
            rereads.flush()


def _replaced(table: Table, camera: Camera) -> bool:
    """Whether ``camera`` was stopped and another took its place (its events
    are not the table's any longer: they may be of another game)."""
    return camera.stop.is_set() and table.camera is not camera


def _late(camera: Camera, event: dict) -> None:
    """An event a replaced camera sent after it was stopped: not taken, and
    the pipeline's frame of it deleted (the store never had it)."""
    log.info("camera event %s of a camera replaced not taken", event.get("type"))
    frame = event.get("evidence")
    if isinstance(frame, str) and _is_file(frame):
        Path(frame).unlink(missing_ok=True)


def _hand_over(table: Table, old: Camera, new: Camera) -> None:
    """The table's camera ``old`` is replaced by ``new`` (under the table's
    lock): the frames ``old`` followed go on waiting for their lines
    (:attr:`Camera.unlogged`, each game's own), and where the game it took
    its events for still runs, what its path held (a copy held for the next
    move, the tgus-t completion's memory, the recoveries, the re-reads) is
    taken up by ``new`` at its first event, as a restarted server takes
    them up (:meth:`web.pending.Pending.hand_over`)."""
    for frame, gid in old.unlogged.items():
        new.unlogged.setdefault(frame, gid)
    old.unlogged.clear()
    if old.game is not None and old.game == table.gid and table.referee is not None:
        table.pending.hand_over(old)


def _is_file(path: str) -> bool:
    """Whether ``path`` names a file (``False`` for one no system can open)."""
    try:
        return Path(path).is_file()
    except (OSError, ValueError):
        return False


def _frames_in(data: Any) -> set[str]:
    """The evidence frames that events in ``data`` (nested lists and
    objects: what the camera path holds, :meth:`web.pending.Pending.data`) name."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            frame = item.get("evidence")
            if isinstance(frame, str):
                found.add(frame)
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


def _frames_loaded(table: Table, camera: Camera) -> None:
    """Before a camera event is taken (under the table's lock): the frames a
    resumed game's pending state names (its held events), and, once for each
    game this camera serves, every frame the store keeps for the game that
    no line of its log shows (one kept just before a stop, whose line was
    never stored), wait as the camera's own (:func:`_frames_settled`: those
    nothing holds or names any longer are deleted)."""
    gid, referee = table.gid, table.referee
    if gid is None or referee is None:
        return
    loaded = table.pending.loaded
    if loaded is not None and loaded.get("gid") == gid:
        for frame in _frames_in({k: v for k, v in loaded.items() if k != "gid"}):
            camera.unlogged.setdefault(frame, gid)
    if gid in camera.swept:
        return
    camera.swept.add(gid)
    listed = getattr(table.store, "evidence", None)
    try:
        frames = list(listed(gid)) if callable(listed) else []
    except Exception as exc:  # the frames stay as they are
        log.warning("the evidence frames of game %s were not listed: %s", gid, exc)
        return
    logged = {e.get("evidence") for e in referee.events}
    for frame in frames:
        if isinstance(frame, str) and frame not in logged:
            camera.unlogged.setdefault(frame, gid)


def _frames_settled(table: Table, camera: Camera) -> None:
    """The evidence frames the store kept for the camera's events, once an
    event is taken: a frame a line of the log shows stays for good; one whose
    event the camera path still holds (a copy held for the next move, an
    event kept to be read again: :meth:`web.pending.Pending.data`) waits; any
    other was an event's the table did not log (dropped while paused,
    refused, folded into another) and is deleted from the store, which keeps
    a frame that any stored line names (``drop_evidence``). Another game's
    frames wait for that game (its held copy is taken up when it is
    resumed)."""
    waiting = camera.unlogged
    if not waiting:
        return
    with table.lock:
        gid, referee = table.gid, table.referee
        if gid is None or referee is None:
            return
        logged = {e.get("evidence") for e in referee.events}
        held: set[str] | None = None
        for frame, game in list(waiting.items()):
            if game != gid:
                continue
            if frame in logged:
                del waiting[frame]
                continue
            if held is None:
                try:  # held now, or by the state saved last (a restart's)
                    held = _frames_in(table.pending.data())
                    held |= _frames_in(table.pending.saved())
                except Exception:  # what is held cannot be read: keep them all
                    log.warning("the camera's held events could not be read",
                                exc_info=True)
                    return
            if frame in held:
                continue
            del waiting[frame]
            drop = getattr(table.store, "drop_evidence", None)
            if drop is None:
                continue
            try:
                drop(gid, frame)
            except Exception as exc:  # the frame stays; the page goes on
                log.warning("evidence frame %s of a dropped event not deleted: %s",
                            frame, exc)

