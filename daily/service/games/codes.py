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
        "of": " of {players}",
        "legend": f"{GOOD} 60%+ of the box's best · {FAIR} below · {ZERO} 0",
        "streak": "\N{FIRE} {days}-day streak",
        "beat": "beat {name} by {by}", "lost": "lost to {name} by {by}",
        "tied": "tied with {name}",
        "easy": "Easy", "medium": "Medium", "hard": "Hard", "player": "Player {n}",
    },
    "it": {
        "practice": "allenamento", "points": "{total} punti", "rank": "{rank}° posto",
        "of": " su {players}",
        "legend": f"{GOOD} almeno il 60% del massimo della casella · {FAIR} meno · {ZERO} 0",
        "streak": "\N{FIRE} {days} giorni di fila",
        "beat": "battuto {name} di {by}", "lost": "perso con {name} di {by}",
        "tied": "pari con {name}",
        "easy": "Facile", "medium": "Medio", "hard": "Difficile", "player": "Giocatore {n}",
    },
}
#: Squares per line of a share text's lower boxes, at most (the upper boxes take one).
ROW_WIDTH = 9


def versus_text(total: int, others: Sequence[tuple[str, int]], lang: str = "en") -> str:
    """How a total of ``total`` did against others ``(name, total)``, a level's name
    (``easy``, ``medium``, ``hard``) standing for that computer opponent.

    >>> versus_text(250, [("easy", 210), ("hard", 262), ("Ada", 250)])
    'beat Easy by 40 · lost to Hard by 12 · tied with Ada'
    >>> versus_text(250, [("medium", 238), ("Player 4154", 250)], "it")
    'battuto Medio di 12 · pari con Giocatore 4154'
    """
    words = SHARE_WORDS.get(lang, SHARE_WORDS["en"])
    parts = []
    for name, theirs in others:
        shown = words.get(name, name) if name in ("easy", "medium", "hard") else name
        default = re.fullmatch(r"Player (\d+)", shown)
        if default:  # the name a player gets until they choose one, in these words
            shown = words["player"].format(n=default.group(1))
        key = "beat" if total > theirs else "lost" if total < theirs else "tied"
        parts.append(words[key].format(name=shown, by=abs(total - theirs)))
    return " · ".join(parts)
LANGS = tuple(SHARE_WORDS)


def share_text(
    card: Card,
    *,
    date: str | None,
    url: str,
    rank: int | None = None,
    players: int | None = None,
    mode: str = "ranked",
    lang: str = "en",
    streak: int = 0,
    versus: Sequence[tuple[str, int]] = (),
) -> str:
    """The plain-text share message, like Wordle's, with a one-line legend of the squares.

    Then, when there is something to say: the daily streak (from 2 days on) and how the
    game did against its computer opponents and a challenge's rival (``versus``, as for
    :func:`versus_text`). The upper boxes take the first line of squares, the others
    lines of at most :data:`ROW_WIDTH`, as even as they go (13 boxes: 6 and 7).

    >>> from daily.rules import get_ruleset
    >>> card = Card.empty(get_ruleset("yacht")).fill(11, 50, 0)
    >>> print(share_text(card, date="2026-11-29", url="https://dd.example/r/DD-1", rank=3,
    ...                  players=120))
    Daily Dice · Yacht · 2026-11-29
    50 points · rank 3 of 120
    ⬛⬛⬛⬛⬛⬛
    ⬛⬛⬛⬛⬛🟩
    🟩 60%+ of the box's best · 🟨 below · ⬛ 0
    https://dd.example/r/DD-1
    >>> print(share_text(card, date=None, url="https://dd.example/r/DD-1", mode="practice",
    ...                  lang="it").splitlines()[:2])
    ['Daily Dice · Yacht · allenamento', '50 punti']
    >>> print(share_text(card, date="2026-11-29", url="u", streak=3,
    ...                  versus=[("hard", 44)]).splitlines()[2:4])
    ['🔥 3-day streak', 'beat Hard by 6']
    """
    words = SHARE_WORDS.get(lang, SHARE_WORDS["en"])
    title = TITLES.get(card.rules.name, card.rules.title)
    head = " · ".join(p for p in ("Daily Dice", title, date or words["practice"]) if p)
    if mode == "practice" and date:
        head += f" ({words['practice']})"
    score = words["points"].format(total=card.total)
    if rank is not None:
        score += " · " + words["rank"].format(rank=rank)
        if players:
            score += words["of"].format(players=players)
    extra = []
    if streak >= 2:
        extra.append(words["streak"].format(days=streak))
    if versus:
        extra.append(versus_text(card.total, versus, lang))
    marks = box_marks(card)
    if len(card.rules.weights) > 1:  # Triple Yahtzee: one line per column
        columns = ["".join(marks[i] for i in col) for col in card.rules.columns]
        return "\n".join([head, score, *extra, *columns, url])
    upper = len(card.rules.upper_indices)
    lines = [head, score, *extra, "".join(marks[:upper]), *_rows(marks[upper:]),
             words["legend"], url]
    return "\n".join(lines)


def _rows(marks: Sequence[str], most: int = ROW_WIDTH) -> list[str]:
    """``marks`` in as few lines of at most ``most`` as they need, as even as they go.

    >>> [len(r) for r in _rows("x" * 7)], [len(r) for r in _rows("x" * 14)]
    ([7], [7, 7])
    """
    if not marks:
        return []
    lines = -(-len(marks) // most)
    width = -(-len(marks) // lines)
    return ["".join(marks[i : i + width]) for i in range(0, len(marks), width)]
