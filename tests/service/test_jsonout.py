"""The orjson answers are byte for byte what Flask's own JSON provider writes."""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask import Flask
from flask.json.provider import DefaultJSONProvider
from hypothesis import given, settings
from hypothesis import strategies as st

from daily.service.http.jsonprovider import OrjsonProvider

fast_app = Flask(__name__)
fast_app.json = OrjsonProvider(fast_app)
flask_app = Flask(__name__)
flask_json = DefaultJSONProvider(flask_app)
flask_json.sort_keys = False
flask_json.compact = True
flask_app.json = flask_json


def both(document: Any) -> tuple[bytes, bytes]:
    with fast_app.app_context():
        fast = fast_app.json.response(document)
    with flask_app.app_context():
        slow = flask_app.json.response(document)
    assert fast.mimetype == slow.mimetype == "application/json"
    return fast.get_data(), slow.get_data()


scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.text(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([1e-5, 1.5e-7, 9.9e-5, 1e-4, 1e16, 1e22, -2.5e-9, 5e-324, 0.0, -0.0]),
)
documents = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(documents)
def test_same_bytes_as_flask(document: Any) -> None:
    fast, slow = both(document)
    assert fast == slow


def test_what_orjson_would_write_otherwise_goes_to_flask() -> None:
    for document in (
        {"when": dt.datetime(2026, 11, 30, 12, tzinfo=dt.UTC)},  # Flask: an HTTP date
        {"day": dt.date(2026, 11, 30)},
        {1: "int key"},
        {"big": 2**70},
        {"1.5e-7": 1.5e-7},
        [1e-5, "x"],
        {"tiny": 1.5e-7},
    ):
        fast, slow = both(document)
        assert fast == slow, document


def test_state_like_document() -> None:
    document = {
        "id": "g_1", "position": 3, "dice": [1, 2, 3, 4, 5], "over": False,
        "choices": [{"box": "ones", "points": 1, "legal": True, "reason": None, "why": None}],
        "result": {"percentile": 12.5, "rank": 3, "share_text": "Daily Dice - three-of-a-kind"},
    }
    fast, slow = both(document)
    assert fast == slow
    assert fast.endswith(b"}\n")


def test_text_beyond_ascii_is_escaped_as_flask_escapes_it() -> None:
    for document in (
        {"name": "Zoë 🎲"},  # a two-byte character and one beyond the basic plane
        {"share_text": "Daily Dice · Yahtzee\n🟩🟨⬛"},
        {"del": "a\x7fb"},  # ASCII, left as it is by orjson, escaped by ensure_ascii
        ["\u2028", "\U0010ffff", "\ud7ff\ue000"],
    ):
        fast, slow = both(document)
        assert fast == slow, document
        assert fast.isascii()
        assert fast_app.json._fast(document) is not None, document  # orjson wrote it
