"""``tableref serve`` and ``tableref history`` must keep their records in one place.

Without ``--db``, ``history``/``export``/``import`` use ``$TABLEREF_DB`` (else
``~/.local/share/tableref/tableref.sqlite3``, ``referee.store.default_db_path``),
as ``docs/api.md`` says ``serve`` does too. Checked in-process with the store
opening and the HTTP server replaced, so nothing is written anywhere.
"""

from __future__ import annotations

import argparse
from pathlib import Path


class _NoServer:
    server_port = 0

    def serve_forever(self) -> None:
        raise KeyboardInterrupt

    def server_close(self) -> None:
        pass


def test_serve_without_db_uses_the_store_that_history_reads(tmp_path, monkeypatch):
    import werkzeug.serving

    import web.memstore
    from referee.store import default_db_path
    from web.commands import serve, serve_arguments

    monkeypatch.setenv("TABLEREF_DB", str(tmp_path / "shared.sqlite3"))
    opened: list[str] = []

    def open_store(path, evidence_dir=None):
        opened.append(str(Path(path).resolve()))
        return web.memstore.MemoryStore()

    monkeypatch.setattr(web.memstore, "open_store", open_store)
    monkeypatch.setattr(werkzeug.serving, "make_server", lambda *a, **k: _NoServer())
    parser = argparse.ArgumentParser()
    serve_arguments(parser)
    args = parser.parse_args(["--demo-log", "--demo-interval", "3600", "--port", "0"])
    assert serve(args) == 0
    assert opened == [str(default_db_path().resolve())]
