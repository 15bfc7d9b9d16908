"""Canonical JSON: the one byte form of a JSON value that the results log hashes and signs.

Keys sorted (by code point), no whitespace (separators ``,`` and ``:``), UTF-8, strings
as ``json.dumps`` escapes them with ``ensure_ascii=False``: exactly ``"`` as ``\\"``,
``\\`` as ``\\\\``, the control characters U+0008, U+0009, U+000A, U+000C, U+000D as
``\\b \\t \\n \\f \\r`` and the other control characters U+0000 to U+001F as
``\\u00xx`` (lowercase hex); every other character as itself (``/``, U+007F, U+2028 and
non-ASCII included). Only objects with string keys, arrays, strings, integers in the
interoperable range ``±(2**53 - 1)``, ``true``, ``false`` and ``null``; floats are
refused, so two implementations never disagree on a number.

This module is the one encoder of the project: the results log, receipts, heads and the
day descriptors' signing bytes (:func:`daily.audit.verify.canonical_bytes`) all use it, and
:func:`parse_canonical` is how every verifier reads a line it is about to hash: the
line must be exactly the canonical bytes of what it parses to, or it is refused with
what is wrong (a duplicate key, whitespace, an escape, the key order, a number).

>>> canonical_json({"b": [1, True, None], "a": "é"})
b'{"a":"\\xc3\\xa9","b":[1,true,null]}'
>>> canonical_json({"x": 0.5})
Traceback (most recent call last):
...
daily.audit.canonical.CanonicalError: x: a float is not canonical JSON (use an integer or a string)
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import orjson

from daily.errors import DailyError

#: The largest integer magnitude allowed (what every JSON implementation reads exactly).
MAX_SAFE_INT = 2**53 - 1


class CanonicalError(DailyError):
    """A value that has no canonical JSON form (a float, a non-string key, a lone surrogate)."""


def _check(value: Any, where: str) -> None:
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return
    if kind is int:
        if -MAX_SAFE_INT <= value <= MAX_SAFE_INT:
            return
        raise CanonicalError("an integer beyond ±(2**53 - 1) is not canonical JSON", field=where)
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str:
                raise CanonicalError(f"key {key!r} is not a string", field=where or "object")
            _check(item, f"{where}.{key}" if where else key)
        return
    if kind is list or kind is tuple:
        for i, item in enumerate(value):
            _check(item, f"{where}[{i}]")
        return
    if kind is float:
        raise CanonicalError(
            "a float is not canonical JSON (use an integer or a string)", field=where or "value"
        )
    raise CanonicalError(f"a {kind.__name__} is not a JSON value", field=where or "value")


def _valid(value: Any) -> bool:
    """Whether ``value`` may have a canonical form: :func:`_check` without building the
    path of every node (the seal checks a million leaves; only a refusal needs the
    path). Keys are left to the encoder, which refuses a key that is not a string."""
    stack = [[value]]
    pop, push = stack.pop, stack.append
    while stack:
        for item in pop():
            kind = type(item)
            if kind is str or item is None or kind is bool:
                continue
            if kind is dict:
                push(item.values())
            elif kind is int:
                if not -MAX_SAFE_INT <= item <= MAX_SAFE_INT:
                    return False
            elif kind is list or kind is tuple:
                push(item)
            else:
                return False
    return True


def canonical_json(obj: Any) -> bytes:
    """The canonical bytes of ``obj`` (raises :class:`CanonicalError` if it has none).

    >>> canonical_json({"z": {"b": 2, "a": 1}, "y": []})
    b'{"y":[],"z":{"a":1,"b":2}}'
    >>> canonical_json("\\ud800")
    Traceback (most recent call last):
    ...
    daily.audit.canonical.CanonicalError: value: a string holds a lone surrogate (not UTF-8)
    """
    if not _valid(obj):
        _check(obj, "")  # raises, naming the node
    try:  # the bytes of json.dumps(sort_keys, (",", ":"), ensure_ascii=False), 40 times faster
        return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # a key that is not a string, or a lone surrogate
        _check(obj, "")  # raises, naming the node of a bad key
        raise CanonicalError("a string holds a lone surrogate (not UTF-8)", field="value") from None


#: Whitespace JSON allows between tokens (the canonical form has none).
_WHITESPACE = frozenset(b" \t\n\r")


class NotCanonical(CanonicalError):
    """A line that parses but is not the canonical encoding of its value."""


def _no_duplicates() -> Any:
    """An ``object_pairs_hook`` that raises on a key seen twice in one object."""

    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise NotCanonical(f"the key {key!r} appears twice in one object "
                                   "(a reader may keep either value)")
            out[key] = value
        return out

    return hook


def _first_difference(a: bytes, b: bytes) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                min(len(a), len(b)))


def _in_string(line: bytes, at: int) -> bool:
    """Whether byte ``at`` of a JSON text lies inside a string (its quotes excluded)."""
    inside = escaped = False
    for i in range(at):
        c = line[i]
        if escaped:
            escaped = False
        elif c == 0x5C and inside:
            escaped = True
        elif c == 0x22:
            inside = not inside
    return inside


def _diagnose(line: bytes, value: Any, canonical: bytes) -> str:
    """Why ``line`` (which parses to ``value``) is not ``canonical``: one sentence."""
    json.loads(line, object_pairs_hook=_no_duplicates())  # raises on a duplicate key
    inside = escaped = False
    for i, c in enumerate(line):
        if escaped:
            escaped = False
            continue
        if inside:
            if c == 0x5C:
                escaped = True
            elif c == 0x22:
                inside = False
        elif c == 0x22:
            inside = True
        elif c in _WHITESPACE:
            return f"whitespace at byte {i} (the canonical form has none between tokens)"
    in_order = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    if in_order != line:
        at = _first_difference(in_order, line)
        start = line.rfind(b"\\", 0, at + 1)
        if _in_string(line, at) or (start >= 0 and at - start <= 6):
            return (f"a string escaped otherwise than canonically at byte {at} (a character "
                    "the canonical form writes as itself, or an escape in another form)")
        return f"a number not in its canonical form at byte {at} (integers, no exponent)"
    key = _unsorted_key(value)
    return f"keys not in sorted order (the key {key!r} comes too early)"


def _unsorted_key(value: Any) -> str | None:
    """The first key of ``value`` (depth first) that comes before a key it should follow."""
    if isinstance(value, dict):
        keys = list(value)
        for a, b in itertools.pairwise(keys):
            if a > b:
                return a
        items: Any = value.values()
    elif isinstance(value, list):
        items = value
    else:
        return None
    for item in items:
        found = _unsorted_key(item)
        if found is not None:
            return found
    return None


def parse_canonical(line: bytes | str) -> Any:
    """Parse one line that must be canonical JSON (:class:`NotCanonical` says why not).

    The value's canonical bytes must be the line itself, so what a verifier hashes (the
    line) is exactly what it read (the value). Raises :class:`CanonicalError` for a value
    with no canonical form and ``ValueError`` for text that is not JSON.

    >>> parse_canonical('{"a":1,"b":"é"}')
    {'a': 1, 'b': 'é'}
    >>> parse_canonical(b'{"score":441,"score":341}')
    Traceback (most recent call last):
    ...
    daily.audit.canonical.NotCanonical: the key 'score' appears twice in one object \
(a reader may keep either value)
    >>> parse_canonical(b'{"a": 1}')
    Traceback (most recent call last):
    ...
    daily.audit.canonical.NotCanonical: whitespace at byte 5 (the canonical form has none \
between tokens)
    >>> parse_canonical(b'{"a":"\\\\u0041"}')
    Traceback (most recent call last):
    ...
    daily.audit.canonical.NotCanonical: a string escaped otherwise than canonically at \
byte 6 (a character the canonical form writes as itself, or an escape in another form)
    >>> parse_canonical(b'{"b":1,"a":2}')
    Traceback (most recent call last):
    ...
    daily.audit.canonical.NotCanonical: keys not in sorted order (the key 'b' comes too early)
    """
    raw = line.encode("utf-8") if isinstance(line, str) else line
    try:  # orjson reads a line several times faster; where it refuses one (NaN, a lone
        value = orjson.loads(raw)  # surrogate, ...), json says what is wrong as before
    except orjson.JSONDecodeError:
        value = json.loads(raw)
    check_canonical(raw, value)
    return value


def check_canonical(raw: bytes, value: Any) -> None:
    """Raise :class:`NotCanonical` unless ``raw`` (which ``json.loads`` read as ``value``)
    is the canonical JSON of ``value`` (:class:`CanonicalError` if it has none).

    >>> check_canonical(b'[1,2]', [1, 2])
    >>> check_canonical(b'[1,2.0]', [1, 2.0])
    Traceback (most recent call last):
    ...
    daily.audit.canonical.CanonicalError: [1]: a float is not canonical JSON (use an integer \
or a string)
    """
    canonical = canonical_json(value)
    if canonical != raw:
        raise NotCanonical(_diagnose(raw, value, canonical))
