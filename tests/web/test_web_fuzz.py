"""Property: no request body, however odd, makes the API answer 5xx (real UNO)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from web import create_app
from web.memstore import MemoryStore

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
    st.sampled_from(["red-7", "R7", "W4", "wild", "blue-skip", "A", "B", "C", "red"]),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
events = st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            [
                "start",
                "play",
                "draw",
                "pass",
                "uno",
                "catch",
                "challenge",
                "reveal",
                "x",
            ]
        )
    },
    optional={
        "player": st.one_of(st.sampled_from(["A", "B", "C"]), values),
        "target": values,
        "cards": st.one_of(
            st.lists(
                st.sampled_from(["red-3", "W4", "wild", "B9", "nope"]), max_size=3
            ),
            values,
        ),
        "card": values,
        "color": values,
        "count": values,
        "t": values,
    },
)


@pytest.fixture(scope="module")
def client():
    app = create_app({"TESTING": True, "STORE": MemoryStore()})
    c = app.test_client()
    assert (
        c.post(
            "/api/games",
            json={"game": "uno", "players": ["A", "B", "C"], "hand_size": 3},
        ).status_code
        == 201
    )
    c.post("/api/events", json={"type": "start", "card": "red-7"})
    return c


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(event=st.one_of(events, values), line=st.integers(-2, 5))
def test_no_body_makes_a_server_error(client, event, line):
    body = json.dumps(event)
    for method, url in (
        ("POST", "/api/events"),
        ("PUT", f"/api/events/{line}"),
        ("POST", f"/api/events/{line}/before"),
        ("POST", "/api/games"),
        ("POST", "/api/pause"),
    ):
        resp = client.open(
            url, method=method, data=body, content_type="application/json"
        )
        assert resp.status_code < 500, (method, url, body, resp.get_json())
        assert resp.is_json
    assert client.get("/api/state").status_code == 200
    assert client.get("/").status_code == 200
