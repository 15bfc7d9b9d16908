"""The OpenAPI document is exact. Schemathesis drives every operation of the real app -
the live test server: gunicorn with two workers taking consecutive requests in turn, on
the test's Redis, over HTTP - with generated valid (positive) and invalid (negative)
requests and runs every check it has: valid requests accepted, invalid ones refused,
status codes, content types, headers and bodies as documented, never a 5xx. And every
``/api/v1`` route of the app is in the document.

The suite draws the same examples on every run (Hypothesis derandomized), so a green CI
stays green; ``DAILY_FUZZ=1`` draws new ones each run, for exploring (and with more
examples, ``DAILY_FUZZ_EXAMPLES=N``)."""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.config import SchemathesisConfig

from daily import calendar
from daily.rules import get_ruleset
from daily.service.app import create_app
from daily.service.config import Config
from daily.strategy.tables.fileformat import save_table
from tests.service.conftest import NOON
from tests.service.live import HttpClient, LiveServer, start_gunicorn
from tests.strategy.conftest import shared_table

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.live]

FUZZ = os.environ.get("DAILY_FUZZ") == "1"
_MORE = int(os.environ.get("DAILY_FUZZ_EXAMPLES", "0"))
EXAMPLES = {GenerationMode.POSITIVE: _MORE or 8, GenerationMode.NEGATIVE: _MORE or 5}
#: Every check on, with one addition: an invalid body too large for the body limit is
#: refused with 413 before it is read, which is a refusal like any 4xx.
CONFIG = SchemathesisConfig.from_str("""
[checks.negative_data_rejection]
expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422",
                     "428", "429"]
""")


@pytest.fixture(scope="module")
def live_server(
    live_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    """The live server (its rate limits and proof-of-work off, as for every live module:
    schemathesis sends hundreds of requests, and generated bodies cannot solve a
    challenge), with the Yahtzee strategy table so that hints on a practice game answer.
    Between two generated requests schemathesis takes its time: the worker that
    answered rests until the other has answered, up to a second (instead of the
    suite's 0.05 s), so that consecutive requests still alternate."""
    from daily.service.config import load_config

    table = shared_table(tmp_path_factory, get_ruleset("yahtzee"))
    save_table(table, load_config(live_env).tables_dir)
    env = {**live_env, "DAILY_TEST_HANDOFF": "1"}
    with start_gunicorn(env, tmp_path_factory.mktemp("gunicorn")) as server:
        yield server


def call(client: HttpClient, method: str, path: str, body: Any = None,
         token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = client.open("/api/v1" + path, method, json=body if body is not None else {},
                           headers=headers)
    assert response.status_code in (200, 201), response.data
    return response.get_json()


def run_operation(operation: Any, mode: GenerationMode, base_url: str,
                  headers: Callable[[], dict[str, str]], **fixed: Any) -> None:
    strategy = operation.as_strategy(mode, **fixed)

    @given(case=strategy)
    @settings(max_examples=EXAMPLES[mode], deadline=None, database=None,
              derandomize=not FUZZ, suppress_health_check=list(HealthCheck))
    def check(case: Any) -> None:
        case.call_and_validate(base_url=base_url, headers=headers())  # every check there is

    try:
        check()
    except Unsatisfiable:
        # Nothing to make invalid (an operation without parameters or body).
        assert mode is GenerationMode.NEGATIVE, operation.label


def test_every_api_route_is_in_the_document(client: HttpClient, service_config: Config) -> None:
    app = create_app(service_config)
    doc = client.get("/api/v1/openapi.json").get_json()
    routes = 0
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/v1"):
            continue
        path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule)
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}:
            assert method.lower() in doc["paths"].get(path, {}), (method, path)
            routes += 1
    assert routes == sum(len(ops) for ops in doc["paths"].values()) >= 17


def test_every_operation_conforms_to_the_document(client: HttpClient) -> None:
    token = call(client, "POST", "/players", {"name": "Ada"})["token"]
    today = calendar.open_dates(NOON)[-1].isoformat()  # the server's clock; open a day more
    games = {
        name: call(client, "POST", "/games", body, token)["id"] for name, body in (
            ("ranked", {"ruleset": "yahtzee", "date": today}),
            ("practice", {"ruleset": "yahtzee", "mode": "practice"}),
            ("six dice", {"ruleset": "maxi-yatzy", "mode": "practice"}),  # no table: no hints
        )
    }
    # Each worker's first hint loads the table and, in a fresh clone, compiles the hint
    # kernels (numba's cache is empty): asked here, with the live client's patience,
    # not under schemathesis' 10 s read timeout.
    for _ in range(2):
        call(client, "POST", f"/games/{games['practice']}/hint", {}, token)
    # Two workers took the requests in turn.
    assert all(a != b for a, b in itertools.pairwise(client.workers)), client.workers
    schema = schemathesis.openapi.from_url(f"{client.url}/api/v1/openapi.json", config=CONFIG)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 17
    def ada() -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"}

    def newcomer() -> dict[str, str]:  # rotating or revoking spends the token
        return {"Authorization": f"Bearer {call(client, 'POST', '/players', {})['token']}"}

    for operation in operations:
        headers = newcomer if operation.path.endswith(("/token", "/tokens")) else ada
        for mode in EXAMPLES:
            run_operation(operation, mode, client.url, headers)
            if "{game_id}" not in operation.path:
                continue
            for name, game in games.items():
                if name == "six dice" and operation.path.endswith("/hint"):
                    continue
                run_operation(operation, mode, client.url, headers,
                              path_parameters={"game_id": game})
