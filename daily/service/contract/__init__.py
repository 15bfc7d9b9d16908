"""The API contract: pydantic models of every request and response of ``/api/v1``.

The same models validate requests (:mod:`daily.service.contract.operations` wraps each
view) and generate the OpenAPI document (:mod:`daily.service.openapi`), so the
document cannot say something the app does not do.

- :mod:`~daily.service.contract.fields`: the value types (dates, names, rulesets, ...);
- :mod:`~daily.service.contract.bodies`: request bodies and query parameters;
- :mod:`~daily.service.contract.responses`: response documents and the error shape;
- :mod:`~daily.service.contract.operations`: the ``@operation`` decorator of a view.
"""
