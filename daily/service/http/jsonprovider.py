"""The JSON of the API's answers, encoded by orjson (a tenth of the standard library's
time on a state document), byte for byte what Flask's own encoder writes.

Flask's settings here are compact separators, keys in insertion order and
``ensure_ascii``; orjson writes the same text for documents of strings, numbers,
booleans, ``null``, lists and dicts with string keys, once the characters it leaves
as they are and ``ensure_ascii`` escapes (DEL and everything beyond ASCII: the share
text's squares) are escaped as the standard library does (:func:`ascii_escaped`).
Where it could still differ, the standard library writes the answer as before: a float
below 1e-4 (spelt differently, :func:`same_as_stdlib`), anything else orjson would
encode its own way (dates, dataclasses: Flask's ``default``) or refuse (a dict key
that is not a string, a whole number beyond 64 bits, a lone surrogate). One
difference is left: a NaN or an infinity, which the service never sends (it is not
JSON), would be ``null`` instead of ``NaN``.

>>> from flask import Flask
>>> app = Flask(__name__)
>>> app.json = OrjsonProvider(app)
>>> with app.app_context():
...     app.json.response({"b": [1, True, None], "a": "x"}).data
b'{"b":[1,true,null],"a":"x"}\\n'
>>> with app.app_context():
...     app.json.response({"name": "Zo\u00eb", "pct": 1e-05}).data
b'{"name":"Zo\\\\u00eb","pct":1e-05}\\n'
"""

from __future__ import annotations

import re
from typing import Any

import orjson
from flask import Flask
from flask.json.provider import DefaultJSONProvider
from werkzeug.sansio.response import Response

#: A negative exponent of one digit: orjson writes ``1.5e-7`` where Python writes
#: ``1.5e-07``.
_SHORT_EXPONENT = re.compile(rb"\de-\d(?!\d)")
#: What ``ensure_ascii`` escapes and orjson writes as it is (both escape the rest of
#: what they escape alike).
_UNESCAPED = re.compile("[\x7f-\U0010ffff]")


def _escape(found: re.Match[str]) -> str:
    code = ord(found.group())
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000  # beyond the basic plane: a surrogate pair, as json.dumps writes it
    return f"\\u{0xD800 | code >> 10:04x}\\u{0xDC00 | code & 0x3FF:04x}"


def ascii_escaped(data: bytes) -> bytes:
    """orjson's text ``data`` with DEL and every non-ASCII character escaped as
    ``json.dumps`` escapes them with ``ensure_ascii`` (``\\u00e9``; a surrogate pair
    beyond the basic plane).

    >>> ascii_escaped('{"a":"Zo\u00eb \U0001f3b2\x7f"}'.encode())
    b'{"a":"Zo\\\\u00eb \\\\ud83c\\\\udfb2\\\\u007f"}'
    >>> ascii_escaped(b'[1,"plain"]')
    b'[1,"plain"]'
    """
    if data.isascii() and b"\x7f" not in data:
        return data
    return _UNESCAPED.sub(_escape, data.decode()).encode()


class _NotPlain(Exception):
    """The document holds something orjson would write its own way."""


def _refuse(_: Any) -> Any:
    raise _NotPlain


def same_as_stdlib(data: bytes) -> bool:
    """Whether orjson's text ``data``, escaped by :func:`ascii_escaped`, is what
    ``json.dumps`` writes for the same document.

    The two spell floats alike from 1e-4 up (shortest round trip, ``1e+16`` from 1e16
    on); below, orjson writes ``0.00001`` (Python ``1e-05``) and ``1.5e-7`` (Python
    ``1.5e-07``); a string that merely looks like one of those costs a slower encode,
    never a different answer.

    >>> same_as_stdlib(b'{"a":0.5,"b":"one-e-pair"}'), same_as_stdlib(b'[1.5e-7]')
    (True, False)
    >>> same_as_stdlib(b'[0.00001]'), same_as_stdlib(b'["\\\\u00e9"]')
    (False, True)
    """
    if b"0.0000" in data:
        return False
    return b"e-" not in data or _SHORT_EXPONENT.search(data) is None


class OrjsonProvider(DefaultJSONProvider):
    """Flask's JSON provider with orjson for the plain documents (see the module)."""

    sort_keys = False
    compact = True

    def _fast(self, obj: Any) -> bytes | None:
        """The orjson text of ``obj`` when it is the standard library's too, else None."""
        try:
            data = orjson.dumps(obj, default=_refuse, option=orjson.OPT_PASSTHROUGH_SUBCLASS
                                | orjson.OPT_PASSTHROUGH_DATETIME
                                | orjson.OPT_PASSTHROUGH_DATACLASS)
        except (_NotPlain, orjson.JSONEncodeError, TypeError):
            return None
        data = ascii_escaped(data)
        return data if same_as_stdlib(data) else None

    def encode(self, obj: Any) -> bytes:
        """The body of a JSON response of ``obj`` (a newline after the document), as
        :meth:`response` writes it (the move lane's answers, :mod:`daily.service.http.movelane`).

        >>> OrjsonProvider(Flask(__name__)).encode({"a": [1, None]})
        b'{"a":[1,null]}\\n'
        """
        data = self._fast(obj) if self.compact and not self.sort_keys and self.ensure_ascii \
            else None
        if data is None:
            return f"{self.dumps(obj, separators=(',', ':'))}\n".encode()
        return data + b"\n"

    def response(self, *args: Any, **kwargs: Any) -> Response:
        """A JSON response, as Flask's (a newline after the document)."""
        obj = self._prepare_response_obj(args, kwargs)
        app = self._app  # typed as Flask's sansio App, whose responses take no body
        if isinstance(app, Flask):
            return app.response_class(self.encode(obj), mimetype=self.mimetype)
        return super().response(obj)
