"""The environment variables are listed in one place, and docs/deploy.md shows that list.

The table of ``daily/service/config.py`` is the list; ``tools/render_env_table.py`` copies
it into docs/deploy.md. These tests fail when the copy differs, when the service reads a
variable the table does not list, or when the table lists one nothing reads.
"""

from __future__ import annotations

import ast
import contextlib
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from daily.service.config import ConfigError, environment_table, load_config

ROOT = Path(__file__).resolve().parents[2]
#: What the code calls an environment mapping (``os.getenv`` is a call on ``os``).
MAPPINGS = {"os.environ", "environ", "env", "os"}
OURS = re.compile(r"(DAILY|GUNICORN|PROMETHEUS)_[A-Z0-9_]+|REDIS_URL")


def listed() -> set[str]:
    """The variables named in the first column of the table's rows."""
    names: set[str] = set()
    for line in environment_table().splitlines():
        if line.startswith("| `"):
            names.update(re.findall(r"`([A-Z][A-Z0-9_]+)`", line.split("|")[1]))
    return names


class Recorder(dict[str, str]):
    """An environment that remembers every variable asked of it."""

    def __init__(self, *args: object, **kwargs: str) -> None:
        super().__init__(*args, **kwargs)
        self.asked: set[str] = set()

    def get(self, key, default=None):  # type: ignore[override]
        self.asked.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> str:
        self.asked.add(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.asked.add(str(key))
        return super().__contains__(key)


def read_by_load_config() -> set[str]:
    asked: set[str] = set()
    for env in ({}, {"DAILY_DEMO_CLOCK": "1,1,1"}):
        recorder = Recorder(env)
        # a demo clock outside a demo directory is refused, after its reads
        with contextlib.suppress(ConfigError):
            load_config(recorder)
        asked |= recorder.asked
    return asked


def environment_reads(path: Path) -> Iterator[str]:
    """Names read from an environment mapping in ``path``: ``os.environ.get("X")``,
    ``env.get("X")``, ``os.environ["X"]``, ``os.getenv("X")`` and the config module's
    helpers (``_int(env, "X", ...)``)."""
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        name = None
        if isinstance(node, ast.Call) and node.args:
            func, arg = node.func, None
            if (isinstance(func, ast.Attribute) and func.attr in ("get", "getenv", "pop")
                    and ast.unparse(func.value) in MAPPINGS):
                arg = node.args[0]
            elif isinstance(func, ast.Name) and func.id.startswith("_") and len(node.args) > 1:
                arg = node.args[1]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                name = arg.value
        elif (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load)
              and ast.unparse(node.value) in MAPPINGS
              and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)):
            name = node.slice.value
        if name and OURS.fullmatch(name) and not name.startswith("DAILY_TEST_"):
            yield name


def read_anywhere() -> dict[str, Path]:
    found: dict[str, Path] = {}
    files = [*ROOT.joinpath("daily").rglob("*.py"), *ROOT.joinpath("workers").rglob("*.py"),
             *ROOT.joinpath("deploy").rglob("*.py")]
    for path in files:
        for name in environment_reads(path):
            found.setdefault(name, path.relative_to(ROOT))
    return found


def test_deploy_md_shows_the_config_modules_table():
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "render_env_table.py"),
                             "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert environment_table() in (ROOT / "docs" / "deploy.md").read_text()


def test_every_variable_load_config_reads_is_listed():
    asked = read_by_load_config()
    assert {"REDIS_URL", "DAILY_DATA_DIR", "DAILY_MASTER_SECRET_FILE"} <= asked
    assert asked - listed() == set()


def test_every_variable_the_code_reads_is_listed_and_every_listed_one_is_read():
    found = read_anywhere()
    unlisted = {name: str(path) for name, path in found.items() if name not in listed()}
    assert unlisted == {}
    assert listed() - set(found) - read_by_load_config() == set()


def test_the_scan_sees_what_it_should():
    reads = set(environment_reads(ROOT / "deploy" / "gunicorn.conf.py"))
    assert {"GUNICORN_BIND", "GUNICORN_WORKERS"} <= reads
    assert "DAILY_RATE_LIMIT_IP" in set(environment_reads(ROOT / "daily/service/config.py"))
