"""The web client: static pages served by the Flask app at ``/``.

It talks only to the JSON API and holds no rules logic of its own.
"""

from flask import Blueprint

bp = Blueprint("web", __name__, static_folder="static", template_folder="templates")
