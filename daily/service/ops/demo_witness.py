"""The local witness of a demo (``daily serve --demo-day-minutes``): so the flow of
checkpoints and cosignatures is visible on one machine.

:func:`demo_witness` makes ``<demo data>/witness`` once (a witness key, trusting the
demo's results key) and returns the supervisor's child that serves it on a free local
``port``, with the ``DAILY_WITNESSES`` entry the service's processes get.

>>> import tempfile
>>> from daily.service.config import load_config
>>> config = load_config({"DAILY_DATA_DIR": tempfile.mkdtemp()})
>>> spec, entry = demo_witness(config, {}, 7380)
>>> spec.name, entry.split("+")[0]
('witness', 'demo.witness.localhost/w1')
"""

from __future__ import annotations

import sys

from daily.audit.c2sp.note import raw_public
from daily.service.audit.checkpoints import results_vkey
from daily.service.config import Config
from daily.service.days.keyring import Keyring, init_keys
from daily.service.ops.supervisor import ChildSpec
from daily.witness.witness_dir import WitnessDir

NAME = "demo.witness.localhost/w1"


def demo_witness(config: Config, env: dict[str, str], port: int) -> tuple[ChildSpec, str]:
    """The witness child of a demo and its ``DAILY_WITNESSES`` entry (``VKEY URL``)."""
    init_keys(config.keys_dir)  # never overwrites: the demo's own keys
    _, key = Keyring.from_dir(config.keys_dir).results_signer()
    folder = config.data_dir / "witness"
    witness = WitnessDir(folder) if (folder / "witness.key").exists() else WitnessDir.init(
        folder, NAME)
    witness.add_log(results_vkey(config, raw_public(key)))
    spec = ChildSpec("witness", [sys.executable, "-m", "daily", "witness", "serve", "--dir",
                                 str(folder), "--port", str(port)], env)
    return spec, f"{witness.vkey()} http://127.0.0.1:{port}"
