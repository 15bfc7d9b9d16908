"""The API's JSON answers (orjson through Flask's JSON provider): compact, keys in the
order the service built them, a newline after the document, and exactly the document
when read back, whatever its strings and numbers; what JSON has no type for is
converted as Flask converts it."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st

from daily.service.http.jsonprovider import OrjsonProvider

app = Flask(__name__)
app.json = OrjsonProvider(app)


def answer(document: Any) -> bytes:
    with app.app_context():
        response = app.json.response(document)
    assert response.mimetype == "application/json"
    data: bytes = response.get_data()
    return data


scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**63), 2**63 - 1), st.text(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([1e-5, 1.5e-7, 9.9e-5, 1e-4, 1e16, 1e22, -2.5e-9, 5e-324, 0.0, -0.0]),
)
documents = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=30,
)


@settings(max_examples=150, deadline=None)
@given(documents)
def test_an_answer_reads_back_as_its_document(document: Any) -> None:
    data = answer(document)
    assert data.endswith(b"\n") and b"\n" not in data[:-1]
    assert json.loads(data) == document


def test_compact_in_the_services_order() -> None:
    document = {
        "id": "g_1", "position": 3, "dice": [1, 2, 3, 4, 5], "over": False,
        "choices": [{"box": "ones", "points": 1, "legal": True, "reason": None}],
        "result": {"percentile": 12.5, "share_text": "Daily Dice · Yahtzee\n🟩🟨⬛"},
    }
    data = answer(document)
    assert data == (json.dumps(document, separators=(",", ":"), ensure_ascii=False)
                    + "\n").encode()
    assert list(json.loads(data)) == list(document)


def test_what_json_has_no_type_for_is_converted_as_flask_does() -> None:
    when = dt.datetime(2026, 11, 30, 12, tzinfo=dt.UTC)
    assert json.loads(answer({"when": when, "day": dt.date(2026, 11, 30), 1: "a"})) == {
        "when": "Mon, 30 Nov 2026 12:00:00 GMT", "day": "Mon, 30 Nov 2026 00:00:00 GMT",
        "1": "a"}
