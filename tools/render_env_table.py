"""Copy the environment variables' table of ``daily/service/config.py`` into docs/deploy.md.

The config module's docstring is the one list of the variables Daily Dice reads; this
script writes it, as Markdown, between the ``env`` markers of docs/deploy.md.

    python tools/render_env_table.py           # rewrite docs/deploy.md
    python tools/render_env_table.py --check   # exit 1 when docs/deploy.md differs
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from daily.service.config import environment_table  # noqa: E402

DOC = ROOT / "docs" / "deploy.md"
BEGIN = "<!-- env:begin (rendered from daily/service/config.py by tools/render_env_table.py) -->"
END = "<!-- env:end -->"


def rendered(doc: str) -> str:
    """``doc`` with the text between the markers replaced by the config module's table."""
    head, sep, rest = doc.partition(BEGIN)
    if not sep or END not in rest:
        raise SystemExit(f"render_env_table: {DOC.name} lacks the markers {BEGIN} ... {END}")
    return f"{head}{BEGIN}\n{environment_table()}{END}{rest.split(END, 1)[1]}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare, write nothing")
    args = parser.parse_args(argv)
    doc = DOC.read_text()
    new = rendered(doc)
    if args.check:
        if new != doc:
            print("docs/deploy.md: the environment table differs from daily/service/config.py;"
                  " run python tools/render_env_table.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
