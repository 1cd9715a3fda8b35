"""What the camera says on the page, in Japanese: the source it reads is
named in Japanese too (a file, a folder, a stream, a camera), the name
itself as the camera gave it."""

from __future__ import annotations

import pytest

from web import create_app
from web.i18n import camera_message
from web.memstore import MemoryStore


@pytest.mark.parametrize("said, ja", [
    ("file /v/demo-table.mp4 has ended", "ファイル /v/demo-table.mp4 は終わりました"),
    ("reading file /v/a b.mp4", "ファイル /v/a b.mp4 を読み込み中"),
    ("opening camera 0", "カメラ 0 を開いています"),
    ("reading folder /frames", "フォルダ /frames を読み込み中"),
    ("stream rtsp://x/y has ended", "ストリーム rtsp://x/y は終わりました"),
    ("camera 0; retry 2 in 1.5 s", "カメラ 0（1.5秒後に2回目の再試行）"),
    ("a file of mine", "a file of mine"),  # not the camera's words: as said
])
def test_the_source_the_camera_reads_is_named_in_japanese(said, ja):
    app = create_app({"TESTING": True, "STORE": MemoryStore()})
    with app.test_request_context("/?lang=ja"):
        from flask import g

        g.lang = "ja"
        assert camera_message(said) == ja
    with app.test_request_context("/?lang=en"):
        assert camera_message(said) == said
