"""The OpenAPI document matches the real app: schemathesis drives every operation with
generated valid and invalid requests and checks status codes, content types and
response schemas, and that no request makes a 5xx."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from daily.service.app import create_app
from daily.service.clock import FixedClock
from daily.service.config import Config
from tests.service.conftest import Player

pytestmark = [pytest.mark.redis, pytest.mark.slow]

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]
EXAMPLES = {GenerationMode.POSITIVE: 12, GenerationMode.NEGATIVE: 8}


@pytest.fixture
def open_app(service_config: Config, clock: FixedClock) -> Flask:
    return create_app(service_config, {"TESTING": True, "CLOCK": clock,
                                       "RATELIMIT_ENABLED": False})


def run_operation(operation: Any, mode: GenerationMode, headers: dict[str, str],
                  **fixed: Any) -> None:
    strategy = operation.as_strategy(mode, **fixed)

    @given(case=strategy)
    @settings(max_examples=EXAMPLES[mode], deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def check(case: Any) -> None:
        case.call_and_validate(headers=headers, checks=CHECKS)

    try:
        check()
    except Unsatisfiable:
        # Nothing to make invalid (an operation without parameters or body).
        assert mode is GenerationMode.NEGATIVE, operation.label


def test_every_operation_conforms_to_the_document(open_app: Flask) -> None:
    client = open_app.test_client()
    player = Player(client)
    game = player.call("POST", "/games", {"ruleset": "yahtzee", "date": "2026-11-29",
                                          "mode": "ranked"}).get_json()
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", open_app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 15
    headers = {"Authorization": f"Bearer {player.token}"}
    for operation in operations:
        for mode in EXAMPLES:
            if operation.path.endswith("/players/me/token"):  # it spends its token
                throwaway = {"Authorization": f"Bearer {Player(client, 'Rotor').token}"}
                run_operation(operation, mode, throwaway)
                continue
            run_operation(operation, mode, headers)
            if "{game_id}" in operation.path and mode is GenerationMode.POSITIVE:
                run_operation(operation, mode, headers,
                              path_parameters={"game_id": game["id"]})
