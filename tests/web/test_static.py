"""The web blueprint's routes and the client's strings, without a browser.

The strings live in ``static/i18n.js``; these tests read that file so a key used by the
client but missing in one language, or a box of the core with no name, fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from daily.rules import RULESET_NAMES, get_ruleset
from daily.service.http.error_handlers import register_error_handlers
from daily.web.routes import bp, draw_qr

STATIC = Path(__file__).resolve().parents[2] / "daily" / "web" / "static"
I18N = (STATIC / "i18n.js").read_text(encoding="utf-8")


def _block(source: str, const: str, lang: str) -> str:
    """The text of ``const NAME = { lang: { ... } }`` for one language."""
    start = source.index(f"const {const} = {{")
    body = source[start:]
    open_at = body.index(f"  {lang}: {{")
    depth = 0
    for index in range(open_at, len(body)):
        if body[index] == "{":
            depth += 1
        elif body[index] == "}":
            depth -= 1
            if depth == 0:
                return body[open_at:index]
    raise AssertionError(f"unbalanced {const}.{lang}")


def _keys(block: str) -> set[str]:
    return set(re.findall(r'(?:^\s*|,\s|\{\s)([a-z_0-9]+): ["\[]', block, re.MULTILINE))


@pytest.fixture
def client() -> FlaskClient:
    app = Flask(__name__)
    app.register_blueprint(bp)
    register_error_handlers(app)  # as create_app does: a refused body is a JSON 4xx
    return app.test_client()


def test_both_languages_have_the_same_strings() -> None:
    english, italian = _keys(_block(I18N, "STRINGS", "en")), _keys(_block(I18N, "STRINGS", "it"))
    assert len(english) > 100
    assert english - italian == set() and italian - english == set()


def test_every_string_the_client_uses_exists() -> None:
    english = _keys(_block(I18N, "STRINGS", "en"))
    used = set()
    for path in STATIC.glob("*.js"):
        code = re.sub(r"^\s*//.*$", "", path.read_text(encoding="utf-8"), flags=re.MULTILINE)
        used |= set(re.findall(r'\bt\(\s*"([a-z_0-9]+)"\s*[,)]', code))
    assert used, "no t(...) calls found"
    assert used - english == set()


def test_no_screen_labels_values_heuristic() -> None:
    """Issue 38 item 3: hints and opponents carry no "(heuristic)" tag on any screen (the
    note under them says it in words); no string of either language is that bare word."""
    for lang in ("en", "it"):
        values = re.findall(r':\s*"([^"]*)"', _block(I18N, "STRINGS", lang))
        assert [v for v in values if re.fullmatch(r"\(?\s*(heuristic|euristico)\s*\)?", v,
                                                 re.IGNORECASE)] == []
    for path in STATIC.glob("*.js"):
        code = path.read_text(encoding="utf-8")
        assert 't("heuristic")' not in code and "tag heuristic" not in code, path.name


@pytest.mark.parametrize("ruleset", RULESET_NAMES)
@pytest.mark.parametrize("lang", ["en", "it"])
def test_every_box_of_every_ruleset_has_a_name(ruleset: str, lang: str) -> None:
    names = _keys(_block(I18N, "BOXES", lang))
    # Triple Yahtzee's "2.full_house" is named after its box and column
    assert {b.split(".")[-1] for b in get_ruleset(ruleset).box_ids} - names == set()
    assert re.search(rf'"?{re.escape(ruleset)}"?: "', _block(I18N, "RULESETS", lang)), ruleset


def test_italian_box_names_are_the_usual_ones() -> None:
    italian = _block(I18N, "BOXES", "it")
    for box, name in [("three_of_a_kind", "Tris"), ("four_of_a_kind", "Poker"),
                      ("full_house", "Full"), ("small_straight", "Scala piccola"),
                      ("large_straight", "Scala grande")]:
        assert re.search(rf'\b{box}: "{name}"', italian), box


def test_the_app_and_result_pages_are_served(client: FlaskClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and b'type="module"' in page.data
    assert b'data-result-code=""' in page.data
    result = client.get("/r/DD-7K3M9QXZ")
    assert result.status_code == 200 and b'data-result-code="DD-7K3M9QXZ"' in result.data
    assert client.get("/r/<script>").status_code == 404
    for name in ("app.js", "game.js", "pages.js", "i18n.js", "api.js", "ui.js", "store.js",
                 "rules.js", "card.js", "end.js", "advice.js", "style.css"):
        assert client.get(f"/static/web/{name}").status_code == 200, name


def test_no_inline_script_style_or_handler_anywhere() -> None:
    """The CSP allows nothing inline: the page and the modules must not need it."""
    template = (STATIC.parent / "templates" / "index.html").read_text(encoding="utf-8")
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", template) == []
    assert "<style" not in template and not re.search(r"\sstyle=", template)
    assert not re.search(r"\son[a-z]+=", template)
    for path in STATIC.glob("*.js"):
        code = path.read_text(encoding="utf-8")
        # h()/svg() attributes become setAttribute calls: a "style" key is an inline style.
        assert not re.search(r"""[{,]\s*["']?style["']?\s*:""", code), path.name
        assert "setAttribute(\"style\"" not in code and "eval(" not in code, path.name
        assert "new Function" not in code, path.name


def _rules_examples() -> dict[str, dict[str, list]]:
    import json

    source = (STATIC / "rules.js").read_text(encoding="utf-8")
    start = source.index("export const RULES_EXAMPLES = ") + len("export const RULES_EXAMPLES = ")
    end = source.index("\n};\n", start) + 2
    return json.loads(source[start:end])


def test_the_rules_page_has_an_example_for_every_box_and_the_core_agrees() -> None:
    examples = _rules_examples()
    assert {"yahtzee", "yatzy", "maxi-yatzy", "yacht", "generala", "triple-yahtzee"} <= set(
        examples)
    for ruleset, boxes in examples.items():
        rules = get_ruleset(ruleset)
        # a card of several columns ("1.ones", "2.ones", ...) lists each box once
        plain = [box.split(".", 1)[-1] for box in rules.box_ids]
        assert list(boxes) == list(dict.fromkeys(plain)), ruleset
        for box, (dice, points) in boxes.items():
            assert len(dice) == rules.dice, (ruleset, box)
            scored = rules.table[tuple(sorted(dice))][plain.index(box)]
            assert scored == points, (ruleset, box, dice, scored)


def test_the_rules_page_describes_every_box_in_both_languages() -> None:
    source = (STATIC / "rules.js").read_text(encoding="utf-8")
    for ruleset, boxes in _rules_examples().items():
        for lang in ("en", "it"):
            block = _block(source, "RULES_DOC", lang)
            key = f'"{ruleset}"' if "-" in ruleset else ruleset
            part = block[block.index(f"{key}: {{"):]
            described = _keys(part[: part.index("notes:")]) | {
                "ones", "twos", "threes", "fours", "fives", "sixes"}
            assert set(boxes) - described == set(), (ruleset, lang)


def test_a_qr_code_is_drawn_once_per_process() -> None:
    draw_qr.cache_clear()
    assert draw_qr("http://x/#/import/p_a.b") == draw_qr("http://x/#/import/p_a.b")
    assert draw_qr.cache_info().hits == 1 and draw_qr.cache_info().misses == 1
