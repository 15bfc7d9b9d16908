"""Bytes hashed are bytes served: a log line that is not the canonical JSON of its value
is refused by ``daily verify-day`` under the real, untouched head, naming the line and
what is wrong; each of issue 35's non-canonical lines has its own message."""

from __future__ import annotations

import json

import pytest

from daily.audit.canonical import CanonicalError, NotCanonical, canonical_json, parse_canonical
from daily.audit.sample_day import SampleDay
from daily.cli import main
from tests.audit.dayfiles import DayFiles


def refused(files: DayFiles, day: SampleDay, index: int, line: bytes,
            capsys: pytest.CaptureFixture[str]) -> str:
    """The one line ``verify-day`` prints for the log with line ``index`` replaced."""
    lines = day.lines()
    lines[index] = line
    files.write_log(lines)
    status = main(files.argv())
    out, err = capsys.readouterr()
    assert status == 1, err
    assert "verified" not in out.splitlines()[-1]
    assert err.count("\n") == 1, err
    return err.strip().removeprefix("daily: verification failed: ")


def result_index(day: SampleDay, status: str = "cleared") -> int:
    return next(i for i, leaf in enumerate(day.leaves)
                if leaf.kind == "result" and leaf.decision.status == status)


def test_a_duplicate_key_with_another_score_is_refused(
    files: DayFiles, sample_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    i = result_index(sample_day)
    line = sample_day.lines()[i]
    score = sample_day.leaves[i].accepted.score
    doctored = line.replace(b'"player_id":', f'"score":{score + 100},"player_id":'.encode(), 1)
    assert json.loads(doctored)["accepted"]["score"] == score  # a last-key reader sees it
    assert refused(files, sample_day, i, doctored, capsys) == (
        f"log line {i + 1}: not canonical JSON: the key 'score' appears twice in one object "
        "(a reader may keep either value)"
    )


def test_a_duplicate_decision_is_refused(
    files: DayFiles, sample_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    i = result_index(sample_day, "disqualified")
    line = sample_day.lines()[i]
    doctored = line.replace(b'"status":"disqualified"',
                            b'"status":"disqualified","status":"cleared"', 1)
    assert json.loads(doctored)["decision"]["status"] == "cleared"
    assert refused(files, sample_day, i, doctored, capsys) == (
        f"log line {i + 1}: not canonical JSON: the key 'status' appears twice in one object "
        "(a reader may keep either value)"
    )


def test_extra_spaces_are_refused(
    files: DayFiles, sample_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    line = sample_day.lines()[2]
    doctored = line.replace(b'","', b'", "', 1)
    at = doctored.index(b" ")
    assert json.loads(doctored) == json.loads(line)
    assert refused(files, sample_day, 2, doctored, capsys) == (
        f"log line 3: not canonical JSON: whitespace at byte {at} (the canonical form has "
        "none between tokens)"
    )


def test_a_u_escape_is_refused(
    files: DayFiles, sample_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    line = sample_day.lines()[0]
    doctored = line.replace(b'"kind":"result"', b'"kind":"\\u0072esult"', 1)
    at = doctored.index(b"\\u")
    assert json.loads(doctored) == json.loads(line)
    assert refused(files, sample_day, 0, doctored, capsys) == (
        f"log line 1: not canonical JSON: a string escaped otherwise than canonically at byte "
        f"{at} (a character the canonical form writes as itself, or an escape in another form)"
    )


def test_keys_out_of_order_are_refused(
    files: DayFiles, sample_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    value = json.loads(sample_day.lines()[1])
    doctored = json.dumps({"version": value.pop("version"), **value}, separators=(",", ":"),
                          ensure_ascii=False).encode()
    assert refused(files, sample_day, 1, doctored, capsys) == (
        "log line 2: not canonical JSON: keys not in sorted order (the key 'version' comes "
        "too early)"
    )


def test_the_canonical_line_itself_verifies(
    files: DayFiles, sample_day: SampleDay, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(files.argv()) == 0, capsys.readouterr().err


@pytest.mark.parametrize(("text", "why"), [
    ('[1,-0]', "a number not in its canonical form at byte 3 (integers, no exponent)"),
    ('{"a":"\\/"}', "a string escaped otherwise than canonically at byte 6"),
    ('{"a":"\\u001F"}', "a string escaped otherwise than canonically at byte 11"),
    ('{"a":"\\u000a"}', "a string escaped otherwise than canonically at byte 7"),
    ('{"a":{"c":1,"b":2}}', "keys not in sorted order (the key 'c' comes too early)"),
    ('\n[1]', "whitespace at byte 0"),
])
def test_each_other_form_is_named(text: str, why: str) -> None:
    with pytest.raises(NotCanonical) as caught:
        parse_canonical(text.encode())
    assert str(caught.value).startswith(why)


@pytest.mark.parametrize("text", ['{"a":1.5}', '[1e3]', '"\\ud800"', "[9007199254740992]"])
def test_a_value_with_no_canonical_form_is_refused(text: str) -> None:
    with pytest.raises(CanonicalError):
        parse_canonical(text)


def test_every_escaped_character_round_trips() -> None:
    """What docs/protocol.md says is escaped, and nothing else."""
    text = "".join(chr(i) for i in range(0x20)) + "\"\\/\x7f\u2028é😀"
    encoded = canonical_json(text)
    assert encoded == (
        b'"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b\\f\\r'
        b'\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018'
        b'\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f\\"\\\\/\x7f'
        + "\u2028é😀".encode() + b'"'
    )
    assert parse_canonical(encoded) == text


def test_the_encoder_writes_what_json_dumps_writes() -> None:
    """The one encoder (orjson, for speed) gives the bytes of the documented Python
    form for every character and for nested values."""
    def documented(value: object) -> bytes:
        return json.dumps(value, sort_keys=True, separators=(",", ":"),
                          ensure_ascii=False).encode("utf-8")

    chars = [chr(i) for i in (*range(0xD800), *range(0xE000, 0x110000))]
    for start in range(0, len(chars), 4096):
        text = "".join(chars[start:start + 4096])
        assert canonical_json(text) == documented(text)
    value = {"z": [1, -2, 2**53 - 1, -(2**53 - 1), True, False, None, (3, "t")],
             "é": {"b": "\u2028", "a": {}}, "A": [], "": "\x00\x1f\x7f"}
    assert canonical_json(value) == documented(value)


@pytest.mark.parametrize(("value", "why"), [
    ({"a": [1, {"b": 0.5}]}, "a[1].b: a float is not canonical JSON"),
    ({1: "x"}, "object: key 1 is not a string"),
    ({"n": 2**53}, "n: an integer beyond"),
    ({"s": {1, 2}}, "s: a set is not a JSON value"),
    ({"t": "\ud800"}, "value: a string holds a lone surrogate"),
])
def test_the_fast_check_refuses_what_the_named_check_names(value: object, why: str) -> None:
    with pytest.raises(CanonicalError) as caught:
        canonical_json(value)
    assert str(caught.value).startswith(why)


def test_instants_of_timestamps_are_exact_milliseconds() -> None:
    import datetime as dt
    import random

    from daily.audit.leaf import instant

    rng = random.Random(35)
    for _ in range(20_000):
        moment = rng.randrange(0, 4 * 10**12) / 1000
        as_datetime = dt.datetime.fromtimestamp(round(moment * 1000) / 1000, dt.UTC)
        assert instant(moment) == instant(as_datetime)
