"""The baseline of ``bench/api_throughput.py``: a bare Flask hello-world."""

from flask import Flask

app = Flask(__name__)


@app.get("/hello")
def hello() -> dict[str, str]:
    """The smallest JSON answer."""
    return {"hello": "world"}
