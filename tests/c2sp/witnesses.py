"""Real witness processes for the tests: ``daily witness init|add-log|serve``."""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from daily.service.ops.embedded import free_port
from tests.polling import PROCESS_TIMEOUT, wait_until

DAILY = [sys.executable, "-m", "daily"]


def daily(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run the ``daily`` command line in a process of its own."""
    return subprocess.run([*DAILY, *args], capture_output=True, text=True, check=check,
                          timeout=PROCESS_TIMEOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})


@dataclass
class WitnessProcess:
    """A ``daily witness serve`` process, its folder, vkey and URL."""

    folder: Path
    vkey: str
    port: int
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> WitnessProcess:
        log = open(self.folder / "serve.log", "ab")  # noqa: SIM115 - the process keeps it
        self.process = subprocess.Popen(
            [*DAILY, "witness", "serve", "--dir", str(self.folder), "--port", str(self.port)],
            stdout=log, stderr=subprocess.STDOUT)
        wait_until(lambda: urllib.request.urlopen(self.url + "/", timeout=1).status == 200,
                   ignore=(OSError,), alive=lambda: self.process.poll() is None,
                   message=lambda: (self.folder / "serve.log").read_text()[-2000:])
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)
        self.process = None


def make_witness(folder: Path, name: str, log_vkey: str) -> WitnessProcess:
    """A new witness that trusts ``log_vkey`` (not started)."""
    made = daily("witness", "init", "--dir", str(folder), "--name", name)
    vkey = made.stdout.strip().splitlines()[-1]
    daily("witness", "add-log", "--dir", str(folder), "--vkey", log_vkey)
    return WitnessProcess(folder, vkey, free_port())
