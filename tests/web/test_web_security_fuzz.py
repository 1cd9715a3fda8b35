"""Issue 26: a fuzz of every route: no 5xx, no protected answer without the token.

Every rule of the app's URL map is requested with every method, with URL
parameters (in range, out of range, huge), query strings, odd headers and
bodies (garbage bytes, unicode, lone surrogates, huge numbers, deep nesting,
events of every kind with wrong values) against two apps in the test client:

- an open one (no token, as on localhost) where any request may act;
- a guarded one (a token, a real UNO game with a Wild Draw Four challenge
  upheld on a hidden hand, marked events, an evidence frame) that only ever
  sees requests without the token or with a wrong one: none may answer with
  the event log, a hidden card, the evidence frame, the camera, nor change
  anything.

Deterministic (seeded), bounded in count (ROUNDS requests per route and
method, about 3500 in all) and in time (TIME_LIMIT seconds).
"""

from __future__ import annotations

import json
import random
import re
import time
from collections import Counter

import pytest
from werkzeug.routing import IntegerConverter

from web import create_app
from web.memstore import MemoryStore

TOKEN = "s3cret-T0KEN"
AUTH = {"X-Tableref-Token": TOKEN}
SEED = 26
ROUNDS = 12
TIME_LIMIT = 45.0
METHODS = ("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS")
HAND = ["red-5", "green-2", "blue-9", "yellow-1", "green-3", "red-skip"]
LOGMARK = "LOGMARK-qz"
JPEG = b"\xff\xd8FRAMEMARK-evidence\xff\xd9"
CAMMARK = b"\xff\xd8CAMMARK-video\xff\xd9"
# What must never be in an answer to a request without the token.
PROTECTED = [
    LOGMARK,
    "FRAMEMARK",
    "CAMMARK",
    "red-5",
    "red 5",
    "green-2",
    "blue-9",
    "yellow-8",
    "yellow 8",
    "red-skip",
    "red Skip",
    TOKEN,
]

TEXTS = [
    "",
    "a",
    "A",
    "あいこ",
    "<script>alert(1)</script>",
    "\u202e\u0000\u200b",
    "🂡" * 50,
    "x" * 5000,
    "../../etc/passwd",
    "%00",
    "\ud800",
    "\udfff",
    "red-7",
    "W4",
    "wild-draw4",
]
NUMBERS = [0, -1, 1, 2, 3, 7, 2**31, -(2**63), 10**30, 1.5, -0.0, 1e308, True, None]
TYPES = ["start", "play", "draw", "pass", "uno", "catch", "challenge", "reveal",
         "color", "game", "face-down", "doubt", "dance", ""]


def random_value(rng: random.Random, depth: int = 0):
    roll = rng.random()
    if depth > 3 or roll < 0.35:
        return rng.choice(TEXTS)
    if roll < 0.65:
        return rng.choice(NUMBERS)
    if roll < 0.8:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {
        rng.choice(TEXTS)[:20]: random_value(rng, depth + 1)
        for _ in range(rng.randint(0, 4))
    }


def random_body(rng: random.Random) -> bytes:
    roll = rng.randrange(14)
    if roll == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 300)))
    if roll == 1:
        return b"[" * 50000 + b"]" * 50000  # too deep for the parser (and 413)
    if roll == 2:
        return b'{"type": "draw", "count": ' + b"9" * 5000 + b"}"  # a huge integer
    if roll == 3:
        return b'{"type": "uno", "t": 1e999, "x": -1e999}'
    if roll == 4:
        return rng.choice([b'{"type": "uno", "player": "\\ud800"}', b'"\\udc00"',
                           b'{"\\ud800": 1}', b'{"on": true, "x": "\\udfff"}'])
    if roll == 5:
        return rng.choice([b"", b" ", b"null", b"true", b"[]", b"{}", b"NaN",
                           b'{"paused": true}', b'{"on": true}', b'{"on": false}',
                           b'{"paused": false}', b"\xef\xbb\xbf{}"])
    if roll == 6:
        return json.dumps(
            {"players": random_value(rng), "game": rng.choice(["uno", "webtest", "x"]),
             "rules": random_value(rng), "options": random_value(rng),
             "hand_size": rng.choice(NUMBERS), "camera": random_value(rng),
             "calibration": random_value(rng)}
        ).encode()
    if roll == 7:
        return json.dumps(
            {"game": "uno", "players": ["A", "B", "C"], "rules":
             rng.choice(["official", "tgus-1", "tgus-2", "tgus-3", "house"])}
        ).encode()
    event = {"type": rng.choice(TYPES)}
    for key in rng.sample(["player", "target", "cards", "card", "color", "count",
                           "t", "source", "evidence", "note", "call"],
                          rng.randint(0, 5)):
        event[key] = random_value(rng)
    if rng.random() < 0.3:
        event["cards"] = rng.sample(
            ["red-3", "W4", "wild", "B9", "nope", "red-7", "green-7"], 2
        )
    if rng.random() < 0.3:
        event["player"] = rng.choice(["A", "B", "C"])
    return json.dumps(event, ensure_ascii=rng.random() < 0.5).encode("utf-8", "replace")


def random_query(rng: random.Random) -> str:
    keys = ["view", "names", "since", "last", "token", "lang", "t", "x", ""]
    values = ["table", "referee", "events", "state,rulings", "events,change",
              "camera_status", "-1", "0", "99999999999999999999999", "ja", "en",
              "xx", "%00", "%ff%fe", "%ED%A0%80", "a" * 3000, TOKEN[:-1] + "x", ""]
    parts = [
        f"{rng.choice(keys)}={rng.choice(values)}" for _ in range(rng.randint(0, 4))
    ]
    if rng.random() < 0.1:
        parts.append(rng.choice(["&&&", "=", "view", "names=,,,", "%zz=1"]))
    return "&".join(parts)


def random_headers(rng: random.Random, guarded: bool) -> dict[str, str]:
    headers: dict[str, str] = {}
    pool = {
        "Host": ["localhost", "127.0.0.1:5000", "evil.example", "[::1]:80",
                 "localhost:99999", "[", "a" * 300, "localhost:x"],
        "Origin": ["http://localhost", "http://evil.example", "null", "http://[",
                   "://", "é"],
        "Referer": ["http://localhost/", "http://evil.example/x", "http://[::1"],
        "Accept": ["application/json", "text/html", "*/*", "text/event-stream",
                   ";;;", "application/json;q=abc"],
        "Accept-Language": ["ja", "en-US,en;q=0.9", "zz", "*;q=x", ""],
        "Last-Event-ID": ["0", "-5", "abc", "9" * 40, "1.5"],
        "Cookie": [f"tableref_token={TOKEN[:-1]}x", "tableref_lang=ja",
                   "tableref_lang=../../x", "tableref_token=", "a=b; ; ;=c",
                   "tableref_token=\u00e9"],
        "X-Tableref-Token": ["wrong", "", " " + TOKEN, TOKEN.upper(), "\u00e9\u00e9"],
        "Content-Type": ["application/json", "application/json; charset=latin-1",
                         "text/plain", "multipart/form-data; boundary=x",
                         "application/x-www-form-urlencoded", "application/json;;"],
        "Range": ["bytes=0-1", "bytes=5-1", "bytes=x"],
        "If-Modified-Since": ["yesterday", "Thu, 01 Jan 1970 00:00:00 GMT"],
    }
    for name in rng.sample(sorted(pool), rng.randint(0, 5)):
        headers[name] = rng.choice(pool[name])
    if not guarded and rng.random() < 0.3:
        headers.pop("Origin", None), headers.pop("Referer", None)
    return headers


class FakeCamera:
    """A running camera with a frame and a scan switch."""

    def __init__(self):
        self.pipeline = self
        self.error = None
        self.scans = []

    def status(self):
        return {"state": "running", "message": "ok", "source": "fake", "fps": 9.5}

    def jpeg(self):
        return CAMMARK

    def set_scan(self, on):
        self.scans.append(on)


def make_app(tmp_path, name: str, token: str | None):
    evidence = tmp_path / f"evidence-{name}"
    evidence.mkdir()
    frame = evidence / "f.jpg"
    frame.write_bytes(JPEG)
    app = create_app(
        {
            "TESTING": True,
            "STORE": MemoryStore(),
            "TOKEN": token,
            "ALLOWED_HOSTS": ("localhost", "127.0.0.1", "::1"),
            "SSE_HEARTBEAT": 0.005,
            "SSE_SECONDS": 0.01,
            "VIDEO_SECONDS": 0.02,
            "VIDEO_IDLE": 0.01,
            "VIDEO_FPS": 200.0,
            "EVIDENCE_DIRS": [str(evidence)],
        }
    )
    client = app.test_client()
    auth = AUTH if token else {}
    assert client.post(
        "/api/games", json={"game": "uno", "players": ["A", "B", "C"]}, headers=auth
    ).status_code == 201
    for event in (
        {"type": "start", "card": "red-7"},
        {"type": "uno", "player": "A", "note": LOGMARK, "evidence": str(frame)},
        {"type": "play", "player": "A", "cards": ["wild-draw4"], "color": "blue"},
        {"type": "challenge", "player": "B"},
        {"type": "reveal", "player": "A", "cards": HAND, "evidence": str(frame)},
        {"type": "draw", "player": "A", "count": 4, "cards": ["yellow-8"] * 4},
    ):
        assert client.post("/api/events", json=event, headers=auth).status_code == 201
    app.extensions["tableref.table"].camera = FakeCamera()
    return app


def urls_of(app, rng: random.Random) -> list[tuple[str, tuple[str, ...]]]:
    """Each rule as a URL with its parameters filled in (several ways)."""
    out = []
    for rule in app.url_map.iter_rules():
        methods = tuple(sorted(rule.methods or ()))
        for _ in range(2):
            url = rule.rule
            for arg, conv in rule._converters.items():
                if isinstance(conv, IntegerConverter):
                    value = str(rng.choice([0, 1, 2, 4, 5, 6, 7, 99, 10**25]))
                else:
                    value = rng.choice(["style.css", "app.js", "..%2f..%2fx",
                                        "nope", "%00", "a" * 300])
                url = re.sub(rf"<(?:[^:<>]+:)?{arg}>", value, url)
            out.append((url, methods))
    return out


def protected_in(resp) -> list[str]:
    text = resp.get_data().decode("utf-8", "replace")
    text += " " + " ".join(f"{k}: {v}" for k, v in resp.headers.items())
    return [m for m in PROTECTED if m in text]


@pytest.fixture(scope="module")
def apps(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fuzz")
    return make_app(tmp, "open", None), make_app(tmp, "guarded", TOKEN)


def test_fuzz_every_route(apps):
    open_app, guarded_app = apps
    rng = random.Random(SEED)
    guarded_table = guarded_app.extensions["tableref.table"]
    before = [dict(e) for e in guarded_table.referee.events]
    gid_before = guarded_table.gid
    scans_before = list(guarded_table.camera.scans)
    statuses: Counter[int] = Counter()
    failures, leaks = [], []
    started = time.monotonic()
    sent = 0
    routes = urls_of(open_app, rng)
    plan = [(url, m) for url, methods in routes for m in METHODS for _ in range(ROUNDS)]
    rng.shuffle(plan)
    for url, method in plan:
        if time.monotonic() - started > TIME_LIMIT:
            break
        guarded = rng.random() < 0.5
        app = guarded_app if guarded else open_app
        query = random_query(rng)
        full = url + ("?" + query if query else "")
        headers = random_headers(rng, guarded)
        ctype = headers.pop("Content-Type", "application/json")
        body = method in ("POST", "PUT", "PATCH", "DELETE")
        data = random_body(rng) if body else None
        client = app.test_client()
        if rng.random() < 0.2:  # cookies set through the jar, as a browser would
            client.set_cookie("tableref_lang", rng.choice(["ja", "en", "\u00e9", ""]))
        try:
            resp = client.open(
                full, method=method, data=data, content_type=ctype, headers=headers
            )
            resp.get_data()  # streams run to their (short) end
        except Exception as exc:  # the client itself must not blow up either
            failures.append((method, full[:120], f"raised {exc!r}"[:200]))
            continue
        sent += 1
        statuses[resp.status_code] += 1
        if resp.status_code >= 500:
            failures.append((method, full[:120], headers, data and data[:80],
                             resp.get_data(as_text=True)[:200]))
        if guarded and (found := protected_in(resp)):
            leaks.append((method, full[:120], resp.status_code, found))
    took = time.monotonic() - started
    print(
        f"fuzz: {sent} requests over {len(routes)} route URLs in {took:.1f} s; "
        f"statuses {dict(sorted(statuses.items()))}; 5xx {len(failures)}; "
        f"leaks {len(leaks)}"
    )
    assert failures == [], failures[:10]
    assert leaks == [], leaks[:10]
    assert sent >= 1000, sent  # the time limit left room for a real fuzz
    # Nothing without the token changed the guarded table.
    assert guarded_table.gid == gid_before
    assert [dict(e) for e in guarded_table.referee.events] == before
    assert guarded_table.camera.scans == scans_before
    assert guarded_table.paused is False
