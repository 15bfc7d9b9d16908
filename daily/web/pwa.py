"""The installable web app: manifest, icons, the service worker and offline Practice's rules.

Daily Dice installs like an app (a manifest with its name and icons, and a service
worker). The service worker (``static/sw.js``, served at ``/sw.js`` so that it controls
the whole site) keeps the shell and Practice on random dice working offline, and never
serves a daily die or an API answer from a cache: every ``/api/`` request goes to the
network only, a page is fetched from the network first (its cached shell only when
offline), and the shell's files are cached under a version that is the hash of their
bytes, so a new release replaces them all at once.

Offline Practice needs the rules in the browser. They are **data generated from the
core** at serve time (:func:`offline_rules`), never written by hand: for each ruleset
the points of every box for every sorted roll (``Ruleset.table``, and
``served_table`` where a combination made on the first roll scores more), the boxes'
columns, joker points and the ruleset's flags. A small generic client
(``static/offline.js``) consults them; ``tests/web/test_offline_browser.py`` plays
thousands of random games in Chromium with it and checks every choice, point, legality,
reason and total against the core (docs/web.md says why this and not the Python core
in WebAssembly).

>>> data = offline_rules()
>>> sorted(data["rulesets"]) == sorted(RULESET_NAMES)
True
>>> data["rulesets"]["yahtzee"]["table"]["23455"][9]   # small straight
30
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from daily.rules import RULESET_NAMES, Ruleset, get_ruleset

#: The format of :func:`offline_rules`' document.
OFFLINE_FORMAT = "daily-offline-rules/1"
STATIC = Path(__file__).resolve().parent / "static"
#: Icon sizes of the manifest (pixels); each also as a maskable icon.
ICON_SIZES = (192, 512)
BRAND = (31, 78, 121)
PAPER = (255, 255, 255)


def _key(roll: tuple[int, ...]) -> str:
    return "".join(str(d) for d in roll)


def ruleset_data(rules: Ruleset) -> dict[str, Any]:
    """What offline play needs of one ruleset, straight from the core's :class:`Ruleset`.

    >>> d = ruleset_data(get_ruleset("generala"))
    >>> d["served"]["33355"][7], d["table"]["33355"][7], d["double_index"]
    (35, 30, 10)
    """
    return {
        "ruleset": rules.name,
        "options": rules.non_default_options(),
        "dice": rules.dice,
        "rolls_per_turn": rules.rolls_per_turn,
        "saved_rolls": rules.saved_rolls,
        "boxes": [{"id": b.id, "upper": b.upper, "column": b.column,
                   "joker_points": b.joker_points} for b in rules.boxes],
        "upper_bonus_threshold": rules.upper_bonus_threshold,
        "upper_bonus": rules.upper_bonus,
        "weights": list(rules.weights),
        "columns": [list(c) for c in rules.columns],
        "column_upper": [list(c) for c in rules.column_upper],
        "column_lower": [list(c) for c in rules.column_lower],
        "column_yahtzee": list(rules.column_yahtzee),
        "yahtzee_index": rules.yahtzee_index,
        "double_index": rules.double_index,
        "extra_yahtzee_bonus": rules.extra_yahtzee_bonus,
        "joker": rules.joker,
        "forced_order": rules.forced_order,
        "served_wins": rules.served_wins,
        "table": {_key(roll): list(points) for roll, points in rules.table.items()},
        "served": ({_key(roll): list(points) for roll, points in rules.served_table.items()}
                   if rules.served else None),
    }


@functools.lru_cache(maxsize=1)
def offline_rules() -> dict[str, Any]:
    """Every ruleset with its default options, as offline Practice plays them."""
    return {"format": OFFLINE_FORMAT,
            "rulesets": {name: ruleset_data(get_ruleset(name)) for name in RULESET_NAMES}}


@functools.lru_cache(maxsize=1)
def offline_rules_bytes() -> bytes:
    """:func:`offline_rules` as compact JSON, the same bytes every time."""
    return json.dumps(offline_rules(), separators=(",", ":"), sort_keys=True).encode()


#: The shell's files the service worker keeps: the page, its modules, styles, icons,
#: the manifest and the rules of offline Practice (not the proof-of-work worker: a new
#: player needs the network anyway).
SHELL_STATIC = (
    "app.js", "api.js", "i18n.js", "ui.js", "store.js", "card.js", "advice.js", "end.js",
    "feel.js", "together.js", "game.js", "pages.js", "notes.js", "pow.js", "rules.js",
    "offline.js", "local.js", "install.js", "audit.js", "passkeys.js", "checkpoint.js",
    "reminders.js", "style.css",
)


def shell_urls() -> list[str]:
    """Every URL the service worker caches when it installs."""
    icons = [f"/icons/{size}.png" for size in ICON_SIZES] + [
        f"/icons/maskable-{size}.png" for size in ICON_SIZES]
    return ["/", "/manifest.webmanifest", "/offline/rules.json", *icons,
            *(f"/static/web/{name}" for name in SHELL_STATIC)]


@functools.lru_cache(maxsize=1)
def shell_version() -> str:
    """A hash of everything the service worker caches: a release that changes any of it
    gets a new service worker, which replaces the whole cache."""
    digest = hashlib.sha256()
    for name in (*SHELL_STATIC, "sw.js"):
        digest.update(name.encode() + b"\0" + (STATIC / name).read_bytes())
    digest.update((STATIC.parent / "templates" / "index.html").read_bytes())
    digest.update(offline_rules_bytes())
    return digest.hexdigest()[:16]


def service_worker() -> bytes:
    """``static/sw.js`` with the version and the list of the shell's URLs first."""
    head = (f"const VERSION = {json.dumps(shell_version())};\n"
            f"const SHELL = {json.dumps(shell_urls())};\n")
    return head.encode() + (STATIC / "sw.js").read_bytes()


def manifest(lang: str = "en") -> dict[str, Any]:
    """The web app manifest.

    >>> manifest("it")["lang"], manifest()["display"]
    ('it', 'standalone')
    """
    description = {
        "en": "The same dice for everyone, every day: Yahtzee and Maxi Yatzy, ranked daily.",
        "it": "Gli stessi dadi per tutti, ogni giorno: Yahtzee e Maxi Yatzy, "
              "con la classifica del giorno.",
    }
    icons = [{"src": f"/icons/{s}.png", "sizes": f"{s}x{s}", "type": "image/png",
              "purpose": "any"} for s in ICON_SIZES]
    icons += [{"src": f"/icons/maskable-{s}.png", "sizes": f"{s}x{s}", "type": "image/png",
               "purpose": "maskable"} for s in ICON_SIZES]
    return {
        "name": "Daily Dice", "short_name": "Daily Dice", "id": "/", "start_url": "/",
        "scope": "/", "display": "standalone", "orientation": "any",
        "lang": lang if lang in description else "en",
        "description": description.get(lang, description["en"]),
        "background_color": "#fffdf8", "theme_color": "#1f4e79",
        "categories": ["games"], "icons": icons,
    }


@functools.lru_cache(maxsize=8)
def icon_png(size: int, maskable: bool = False) -> bytes:
    """The app's icon: three white pips on the brand's blue, as PNG; a maskable icon keeps
    the pips inside the safe circle (80 % of the size) and fills the square.

    >>> icon_png(192)[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    scale = 4  # drawn large and scaled down: smooth edges
    big = size * scale
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if maskable:
        draw.rectangle((0, 0, big, big), fill=BRAND)
        inner, offset = big * 0.6, big * 0.2
    else:
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big // 5, fill=BRAND)
        inner, offset = big * 0.8, big * 0.1
    r = inner * 0.1
    for fx, fy in ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)):
        cx, cy = offset + inner * fx, offset + inner * fy
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=PAPER)
    out = io.BytesIO()
    image.resize((size, size), Image.Resampling.LANCZOS).save(out, format="PNG", optimize=True)
    return out.getvalue()
