"""The HTTP edge: everything between a request and a domain's service.

- :mod:`~daily.service.http.parsing`: bodies, queries, path values, the bearer token;
- :mod:`~daily.service.http.contract`: the request and response models (which also
  generate the OpenAPI document, :mod:`~daily.service.http.openapi`);
- :mod:`~daily.service.http.error_handlers`: domain errors mapped to JSON answers;
- :mod:`~daily.service.http.ratelimit`: the rate limits;
- :mod:`~daily.service.http.headers`: the security headers;
- :mod:`~daily.service.http.metrics`: Prometheus metrics;
- :mod:`~daily.service.http.jsonprovider`: the JSON encoder of every answer.
"""
