"""The JSON of the API's answers, written by orjson: Flask's JSON provider with orjson as
its encoder (a tenth of the standard library's time on a state document).

The text is compact, keys in the order the service built them, UTF-8 (JSON's own
encoding: characters beyond ASCII, such as a share text's squares, are written as they
are), with a newline after the document as Flask writes it. A dict key that is not a
string is written as one, as the standard library does; what orjson leaves to
``default`` (dates and times, dataclasses, decimals, UUIDs) is converted by Flask's
own :meth:`~flask.json.provider.DefaultJSONProvider.default` (a date is an HTTP date).

>>> from flask import Flask
>>> app = Flask(__name__)
>>> app.json = OrjsonProvider(app)
>>> with app.app_context():
...     app.json.response({"b": [1, True, None], "a": "Zo\u00eb"}).data.decode()
'{"b":[1,true,null],"a":"Zo\u00eb"}\\n'
>>> app.json.dumps({1: 0.5})
'{"1":0.5}'
"""

from __future__ import annotations

import weakref
from typing import Any

import orjson
from flask.json.provider import DefaultJSONProvider
from flask.sansio.app import App
from werkzeug.sansio.response import Response

#: orjson's options: non-string keys as strings; dates, times and dataclasses to
#: ``default``, as Flask converts them.
OPTIONS = (orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
           | orjson.OPT_PASSTHROUGH_DATACLASS)


class OrjsonProvider(DefaultJSONProvider):
    """Flask's JSON provider, encoding with orjson (see the module)."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self._owner = weakref.proxy(app)  # the app's response class may change later
        self._default = self.default  # Flask's conversions of what JSON has no type for

    def encode(self, obj: Any) -> bytes:
        """The UTF-8 text of ``obj``.

        >>> import datetime as dt
        >>> from flask import Flask
        >>> app = Flask(__name__)
        >>> OrjsonProvider(app).encode({"at": dt.date(2026, 11, 30)})
        b'{"at":"Mon, 30 Nov 2026 00:00:00 GMT"}'
        """
        return orjson.dumps(obj, default=self._default, option=OPTIONS)

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        """``obj`` as JSON text (what the ``tojson`` filter and ``flask.json.dumps`` write)."""
        return self.encode(obj).decode()

    def response(self, *args: Any, **kwargs: Any) -> Response:
        """A JSON response of ``args`` or ``kwargs``, as ``jsonify`` takes them: one
        value as it is, several as a list, keywords as an object.

        >>> from flask import Flask
        >>> app = Flask(__name__)
        >>> provider = OrjsonProvider(app)
        >>> provider.response(1, 2).get_data(), provider.response(a=1).get_data()
        (b'[1,2]\\n', b'{"a":1}\\n')
        """
        if args and kwargs:
            raise TypeError("jsonify() behavior undefined when passed both args and kwargs")
        obj = args[0] if len(args) == 1 else args or kwargs or None
        data = orjson.dumps(obj, default=self._default,
                            option=OPTIONS | orjson.OPT_APPEND_NEWLINE)
        response: Response = self._owner.response_class(data, mimetype=self.mimetype)
        return response
