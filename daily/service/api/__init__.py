"""The JSON API, one blueprint per module.

Every module here that defines a :class:`flask.Blueprint` named ``bp`` is registered
by :func:`daily.service.app.create_app` under ``/api/v1`` (a blueprint's own
``url_prefix`` is appended, e.g. ``url_prefix="/days"`` serves ``/api/v1/days``).
Blueprints are thin: they read the request and call the services in
:func:`daily.service.context.current_services` (:class:`daily.service.app.Services`).
"""
