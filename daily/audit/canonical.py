"""Canonical JSON: the one byte form of a JSON value that the results log hashes and signs.

Keys sorted (by code point), no whitespace (separators ``,`` and ``:``), UTF-8, strings
as ``json.dumps`` escapes them with ``ensure_ascii=False`` (``"``, ``\\``, and control
characters escaped, everything else as is). Only objects with string keys, arrays,
strings, integers in the interoperable range ``±(2**53 - 1)``, ``true``, ``false`` and
``null``; floats are refused, so two implementations never disagree on a number.

>>> canonical_json({"b": [1, True, None], "a": "é"})
b'{"a":"\\xc3\\xa9","b":[1,true,null]}'
>>> canonical_json({"x": 0.5})
Traceback (most recent call last):
...
daily.audit.canonical.CanonicalError: x: a float is not canonical JSON (use an integer or a string)
"""

from __future__ import annotations

import json
from typing import Any

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


def canonical_json(obj: Any) -> bytes:
    """The canonical bytes of ``obj`` (raises :class:`CanonicalError` if it has none).

    >>> canonical_json({"z": {"b": 2, "a": 1}, "y": []})
    b'{"y":[],"z":{"a":1,"b":2}}'
    >>> canonical_json("\\ud800")
    Traceback (most recent call last):
    ...
    daily.audit.canonical.CanonicalError: value: a string holds a lone surrogate (not UTF-8)
    """
    _check(obj, "")
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise CanonicalError("a string holds a lone surrogate (not UTF-8)", field="value") from None
