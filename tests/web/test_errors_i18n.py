"""Every error a player can meet has a message in English and Italian.

The API's error codes are listed once (:data:`daily.service.http.contract.error_codes.ERROR_CODES`);
these tests read the service's source for every code it can answer, and the client's
``ERRORS`` table for the words, without a browser.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from daily.service.http.contract.error_codes import ERROR_CODES
from daily.service.http.error_handlers import HTTP_CODES
from daily.service.ops.webserver import GUNICORN_CODES

from .test_static import STATIC, _block

ROOT = Path(__file__).resolve().parents[2]
I18N = (STATIC / "i18n.js").read_text(encoding="utf-8")
#: Keys of the client's table that are no error code: a code's variant with its reason.
VARIANTS = {"illegal_move_why"}


def _messages(lang: str) -> dict[str, str]:
    block = _block(I18N, "ERRORS", lang)
    return dict(re.findall(r'^\s+([a-z_]+): "(.*)",$', block, re.MULTILINE))


def codes_in_source() -> set[str]:
    """Every error code the service's code can answer: each ``code="..."`` and
    ``default_code`` of a refusal, each code of the edge's and gunicorn's tables, each
    ``ApiError(status, "code", ...)``, each code of the contract's pattern table."""
    from daily.service.http.contract.fields import PATTERN_CODES

    found = set(HTTP_CODES.values()) | set(GUNICORN_CODES.values()) | set(PATTERN_CODES.values())
    found |= {"illegal_move", "internal", "error"}  # classify's and the last resort's
    for path in [*(ROOT / "daily").rglob("*.py"), *(ROOT / "workers").rglob("*.py")]:
        text = path.read_text(encoding="utf-8")
        found |= set(re.findall(r'\bcode="([a-z_]+)"', text))
        found |= set(re.findall(r'default_code = "([a-z_]+)"', text))
        found |= set(re.findall(r'ApiError\(\s*\d{3},\s*"([a-z_]+)"', text))
    return found


def test_every_code_the_service_answers_is_listed() -> None:
    assert codes_in_source() - set(ERROR_CODES) == set()


@pytest.mark.parametrize("lang", ["en", "it"])
def test_every_error_code_has_a_message_in_both_languages(lang: str) -> None:
    messages = _messages(lang)
    assert set(ERROR_CODES) - set(messages) == set(), lang
    assert set(messages) - set(ERROR_CODES) - VARIANTS == set(), lang
    for code, text in messages.items():
        # What happened and what to do: a whole sentence or two, never the API's words.
        assert len(text) > 25 and text[0].isupper() and text.endswith("."), (lang, code)


def test_the_italian_messages_are_italian() -> None:
    english, italian = _messages("en"), _messages("it")
    same = [code for code in english if english[code] == italian.get(code)]
    assert same == []


def test_docs_list_every_error_code() -> None:
    api = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| \d{3} \| `([a-z_]+)` \|", api, re.MULTILINE))
    assert set(ERROR_CODES) - {"error"} - listed == set()


def test_the_client_never_shows_an_api_message() -> None:
    """Only api.js reads an error's ``message`` (to keep it for debugging); no view shows it."""
    for path in STATIC.glob("*.js"):
        if path.name in ("api.js", "sw.js"):
            continue
        code = re.sub(r"^\s*//.*$", "", path.read_text(encoding="utf-8"), flags=re.MULTILINE)
        assert not re.search(r"\berr\w*\.message\b", code), path.name
