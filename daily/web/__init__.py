"""The web client: the single-page app, its static files, link previews and share cards.

:mod:`daily.web.routes` holds its blueprint, which the app factory
(:func:`daily.service.app.create_app`) registers at ``/``; the client talks only to the
JSON API. It depends on the service, never the other way round.
"""
