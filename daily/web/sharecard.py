"""The PNG card of a result or a challenge, drawn on the server with Pillow.

Chat apps show it as the link preview of ``/r/<code>`` and ``/c/<code>`` (OpenGraph
and Twitter tags point at it). The card says what the share text says: the game, the
date, the total (or the totals of a challenge) and one coloured square per box, so
it never shows a die that the result page itself would hide.

>>> png = render_card(ShareCard(title="Yahtzee · 2026-11-29", headline="176",
...     caption="points · rank 3 of 120", marks=["good"] * 6 + ["fair"] * 6 + ["zero"]))
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True

Drawing one costs 130 to 300 ms of CPU, so a card is drawn once and kept on disk
(:func:`cached_card`, under ``<data>/cards``) by the digest of what it shows: the same
code and language give the same card until its rank changes, and every request after
the first reads the file. Files older than :data:`KEPT_SECONDS` are removed as new ones
are written.
"""

from __future__ import annotations

import hashlib
import io
import json
import time
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from daily.service.atomicfile import write_atomic

#: The size chat apps expect of a large preview (1.91:1).
WIDTH, HEIGHT = 1200, 630
BRAND = (31, 78, 121)
PAPER = (255, 253, 248)
INK = (29, 35, 43)
MUTED = (93, 102, 112)
MARK_COLOURS = {"good": (46, 160, 67), "fair": (224, 161, 0), "zero": (40, 40, 40)}
#: Version of the drawing: part of every kept card's digest (a new drawing, new files).
DRAWING = "card/1"
#: Kept cards older than this are removed (one sweep every :data:`SWEEP_EVERY` writes).
KEPT_SECONDS = 3 * 86400
SWEEP_EVERY = 256
#: Fonts tried in order; Pillow's own scalable default font is the last resort.
FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"))


@dataclass(frozen=True)
class ShareCard:
    """What one card shows."""

    title: str
    headline: str
    caption: str
    marks: list[str] = field(default_factory=list)  # "good" | "fair" | "zero", per box
    rows: list[tuple[str, str]] = field(default_factory=list)  # (name, score) lines
    footer: str = "Daily Dice"


@lru_cache(maxsize=16)
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in FONT_DIRS:
        if (folder / name).exists():
            return ImageFont.truetype(str(folder / name), size)
    return ImageFont.load_default(size=size)


def _fit(draw: ImageDraw.ImageDraw, text: str, size: int, width: float, bold: bool = False) -> str:
    """``text`` cut with an ellipsis so it fits ``width`` pixels."""
    font = _font(size, bold)
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


def render_card(card: ShareCard) -> bytes:
    """The card as PNG bytes (1200 x 630)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 96), fill=BRAND)
    draw.text((48, 24), _fit(draw, card.footer, 40, WIDTH - 96, True), font=_font(40, True),
              fill=PAPER)
    draw.text((48, 130), _fit(draw, card.title, 44, WIDTH - 96, True), font=_font(44, True),
              fill=INK)
    draw.text((48, 200), card.headline, font=_font(150, True), fill=BRAND)
    head_w = draw.textlength(card.headline, font=_font(150, True))
    draw.text((48 + head_w + 24, 300), _fit(draw, card.caption, 36, WIDTH - head_w - 120),
              font=_font(36), fill=MUTED)
    y = 400
    for name, score in card.rows[:4]:
        draw.text((48, y), _fit(draw, name, 32, 760), font=_font(32), fill=INK)
        draw.text((860, y), score, font=_font(32, True), fill=INK)
        y += 44
    if card.marks and not card.rows:
        size, gap = 48, 10
        per_row = max(1, min(len(card.marks), (WIDTH - 96 + gap) // (size + gap)))
        for i, mark in enumerate(card.marks):
            row, col = divmod(i, per_row)
            x0, y0 = 48 + col * (size + gap), 420 + row * (size + gap)
            draw.rounded_rectangle((x0, y0, x0 + size, y0 + size), radius=8,
                                   fill=MARK_COLOURS.get(mark, MUTED))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


_WRITES = [0]


def card_digest(card: ShareCard) -> str:
    """The digest of what a card shows (and of :data:`DRAWING`): its file name and ETag.

    >>> card_digest(ShareCard("t", "1", "c")) == card_digest(ShareCard("t", "1", "c"))
    True
    """
    text = json.dumps([DRAWING, asdict(card)], ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def cached_card(card: ShareCard, folder: Path) -> bytes:
    """The card's PNG: read from ``folder`` if drawn before, else drawn and kept there
    (written atomically, so concurrent workers never read half a file)."""
    path = folder / f"{card_digest(card)}.png"
    try:
        return path.read_bytes()
    except FileNotFoundError:
        pass
    png = render_card(card)
    write_atomic(path, [png], durable=False)  # a cache: drawn again if a crash loses it
    _WRITES[0] += 1
    if _WRITES[0] % SWEEP_EVERY == 0:
        sweep(folder)
    return png


def sweep(folder: Path, now: float | None = None) -> int:
    """Remove the kept cards older than :data:`KEPT_SECONDS`; returns how many."""
    limit = (now if now is not None else time.time()) - KEPT_SECONDS
    removed = 0
    for path in folder.glob("*.png"):
        try:
            if path.stat().st_mtime < limit:
                path.unlink()
                removed += 1
        except FileNotFoundError:
            continue
    return removed
