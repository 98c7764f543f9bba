"""The helpers several modules share, each in one home: time, stopwords, the memory layout,
frontmatter and the Anthropic client."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime

import pytest

from doctree import stopwords
from doctree.errors import UserError
from doctree.llm.client import anthropic_client
from doctree.memory import layout
from doctree.store.frontmatter import frontmatter_block, read_frontmatter, split_frontmatter
from doctree.timeutil import iso_week, now_iso


def test_iso_week_follows_the_iso_calendar_across_a_year_end():
    assert iso_week(date(2026, 11, 18)) == "2026-W47"
    assert iso_week(date(2027, 1, 1)) == "2026-W53"  # a Friday: still the last week of 2026
    assert iso_week(date(2024, 12, 30)) == "2025-W01"  # a Monday: already week 1 of 2025
    assert iso_week(datetime(2026, 1, 5, 23, 59, tzinfo=UTC)) == "2026-W02"


def test_stored_time_is_utc_with_microseconds_and_sorts_as_text():
    a = now_iso()
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z", a)
    assert now_iso() >= a


def test_the_stopword_variants_derive_from_one_english_list():
    assert stopwords.ENGLISH < stopwords.QUERY
    assert {"kind", "thing", "get"} <= stopwords.QUERY - stopwords.ENGLISH
    # the search tokenizer splits contractions, so it holds their pieces, not the whole words
    assert {"s", "t", "ll", "what", "the"} <= stopwords.SEARCH
    assert "don't" not in stopwords.SEARCH and "don't" in stopwords.ENGLISH
    assert not {"don", "won", "will", "may"} & stopwords.SEARCH  # names and content words
    assert {"actually", "really"} <= stopwords.FILLER


def test_the_tier_pages_all_sit_below_the_memory_root():
    assert layout.MEMORY_ROOT == "~/memory"
    assert set(layout.TIER_PAGES) == set(layout.TIERS)
    assert all(p.startswith(layout.MEMORY_ROOT + "/") for p in layout.TIERS)


def test_one_frontmatter_parser_for_bodies_exports_and_definitions():
    text = "---\ntitle: A\nlinks: [~/b]\n---\n# Body\n"
    assert frontmatter_block(text) == ("title: A\nlinks: [~/b]\n", "# Body\n")
    assert read_frontmatter(text) == ({"title": "A", "links": ["~/b"]}, "# Body\n")
    assert split_frontmatter(text) == ({"title": "A", "links": ["~/b"]}, "# Body\n")
    for bad in ("no block\n", "---\nnot closed\n", "---\n- a list\n---\nbody", "---\n: [\n---\n"):
        assert read_frontmatter(bad) == (None, bad)
        assert split_frontmatter(bad) == ({}, bad)


def test_the_client_refuses_a_missing_key_only_where_one_is_required(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    with pytest.raises(UserError, match=r"backend 'anthropic': set ANTHROPIC_API_KEY"):
        anthropic_client(require_key="backend 'anthropic'")
    keyless = anthropic_client()
    assert keyless.api_key == "none"
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9/")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-env")
    client = anthropic_client(max_retries=5, timeout=7.0)
    assert (client.api_key, client.max_retries, client.timeout) == ("sk-env", 5, 7.0)
    assert str(client.base_url).startswith("http://127.0.0.1:9")
    given = anthropic_client(api_key="sk-given", base_url="http://127.0.0.1:8/")
    assert given.api_key == "sk-given" and str(given.base_url).startswith("http://127.0.0.1:8")
