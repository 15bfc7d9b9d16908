"""The API contract: pydantic models of every request and response of ``/api/v1``.

The same models validate requests (:mod:`daily.service.http.contract.operations` wraps each
view) and generate the OpenAPI document (:mod:`daily.service.http.openapi`), so the
document cannot say something the app does not do.

- :mod:`~daily.service.http.contract.fields`: the value types (dates, names, rulesets, ...);
- :mod:`~daily.service.http.contract.bodies`: request bodies and query parameters;
- :mod:`~daily.service.http.contract.responses`: response documents and the error shape;
- :mod:`~daily.service.http.contract.operations`: the ``@operation`` decorator of a view.
"""
