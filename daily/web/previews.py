"""Link previews: the OpenGraph and Twitter tags of ``/r/<code>`` and ``/c/<code>``.

A chat app that is sent a result link fetches the page, reads its ``og:`` and
``twitter:`` tags and shows the title, the description and the PNG card drawn by
:mod:`daily.web.sharecard`. The words follow the request's language (``?lang=`` or
``Accept-Language``), like the share text.

>>> words("it")["points"]
'{total} punti'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from daily.service.games.codes import TITLES
from daily.web.sharecard import ShareCard

_WORDS = {
    "en": {
        "points": "{total} points", "rank": "rank {rank} of {players}", "practice": "practice",
        "result": "{name} scored {total} at {game}", "challenge": "Challenge {code}: {game}",
        "challenge_desc": "Same dice for everyone. {n} played so far; best {best}. "
        "Can you beat it?",
        "challenge_empty": "Same dice for everyone. Can you beat your friends?",
        "player": "a player", "default_player": "Player {n}",
        "group": "Join {name} on Daily Dice",
        "group_desc": "A group of {n} playing the same dice every day. Tap to join.",
        "members": "players",
    },
    "it": {
        "points": "{total} punti", "rank": "{rank}° su {players}", "practice": "allenamento",
        "result": "{name} ha fatto {total} a {game}", "challenge": "Sfida {code}: {game}",
        "challenge_desc": "Gli stessi dadi per tutti. Finora {n} giocatori; il migliore {best}. "
        "Riesci a batterlo?",
        "challenge_empty": "Gli stessi dadi per tutti. Riesci a battere i tuoi amici?",
        "player": "un giocatore", "default_player": "Giocatore {n}",
        "group": "Entra in {name} su Daily Dice",
        "group_desc": "Un gruppo di {n} che gioca gli stessi dadi ogni giorno. Tocca per entrare.",
        "members": "giocatori",
    },
}


def words(lang: str) -> dict[str, str]:
    """The preview words of a language (English when unknown)."""
    return _WORDS.get(lang, _WORDS["en"])


def display_name(name: str | None, lang: str) -> str:
    """A player's name as shown: the default "Player 8731" in the preview's language.

    >>> display_name("Player 8731", "it"), display_name("Ada", "it"), display_name("", "en")
    ('Giocatore 8731', 'Ada', 'a player')
    """
    w = words(lang)
    match = re.fullmatch(r"Player (\d+)", name or "")
    if match:
        return w["default_player"].format(n=match.group(1))
    return name or w["player"]


@dataclass(frozen=True)
class Preview:
    """The tags of one page."""

    title: str
    description: str
    image: str  # absolute URL of the PNG card
    url: str  # absolute URL of the page


def game_title(ruleset: str, date: str | None, lang: str) -> str:
    """``Yahtzee · 2026-11-29`` (or ``· practice``)."""
    return f"{TITLES.get(ruleset, ruleset)} · {date or words(lang)['practice']}"


def result_preview(result: dict[str, Any], base: str, lang: str) -> tuple[Preview, ShareCard]:
    """The tags and the card of a public result (``GameService.public_result``)."""
    w = words(lang)
    name = display_name((result.get("player") or {}).get("name"), lang)
    game = game_title(result["ruleset"], result.get("date"), lang)
    points = w["points"].format(total=result["total"])
    caption = points.replace(str(result["total"]), "").strip()
    if result.get("rank") and result.get("players"):
        ranked = w["rank"].format(rank=result["rank"], players=result["players"])
        caption += f" · {ranked}"
    else:
        ranked = ""
    code = result["code"]
    preview = Preview(
        title=w["result"].format(name=name, total=result["total"], game=game),
        description=" · ".join(p for p in (points, ranked) if p),
        image=f"{base}/r/{code}/card.png?lang={lang}", url=f"{base}/r/{code}",
    )
    card = ShareCard(title=f"{name} · {game}", headline=str(result["total"]), caption=caption,
                     marks=list(result.get("marks") or []))
    return preview, card


def challenge_preview(
    challenge: dict[str, Any], base: str, lang: str
) -> tuple[Preview, ShareCard]:
    """The tags and the card of a challenge (``Challenges.public``)."""
    w = words(lang)
    game = game_title(challenge["ruleset"], challenge.get("date"), lang)
    done = [e for e in challenge.get("entries", []) if e.get("finished")]
    best = max((e["total"] for e in done), default=None)
    code = challenge["code"]
    description = (
        w["challenge_desc"].format(n=len(done), best=best) if done else w["challenge_empty"]
    )
    rows = [(display_name(e.get("name"), lang), str(e["total"]))
            for e in sorted(done, key=lambda e: -e["total"])]
    preview = Preview(
        title=w["challenge"].format(code=code, game=game), description=description,
        image=f"{base}/c/{code}/card.png?lang={lang}", url=f"{base}/c/{code}",
    )
    card = ShareCard(title=w["challenge"].format(code=code, game=game),
                     headline=str(best) if best is not None else "?",
                     caption=w["points"].format(total="").strip(), rows=rows)
    return preview, card


def group_preview(invite: dict[str, Any], base: str, lang: str) -> tuple[Preview, ShareCard]:
    """The tags and the card of a group's invite link (``Groups.invite``).

    >>> preview, card = group_preview({"code": "G-AB12CD", "name": "Friday club",
    ...     "members": 4}, "https://dd.example", "it")
    >>> preview.title, preview.url, card.headline
    ('Entra in Friday club su Daily Dice', 'https://dd.example/g/G-AB12CD', '4')
    """
    w = words(lang)
    code = invite["code"]
    title = w["group"].format(name=invite["name"])
    preview = Preview(
        title=title, description=w["group_desc"].format(n=invite["members"]),
        image=f"{base}/g/{code}/card.png?lang={lang}", url=f"{base}/g/{code}",
    )
    card = ShareCard(title=title, headline=str(invite["members"]), caption=w["members"])
    return preview, card
