"""The witness's HTTP server: C2SP ``tlog-witness`` on Flask, run by gunicorn.

- ``POST /add-checkpoint``: the request of :mod:`daily.audit.c2sp.addcheckpoint`; 200
  with the cosignature line (``text/plain; charset=utf-8``), or the spec's status with
  one line saying why (409: the size it last cosigned, ``text/x.tlog.size``);
- ``GET /<origin hash>/checkpoint``: the last checkpoint it cosigned for that log, with
  the log's signature and its own (404 if none);
- ``GET /``: its name and vkey, as text.

>>> import tempfile
>>> from daily.witness.witness_dir import WitnessDir
>>> folder = WitnessDir.init(Path(tempfile.mkdtemp()) / "w", "w.example")
>>> client = create_app(folder.path).test_client()
>>> answer = client.post("/add-checkpoint", data=b"old 0\\n\\nnope\\n\\n")
>>> answer.status_code, answer.get_data(as_text=True)
(404, "unknown log 'nope'\\n")
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

from flask import Flask, Response, request

from daily.audit.c2sp.addcheckpoint import Refusal
from daily.errors import DailyError
from daily.witness.witness_dir import WitnessDir

log = logging.getLogger(__name__)
#: Largest request body accepted.
MAX_BODY = 64 * 1024
TEXT = "text/plain; charset=utf-8"
SIZE = "text/x.tlog.size"
_HASH = re.compile(r"[0-9a-f]{64}")


def _text(status: int, body: str, mimetype: str = TEXT) -> Response:
    return Response(body, status=status, headers={"Content-Type": mimetype,
                                                  "Cache-Control": "no-store"})


def create_app(path: Path) -> Flask:
    """The witness app of the folder ``path``."""
    folder = WitnessDir(path)
    app = Flask("daily.witness")
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY

    @app.post("/add-checkpoint")
    def add_checkpoint() -> Response:
        body = request.get_data(cache=False)
        try:
            line = folder.add_checkpoint(body)
        except Refusal as refused:
            log.info("add-checkpoint refused (%s): %s", refused.status, refused.message)
            if refused.status == 409:
                return _text(409, f"{refused.size}\n", SIZE)
            return _text(refused.status, refused.message + "\n")
        except DailyError as exc:
            return _text(400, f"{exc}\n")
        return _text(200, line.decode())

    @app.get("/<origin>/checkpoint")
    def checkpoint(origin: str) -> Response:
        if not _HASH.fullmatch(origin):
            return _text(404, "not an origin hash\n")
        found = folder.state_by_hash(origin)
        if found is None:
            return _text(404, "no checkpoint cosigned for that log\n")
        return _text(200, str(found["checkpoint"]))

    @app.get("/")
    def about() -> Response:
        return _text(200, f"{folder.name}\n{folder.vkey()}\n")

    @app.errorhandler(413)
    def too_large(_: Any) -> Response:
        return _text(413, f"a request is at most {MAX_BODY} bytes\n")

    return app


def serve(path: Path, host: str, port: int, threads: int = 4) -> None:
    """Run the witness of ``path`` under gunicorn (one process: the state's lock is a
    file lock, so more would be safe, but one is plenty)."""
    from gunicorn.app.base import BaseApplication

    app = create_app(path)

    class _Witness(BaseApplication):
        def load_config(self) -> None:
            settings = {"bind": f"{host}:{port}", "workers": 1, "threads": threads,
                        "worker_class": "gthread", "accesslog": None,
                        "control_socket_disable": True}
            for key, value in settings.items():
                if key in self.cfg.settings:
                    self.cfg.set(key, value)

        def load(self) -> Flask:
            return app

    _Witness().run()
