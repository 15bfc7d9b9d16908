"""Every dotted path the documents name still exists.

README.md, ``docs/*.md`` and the docstrings and comments of ``daily/`` and ``workers/``
name modules and their members as ``daily.service.games.flow``,
``daily.service.config.load_config`` or ``daily.web.routes:bp``. Each must import: the
longest prefix that is a module, then every further part an attribute of it (a
dataclass field or an annotated attribute counts). A module moved or renamed without
its mentions fails here, naming the file and the path.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("daily", "workers")
#: ``daily.x.y`` or ``workers.x``, optionally ``:attr.sub`` (an entry point's form); not
#: inside a file name or a URL (``daily/v1``, ``x.daily.y``).
DOTTED = re.compile(r"(?<![\w./-])((?:daily|workers)(?:\.[A-Za-z_]\w*)+)(?::([A-Za-z_][\w.]*\w))?")
#: Suffixes that make a dotted name a file name, not a module.
FILE_SUFFIXES = (".py", ".md", ".json", ".jsonl", ".txt", ".toml", ".js", ".css")


def texts() -> Iterator[tuple[Path, str]]:
    """The documents, and every docstring and the comments of each module."""
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        yield path, path.read_text()
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            source = path.read_text()
            for node in ast.walk(ast.parse(source, str(path))):
                if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                              | ast.AsyncFunctionDef):
                    docstring = ast.get_docstring(node, clean=False)
                    if docstring:
                        yield path, docstring
            yield path, "\n".join(line.split("#", 1)[1] for line in source.splitlines()
                                  if "#" in line)


def _has(owner: object, name: str) -> bool:
    fields = getattr(owner, "__dataclass_fields__", {})
    return hasattr(owner, name) or name in fields or name in getattr(
        owner, "__annotations__", {})


def resolves(dotted: str, attribute: str | None = None) -> bool:
    """Whether ``dotted`` (and ``attribute`` of it, dotted too) names something that exists.

    >>> resolves("daily.service.config.load_config"), resolves("daily.web.routes", "bp")
    (True, True)
    >>> resolves("daily.service.api"), resolves("daily.rules", "no_such_thing")
    (False, False)
    """
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        name = ".".join(parts[:cut])
        try:
            spec = importlib.util.find_spec(name)
        except ImportError:
            spec = None
        if spec is None:
            continue
        owner: object = importlib.import_module(name)
        for part in [*parts[cut:], *(attribute.split(".") if attribute else [])]:
            if not _has(owner, part):
                return False
            owner = getattr(owner, part, None)
        return True
    return False


def named_paths() -> set[tuple[str, str, str | None]]:
    """(file, dotted path, attribute) of every dotted path the texts name."""
    found = set()
    for path, text in texts():
        for match in DOTTED.finditer(text):
            dotted = match.group(1)
            if not dotted.endswith(FILE_SUFFIXES):
                found.add((str(path.relative_to(ROOT)), dotted, match.group(2)))
    return found


def test_the_scan_finds_paths_and_fails_on_a_missing_one():
    found = named_paths()
    assert ("daily/service/app.py", "daily.web.routes", "bp") in found
    assert len(found) > 100
    assert not resolves("daily.service.games.no_such_module")
    assert not resolves("daily.audit.verify.DayReport.no_such_field")
    assert resolves("daily.audit.verify.DayReport.results_keys")  # a dataclass field


def test_every_dotted_path_in_the_docs_and_docstrings_exists():
    missing = sorted(f"{file}: {dotted}{':' + attr if attr else ''}"
                     for file, dotted, attr in named_paths() if not resolves(dotted, attr))
    assert missing == []
