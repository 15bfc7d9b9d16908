"""Result codes and share texts.

A result code is ``DD-`` and 10 Crockford base32 characters (50 random bits): it says
nothing about the dice or the seed, and it is read case-insensitively, tolerating the
look-alikes ``I``/``L`` for ``1`` and ``O`` for ``0`` and a missing prefix.

>>> parse_code("dd-abcd-efgh-jk")
'DD-ABCDEFGHJK'
>>> parse_code("Dd-0oIl1")
'DD-00111'
>>> parse_code("DD-U2")
Traceback (most recent call last):
...
daily.service.refusals.Invalid: code: 'DD-U2' is not a result code: 'U' is not Crockford base32
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from typing import Any

from daily.card import Card
from daily.rules import Ruleset
from daily.service.refusals import Invalid

PREFIX = "DD-"
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_LENGTH = 10
MAX_CODE_LENGTH = 12
_ALIASES = {"I": "1", "L": "1", "O": "0"}

GOOD = "\N{LARGE GREEN SQUARE}"
FAIR = "\N{LARGE YELLOW SQUARE}"
ZERO = "\N{BLACK LARGE SQUARE}"
#: The squares by name (what the PNG share card draws).
MARK_NAMES = {GOOD: "good", FAIR: "fair", ZERO: "zero"}
TITLES = {"yahtzee": "Yahtzee", "maxi-yatzy": "Maxi Yatzy", "yatzy": "Yatzy", "yacht": "Yacht"}


def new_code() -> str:
    """A fresh random result code.

    >>> code = new_code()
    >>> code.startswith(PREFIX), len(code) == len(PREFIX) + CODE_LENGTH
    (True, True)
    """
    return random_code(PREFIX, CODE_LENGTH)


def parse_code(text: Any) -> str:
    """The canonical form of a result code typed by a person: dashes optional (the
    prefix's too: ``DD`` and 10 characters is the prefix and a code), spaces ignored.

    >>> parse_code("DDMH2G1DYJSS"), parse_code("DD- MH2G1DYJSS"), parse_code("mh2g 1dyj ss")
    ('DD-MH2G1DYJSS', 'DD-MH2G1DYJSS', 'DD-MH2G1DYJSS')
    """
    return parse_crockford(text, PREFIX, MAX_CODE_LENGTH, "result code", code="bad_result_code",
                           length=CODE_LENGTH)


def parse_crockford(
    text: Any, prefix: str, max_length: int, what: str, field: str = "code",
    code: str = "invalid_field", length: int | None = None,
) -> str:
    """A typed code in canonical form: upper case, ``prefix`` + Crockford characters.

    Dashes and spaces are ignored, the prefix may be left out, ``I``/``L`` read as
    ``1`` and ``O`` as ``0``; with ``length`` (the length of the codes made now), the
    prefix's letters without its dash before ``length`` characters are the prefix. A
    text that is no such code is refused with the error code ``code``
    (``bad_group_code``, ...), naming ``field``.

    >>> parse_crockford("ch-k7m2 q9xd", "CH-", 8, "challenge code")
    'CH-K7M2Q9XD'
    """
    if not isinstance(text, str) or len(text) > 40:
        raise Invalid(f"a {what} is a short string", code=code, field=field)
    body = text.strip().upper()
    if body.startswith(prefix) and body[len(prefix) :].replace("-", "").replace(" ", ""):
        body = body[len(prefix) :]  # ("DD-" alone is the code "DD", as the schema reads it)
    body = body.replace("-", "").replace(" ", "")
    letters = prefix.rstrip("-")
    if length is not None and len(body) == len(letters) + length and body.startswith(letters) \
            and not text.strip().upper().startswith(prefix):
        body = body[len(letters):]
    out = []
    for ch in body:
        ch = _ALIASES.get(ch, ch)
        if ch not in CROCKFORD:
            raise Invalid(f"{text!r} is not a {what}: {ch!r} is not Crockford base32",
                          code=code, field=field)
        out.append(ch)
    if not 1 <= len(out) <= max_length:
        raise Invalid(
            f"{text!r} is not a {what}: {prefix} and 1 to {max_length} characters",
            code=code, field=field,
        )
    return prefix + "".join(out)


def random_code(prefix: str, length: int) -> str:
    """``prefix`` and ``length`` random Crockford characters.

    >>> len(random_code("CH-", 8))
    11
    """
    return prefix + "".join(secrets.choice(CROCKFORD) for _ in range(length))


#: The best points of each box, per ruleset object (a few thousand evaluations to make).
_BEST: dict[int, tuple[Ruleset, list[int]]] = {}


def _best_points(rules: Ruleset) -> list[int]:
    """The best points each box of ``rules`` can score (served points included)."""
    found = _BEST.get(id(rules))
    if found is None or found[0] is not rules:
        table = rules.served_table  # the same as rules.table unless served points exist
        best = [max(points[i] for points in table.values()) for i in range(len(rules.boxes))]
        if len(_BEST) >= 64:
            _BEST.clear()
        found = _BEST[id(rules)] = (rules, best)
    return found[1]


def box_marks(card: Card) -> list[str]:
    """One square per box: green at 60 % of the box's best or more, yellow below,
    black for a scratched box.

    >>> from daily.rules import get_ruleset
    >>> card = Card.empty(get_ruleset("yacht"))
    >>> card = card.fill(5, 24, 0).fill(0, 1, 0).fill(1, 0, 0)
    >>> "".join(box_marks(card)[:6])
    '🟨⬛⬛⬛⬛🟩'
    """
    best = _best_points(card.rules)
    marks = []
    for points, top in zip(card.scores, best, strict=True):
        if not points:
            marks.append(ZERO)
        elif points * 10 >= top * 6:
            marks.append(GOOD)
        else:
            marks.append(FAIR)
    return marks


#: The words of a share text, per language (``en`` is the fallback).
SHARE_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "practice": "practice", "points": "{total} points", "rank": "rank {rank}",
        "tied": "tied {nth}", "of": " of {players}", "pending": "rank not known yet",
        "vs": "vs. ", "bot": "{level} bot {total}", "named": "{name} {total}",
        "easy": "easy", "medium": "medium", "hard": "hard", "player": "Player {n}",
    },
    "it": {
        "practice": "allenamento", "points": "{total} punti", "rank": "{rank}° posto",
        "tied": "{nth} a pari merito", "of": " su {players}",
        "pending": "posizione non ancora nota",
        "vs": "contro ", "bot": "bot {level} {total}", "named": "{name} {total}",
        "easy": "facile", "medium": "medio", "hard": "difficile", "player": "Giocatore {n}",
    },
}


def ordinal(rank: int, lang: str = "en") -> str:
    """``rank`` as an ordinal in ``lang``: "1st", "22nd", "13th"; "primo", "3°".

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 103)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '103rd']
    >>> ordinal(1, "it"), ordinal(3, "it")
    ('primo', '3°')
    """
    if lang == "it":
        return "primo" if rank == 1 else f"{rank}°"
    if rank % 100 in (11, 12, 13):
        return f"{rank}th"
    return f"{rank}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(rank % 10, 'th')}"


def rank_words(rank: int, players: int | None, tied: int = 1, lang: str = "en") -> str:
    """A rank in a share text's words: a tie (``tied`` results share the rank, yours
    included) is worded as one.

    >>> rank_words(3, 120), rank_words(1, 5, tied=4), rank_words(1, 5, tied=4, lang="it")
    ('rank 3 of 120', 'tied 1st of 5', 'primo a pari merito su 5')
    """
    words = SHARE_WORDS.get(lang, SHARE_WORDS["en"])
    text = (words["tied"].format(nth=ordinal(rank, lang)) if tied > 1
            else words["rank"].format(rank=rank))
    return text + (words["of"].format(players=players) if players else "")


def versus_text(others: Sequence[tuple[str, int]], lang: str = "en") -> str:
    """The opponents the player chose, ``(name, total)``, a level's name (``easy``,
    ``medium``, ``hard``) standing for that computer opponent.

    >>> versus_text([("hard", 255)])
    'vs. hard bot 255'
    >>> versus_text([("medium", 238), ("Player 4154", 250)], "it")
    'contro bot medio 238, Giocatore 4154 250'
    """
    words = SHARE_WORDS.get(lang, SHARE_WORDS["en"])
    parts = []
    for name, theirs in others:
        if name in ("easy", "medium", "hard"):
            parts.append(words["bot"].format(level=words[name], total=theirs))
            continue
        default = re.fullmatch(r"Player (\d+)", name)
        shown = words["player"].format(n=default.group(1)) if default else name
        parts.append(words["named"].format(name=shown, total=theirs))
    return words["vs"] + ", ".join(parts) if parts else ""
LANGS = tuple(SHARE_WORDS)


def share_text(
    card: Card,
    *,
    date: str | None,
    url: str,
    rank: int | None = None,
    players: int | None = None,
    tied: int = 1,
    mode: str = "ranked",
    lang: str = "en",
    versus: Sequence[tuple[str, int]] = (),
) -> str:
    """The plain-text share message in three lines, like Wordle's: the game, its date,
    the score and the rank (a tie worded as one; a ranked game not on its board yet
    says so) and the opponents the player chose (``versus``, as for
    :func:`versus_text`); the squares of the card (the upper boxes, a space, the
    others; Triple Yahtzee's columns apart); the link.

    >>> from daily.rules import get_ruleset
    >>> card = Card.empty(get_ruleset("yacht")).fill(11, 50, 0)
    >>> print(share_text(card, date="2026-11-29", url="https://dd.example/r/DD-1", rank=3,
    ...                  players=120))
    Daily Dice · Yacht · 2026-11-29 · 50 points · rank 3 of 120
    ⬛⬛⬛⬛⬛⬛ ⬛⬛⬛⬛⬛🟩
    https://dd.example/r/DD-1
    >>> print(share_text(card, date=None, url="https://dd.example/r/DD-1", mode="practice",
    ...                  lang="it").splitlines()[0])
    Daily Dice · Yacht · allenamento · 50 punti
    >>> print(share_text(card, date="2026-11-29", url="u", versus=[("hard", 44)],
    ...                  rank=1, players=5, tied=2).splitlines()[0])
    Daily Dice · Yacht · 2026-11-29 · 50 points · tied 1st of 5 · vs. hard bot 44
    >>> share_text(card, date="2026-11-29", url="u").splitlines()[0].endswith("not known yet")
    True
    """
    words = SHARE_WORDS.get(lang, SHARE_WORDS["en"])
    title = TITLES.get(card.rules.name, card.rules.title)
    when = date or words["practice"]
    if mode == "practice" and date:
        when += f" ({words['practice']})"
    parts = ["Daily Dice", title, when, words["points"].format(total=card.total)]
    if rank is not None:
        parts.append(rank_words(rank, players, tied, lang))
    elif mode == "ranked" and date:
        parts.append(words["pending"])
    if versus:
        parts.append(versus_text(versus, lang))
    marks = box_marks(card)
    if len(card.rules.weights) > 1:  # Triple Yahtzee: the columns, apart
        grid = " ".join("".join(marks[i] for i in col) for col in card.rules.columns)
    else:
        upper = len(card.rules.upper_indices)
        grid = " ".join(p for p in ("".join(marks[:upper]), "".join(marks[upper:])) if p)
    return "\n".join([" · ".join(parts), grid, url])
