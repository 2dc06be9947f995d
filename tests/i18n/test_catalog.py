"""The zh_Hans catalogs: every entry translated, nothing fuzzy, placeholders kept, and the
committed .mo files the compilation of the .po files as they are now."""

from __future__ import annotations

import gettext
import io
import re
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from django.conf import settings

LOCALE = Path(settings.BASE_DIR) / "locale" / "zh_Hans" / "LC_MESSAGES"
DOMAINS = ["django", "djangojs"]
PERCENT = re.compile(r"%\((\w+)\)[sd]")
BRACES = re.compile(r"\{(\w+)\}")


def catalog(domain: str):
    with open(LOCALE / f"{domain}.po", "rb") as f:
        return read_po(f, locale="zh_Hans")


def entries(domain: str):
    return [m for m in catalog(domain) if m.id]


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_entry_is_translated_and_none_is_fuzzy(domain):
    cat = catalog(domain)
    assert not cat.fuzzy, "the header is marked fuzzy"
    untranslated = [m.id for m in entries(domain) if not all(m.string or [""])]
    fuzzy = [m.id for m in entries(domain) if m.fuzzy]
    assert untranslated == []
    assert fuzzy == []


@pytest.mark.parametrize("domain", DOMAINS)
def test_translations_keep_every_placeholder(domain):
    for m in entries(domain):
        source = m.id if isinstance(m.id, str) else m.id[0]
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        for text in strings:
            assert set(PERCENT.findall(text)) == set(PERCENT.findall(source)), source
            assert set(BRACES.findall(text)) == set(BRACES.findall(source)), source


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_committed_mo_file_is_the_po_file_compiled(domain):
    compiled = io.BytesIO()
    write_mo(compiled, catalog(domain))
    expected = gettext.GNUTranslations(io.BytesIO(compiled.getvalue()))
    with open(LOCALE / f"{domain}.mo", "rb") as f:
        committed = gettext.GNUTranslations(f)
    assert committed._catalog == expected._catalog, "run make messages"  # type: ignore[attr-defined]


def test_the_catalog_has_the_plural_rule_of_chinese():
    cat = catalog("django")
    assert cat.plural_forms == "nplurals=1; plural=0;"
