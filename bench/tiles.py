"""Writing a sealed log as C2SP tiles (:func:`workers.cosign.write_tiles`'s work).

Usage: ``python bench/tiles.py [--leaves 1000000]``: the tree of ``--leaves`` leaf
lines of 420 bytes (about a result leaf's size) is built, then every tile and entry
bundle is written to a temporary folder as the job writes them (atomic, not synced).
Figures: the wall seconds of the writing, the files written, and the peak resident
memory of this process (the tree included).
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import benchjson

from daily.audit.c2sp.tiles import tiles
from daily.audit.merkle import MerkleTree
from daily.service.atomicfile import write_atomic


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leaves", type=int, default=1_000_000)
    args = parser.parse_args()
    line = b'{"leaf":%d,"pad":"' + b"x" * 400 + b'"}'
    tree = MerkleTree.of_leaves(line % i for i in range(args.leaves))
    base = Path(tempfile.mkdtemp())
    start = time.perf_counter()
    files = 0
    for path, data in tiles(tree, (line % i for i in range(args.leaves)), args.leaves):
        write_atomic(base / path, [data], durable=False)
        files += 1
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{files} files in {seconds:.1f} s, peak RSS {peak:.0f} MB")
    benchjson.record("tiles", {
        "write_seconds": benchjson.figure(round(seconds, 2), "s"),
        "files": benchjson.figure(files, "files"),
        "peak_rss_mb": benchjson.figure(round(peak), "MB"),
    })


if __name__ == "__main__":
    main()
