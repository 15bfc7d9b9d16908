"""A test player that drives the page like a person: by clicking, or by keyboard only.

Its strategy is simple on purpose (keep the most common face, roll while rolls remain,
take the box with the most preview points): the point is to exercise the interface,
including scratching a box for 0 through the confirmation dialog.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from playwright.sync_api import Page, expect

GAME = "section.game"
TIMEOUT = 20_000  # generous: CI runs the whole suite on 2 cores


def state(page: Page) -> dict[str, Any]:
    """What the play screen shows: turn, roll, rolls left, dice, holds, choices."""
    page.wait_for_selector(f'{GAME}[data-busy="0"]', timeout=TIMEOUT)
    return page.evaluate(
        """() => {
        const g = document.querySelector('section.game');
        const dice = [...g.querySelectorAll('.die')];
        const left = g.querySelector('[data-testid=rolls-left]');
        return {
          id: g.dataset.gameId, turn: +g.dataset.turn, roll: +g.dataset.roll,
          over: g.dataset.over === '1',
          left: left ? +left.dataset.left : 0,
          dice: dice.map(d => +d.querySelector('.face').dataset.face),
          kept: dice.map(d => d.getAttribute('aria-pressed') === 'true'),
          choices: [...g.querySelectorAll('.card button.box-btn:not([disabled])')]
            .map(b => ({box: b.dataset.box, points: +b.dataset.points})),
          disabled: [...g.querySelectorAll('.card button.box-btn[disabled]')]
            .map(b => b.dataset.box),
        };
      }"""
    )


def wanted_holds(dice: list[int]) -> list[bool]:
    """Keep every die of the most common face (the highest face on ties)."""
    counts = Counter(dice)
    face = max(counts, key=lambda f: (counts[f], f))
    return [d == face for d in dice]


def wait_moved(page: Page, turn: int, roll: int) -> None:
    """Wait until the server's answer to a move is on screen."""
    page.wait_for_function(
        """([turn, roll]) => {
          const g = document.querySelector('section.game');
          return g && g.dataset.busy === '0'
            && (g.dataset.over === '1' || +g.dataset.turn !== turn || +g.dataset.roll !== roll);
        }""",
        arg=[turn, roll],
        timeout=TIMEOUT,
    )


def play_turn(page: Page, *, keyboard: bool = False, max_rerolls: int = 2) -> dict[str, Any]:
    """Play one whole turn; returns the box chosen with its preview points."""
    s = state(page)
    rerolls = 0
    while s["left"] > 0 and rerolls < max_rerolls:
        want = wanted_holds(s["dice"])
        if all(want):
            break
        for index, (kept, keep) in enumerate(zip(s["kept"], want, strict=True)):
            if kept != keep:
                if keyboard:
                    page.keyboard.press(str(index + 1))
                else:
                    page.locator(f"{GAME} .die[data-index='{index}']").click()
        expect(page.locator(f"{GAME} .die[aria-pressed='true']")).to_have_count(sum(want))
        if keyboard:
            page.keyboard.press(" " if rerolls % 2 == 0 else "r")
        else:
            page.get_by_test_id("roll").click()
        wait_moved(page, s["turn"], s["roll"])
        rerolls += 1
        s = state(page)
    best = max(s["choices"], key=lambda c: c["points"])
    if keyboard:
        page.keyboard.press("ArrowDown")
        position = [c["box"] for c in s["choices"]].index(best["box"])
        for _ in range(position):
            page.keyboard.press("ArrowDown")
        focused = page.evaluate("document.activeElement.dataset.box")
        assert focused == best["box"], (focused, best)
        page.keyboard.press("Enter")
        if best["points"] != 0 and confirms(page):  # select, then confirm (focused)
            expect(page.get_by_test_id("box-confirm")).to_be_focused()
            page.keyboard.press("Enter")
    else:
        pick_box(page, best["box"], best["points"])
        wait_moved(page, s["turn"], s["roll"])
        return best
    if best["points"] == 0:
        dialog = page.locator("dialog#confirm")
        expect(dialog).to_be_visible()
        if keyboard:
            page.keyboard.press("Tab")
            page.keyboard.press("Enter")
        else:
            page.locator("#confirm-yes").click()
    wait_moved(page, s["turn"], s["roll"])
    return best


def confirms(page: Page) -> bool:
    """Whether this game asks to confirm the box chosen (ranked, unless turned off)."""
    return page.locator(f'{GAME}[data-confirm="1"]').count() == 1


def pick_box(page: Page, box: str, points: int) -> None:
    """Choose a box by tapping it, confirming as the page asks (its confirm step in a
    ranked game, the dialog for a 0)."""
    page.locator(f"{GAME} button.box-btn[data-box='{box}']").click()
    if points == 0:
        expect(page.locator("dialog#confirm")).to_be_visible()
        page.locator("#confirm-yes").click()
    elif confirms(page):
        expect(page.get_by_test_id("confirm-bar")).to_contain_text(str(points))
        page.get_by_test_id("box-confirm").click()


def play_game(page: Page, *, keyboard: bool = False, turns: int | None = None) -> list[dict]:
    """Play until the game is over (or ``turns`` turns); returns the boxes chosen."""
    chosen = []
    while not state(page)["over"] and (turns is None or len(chosen) < turns):
        chosen.append(play_turn(page, keyboard=keyboard))
    return chosen
