"""The OpenAPI document is exact: schemathesis drives every operation of the real app
with generated valid (positive) and invalid (negative) requests and runs every check
it has - valid requests accepted, invalid ones refused, status codes, content types,
headers and bodies as documented, never a 5xx - and every ``/api/v1`` route of the app
is in the document."""

from __future__ import annotations

import re
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.config import SchemathesisConfig

from daily.rules import get_ruleset
from daily.service.app import create_app
from daily.service.clock import FixedClock
from daily.service.config import Config
from daily.strategy.tablefile import save_table
from tests.service.conftest import Player
from tests.strategy.conftest import shared_table

pytestmark = [pytest.mark.redis, pytest.mark.slow]

EXAMPLES = {GenerationMode.POSITIVE: 15, GenerationMode.NEGATIVE: 10}
#: Every check on, with one addition: an invalid body too large for the body limit is
#: refused with 413 before it is read, which is a refusal like any 4xx.
CONFIG = SchemathesisConfig.from_str("""
[checks.negative_data_rejection]
expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422",
                     "428", "429"]
""")


@pytest.fixture
def open_app(service_config: Config, clock: FixedClock,
             tmp_path_factory: pytest.TempPathFactory) -> Flask:
    # the Yahtzee strategy table, so that hints on a practice game answer 200
    save_table(shared_table(tmp_path_factory, get_ruleset("yahtzee")), service_config.tables_dir)
    return create_app(service_config, {"TESTING": True, "CLOCK": clock,
                                       "RATELIMIT_ENABLED": False})


def run_operation(operation: Any, mode: GenerationMode, headers: dict[str, str],
                  **fixed: Any) -> None:
    strategy = operation.as_strategy(mode, **fixed)

    @given(case=strategy)
    @settings(max_examples=EXAMPLES[mode], deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def check(case: Any) -> None:
        case.call_and_validate(headers=headers)  # every check schemathesis has

    try:
        check()
    except Unsatisfiable:
        # Nothing to make invalid (an operation without parameters or body).
        assert mode is GenerationMode.NEGATIVE, operation.label


def test_every_api_route_is_in_the_document(open_app: Flask) -> None:
    doc = open_app.test_client().get("/api/v1/openapi.json").get_json()
    routes = 0
    for rule in open_app.url_map.iter_rules():
        if not rule.rule.startswith("/api/v1"):
            continue
        path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule)
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}:
            assert method.lower() in doc["paths"].get(path, {}), (method, path)
            routes += 1
    assert routes == sum(len(ops) for ops in doc["paths"].values()) >= 17


def test_every_operation_conforms_to_the_document(open_app: Flask) -> None:
    client = open_app.test_client()
    player = Player(client)
    games = {
        name: player.call("POST", "/games", body).get_json()["id"] for name, body in (
            ("ranked", {"ruleset": "yahtzee", "date": "2026-11-29", "mode": "ranked"}),
            ("practice", {"ruleset": "yahtzee", "mode": "practice"}),
            ("six dice", {"ruleset": "maxi-yatzy", "mode": "practice"}),  # no table: no hints
        )
    }
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", open_app, config=CONFIG)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 17
    headers = {"Authorization": f"Bearer {player.token}"}
    for operation in operations:
        for mode in EXAMPLES:
            run_operation(operation, mode, headers)
            if "{game_id}" not in operation.path:
                continue
            for name, game in games.items():
                if name == "six dice" and operation.path.endswith("/hint"):
                    continue
                run_operation(operation, mode, headers, path_parameters={"game_id": game})
