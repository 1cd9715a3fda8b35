"""The referee's page: a Flask application factory in the shape of the Flask tutorial.

``create_app(test_config=None)`` builds the app; the store, the table, the
language catalogue and the request guards are attached with ``init_app``; the
views live in two blueprints, ``pages`` (HTML) and ``api`` (JSON and SSE).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask

MAX_BODY = 64 * 1024  # bytes in one request body


def default_database(instance_path: str) -> str:
    """The store ``tableref history`` uses: ``$TABLEREF_DB`` or the user's data dir."""
    try:
        from referee.store import default_db_path
    except ImportError:
        return os.path.join(instance_path, "tableref.sqlite3")
    return str(default_db_path())


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Create and configure the app.

    Args:
        test_config: settings that replace the defaults (``DATABASE``, ``STORE``
            (a store object to use as is), ``TOKEN``, ``ALLOWED_HOSTS``,
            ``RESUME``, ``SSE_HEARTBEAT``, ``SSE_SECONDS``, ``EVIDENCE_DIRS``,
            ``VIDEO_DIRS`` (folders whose video files the setup page offers
            as the camera; default the instance's ``videos`` folder and the
            working directory) ...).
    """
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(
        DATABASE=default_database(app.instance_path),
        STORE=None,
        RESUME=True,
        TOKEN=None,
        ALLOWED_HOSTS=("localhost", "127.0.0.1", "::1"),
        MAX_CONTENT_LENGTH=MAX_BODY,
        MAX_FORM_MEMORY_SIZE=MAX_BODY,
        SSE_HEARTBEAT=15.0,
        SSE_SECONDS=300.0,
        VIDEO_FPS=10.0,
        VIDEO_SECONDS=4 * 3600.0,
        VIDEO_IDLE=30.0,  # seconds without a new frame before a video stream ends
        EVIDENCE_DIRS=[os.path.join(app.instance_path, "evidence")],
        CALIBRATION=None,
        VIDEO_DIRS=[os.path.join(app.instance_path, "videos"), os.getcwd()],
        JSON_SORT_KEYS=False,
    )
    if test_config is not None:
        app.config.from_mapping(test_config)
    app.json.ensure_ascii = False
    app.json.sort_keys = False

    from . import api, i18n, pages, security, table
    from .memstore import open_store

    store = app.config["STORE"]
    if store is None:
        Path(app.config["DATABASE"]).parent.mkdir(parents=True, exist_ok=True)
        store = open_store(app.config["DATABASE"], app.config["EVIDENCE_DIRS"][0])
    app.extensions["tableref.store"] = store
    kept = getattr(store, "evidence_dir", None)  # frames the store keeps may be shown
    if kept is not None:
        app.config["EVIDENCE_DIRS"] = [*app.config["EVIDENCE_DIRS"], str(kept)]

    table.init_app(app)
    i18n.init_app(app)
    security.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    from . import enroll  # the deck enrollment wizard (/enroll)

    app.register_blueprint(enroll.bp)
    return app
