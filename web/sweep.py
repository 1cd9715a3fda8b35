"""Files a stopped server left half-done in the store's folders, swept at start.

``tableref serve`` killed at any moment leaves at worst files that nothing
names, never a record that names a missing file (each write goes file first,
then the row or line that names it):

* the pipeline's copy of an evidence frame in ``camera-<gid>/`` beside the
  store's frames (written by the pipeline, deleted once the store has its own
  copy or the event is dropped): a stop in between leaves it there;
* a frame in the store's folder of a game (``<db>-evidence/<gid>/``) that no
  row of the store names: a stop after the file was written and before its
  row went in, or the temporary file of a frame being written;
* the temporary file of a pending state or undo history being written
  (``<db>-camera/game-<gid>.json.tmp``, ``<db>-undo/...``), left where a stop
  came before its rename.

:func:`sweep` deletes them when the server starts, before its camera runs. A
frame file whose name a row or any stored line (of any version of the log:
the audit trail) names is kept, however its path was written; a frame a row
names whose line never went in is the camera path's to delete
(``web.commands._frames_loaded``): it may be held across the restart. A store that keeps nothing on disk
(:class:`web.memstore.MemoryStore`) has no folder swept but the pipeline's.

Another server may run on the same store (:mod:`web.lease`): the games it
holds are its own, live, and none of their files is swept (a frame it has
written and is about to name, its pipeline's copies, its states being
written); while a live server's games cannot be read, nothing of a game is.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .lease import Others, choosing, others

log = logging.getLogger(__name__)

#: the pipeline's evidence folders (one a game) beside the store's frames
PIPELINE_GLOB = "camera-*"
#: the files kept beside a stored game that are written whole, then renamed
BESIDE = ("camera", "undo")


def _files(folder: Path, pattern: str = "*") -> list[Path]:
    """The plain files (not links) in ``folder`` matching ``pattern``."""
    try:
        return [p for p in folder.glob(pattern) if p.is_file() and not p.is_symlink()]
    except OSError:
        return []


def _delete(paths: Iterable[Path], swept: list[Path]) -> None:
    for path in paths:
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        except OSError as exc:
            log.warning("could not delete %s left by a stop: %s", path, exc)
            continue
        swept.append(path)


def _same(path: Any) -> str:
    """The name a frame has in its game's folder, however its path was written
    (relative to another working folder, absolute): the store names each
    frame of a game once, so the name alone is what is compared (a match in
    doubt keeps the file)."""
    return os.path.normcase(os.path.basename(os.fspath(path)))


def _named_by_lines(store: Any, gid: int) -> set[str]:
    """The frames any version of game ``gid``'s log names (the audit trail too)."""
    versions = {0, *(int(c["version"]) for c in store.corrections(gid))}
    named: set[str] = set()
    for version in sorted(versions):
        for event in store.events(gid, version):
            frame = event.get("evidence") if isinstance(event, dict) else None
            if isinstance(frame, str):
                named.add(_same(frame))
    return named


def _gid(name: str) -> int | None:
    """The game a swept name is of (``camera-7``, ``7``, ``game-7.json.tmp``)."""
    m = re.fullmatch(r"(?:camera-|game-)?(\d{1,18})(?:\.json\.tmp)?", name)
    return int(m.group(1)) if m else None


def _theirs(held: Others, name: str) -> bool:
    """True if what ``name`` is of may be another live server's."""
    if not held:
        return False
    gid = _gid(name)
    return gid is None or held.holds(gid)


def _store_frames(store: Any, swept: list[Path], held: Others) -> None:
    """Files in the store's game folders that no row nor line names."""
    folder = getattr(store, "evidence_dir", None)
    if folder is None or not hasattr(store, "corrections"):
        return  # a store that keeps no frames of its own on the disk
    folder = Path(folder)
    if not folder.is_dir():
        return
    try:  # a game whose header cannot be read back is listed (damaged)
        games = list(store.games())
    except (RuntimeError, OSError) as exc:  # the store could not be read
        log.warning("stray frames not looked for: the stored games cannot be "
                    "listed (%s: %s)", type(exc).__name__, exc)
        return
    for game in games:
        gid = int(game["id"] if isinstance(game, dict) else game.id)
        if held.holds(gid):
            continue  # another live server's game: its files are its own
        files = _files(folder / str(gid))
        if not files:
            continue
        try:
            rows = {_same(p) for p in store.evidence(gid)}
            strays = [p for p in files if _same(p) not in rows]
            # only then read the log's versions
            lines = _named_by_lines(store, gid) if strays else set()
        except (RuntimeError, OSError) as exc:  # a line it cannot read back, a
            # read that failed: all kept (in doubt, a line may name a frame)
            log.warning("game %s: stray frames kept: its log cannot be read "
                        "back (%s: %s)", gid, type(exc).__name__, exc)
            continue
        _delete((p for p in strays if _same(p) not in lines), swept)


def _pipeline_copies(folder: Path | None, swept: list[Path], held: Others) -> None:
    """The pipeline's copies of frames it wrote before a stop; their folders
    too once empty."""
    if folder is None or not folder.is_dir():
        return
    for sub in folder.glob(PIPELINE_GLOB):
        if not sub.is_dir() or sub.is_symlink() or _theirs(held, sub.name):
            continue
        _delete(_files(sub, "*.jpg"), swept)
        try:
            sub.rmdir()
        except OSError:  # something else is in it: left as it is
            pass


def _temporary(store: Any, swept: list[Path], held: Others) -> None:
    """The temporary files of states written whole beside the stored games."""
    from .undo import beside

    for kind in BESIDE:
        target = beside(store, 0, kind)
        if target is not None:
            _delete((p for p in _files(target.parent, "game-*.json.tmp")
                     if not _theirs(held, p.name)), swept)


def sweep(store: Any, pipeline_dir: str | os.PathLike[str] | None = None) -> list[Path]:
    """Delete what a stopped server left half-done (see the module's doc):
    call it before the camera starts. Returns the files deleted; a folder
    that cannot be read or a file that cannot be deleted is said in the
    server's log and left. The games another live server on the same store
    holds are left alone (:mod:`web.lease`)."""
    swept: list[Path] = []
    with choosing(store):
        try:
            held = others(store)
        except Exception:  # in doubt, every game may be another's
            log.warning("the store's other servers could not be read", exc_info=True)
            held = Others()
            held.unknown = True
        if held:
            log.info("another server holds games %s of this store: not swept",
                     sorted(held.games) or "(unknown)")
        for part in (lambda: _pipeline_copies(
                         None if pipeline_dir is None else Path(pipeline_dir), swept, held),
                     lambda: _store_frames(store, swept, held),
                     lambda: _temporary(store, swept, held)):
            try:
                part()
            except Exception:  # the server starts anyway
                log.warning("the files left by a stop were not all swept", exc_info=True)
    return swept
