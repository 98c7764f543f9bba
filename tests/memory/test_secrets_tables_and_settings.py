"""Secrets in the shapes people paste them: a table (tab, comma, semicolon or pipe
separated) whose header names a password, PIN or key column, and a setting whose name says
it holds one ("DB_PASS=…", "WEATHER_KEY=…", a YAML "pass:" key), a security answer given
after its question ("mother's maiden name is …"). Each reached the database
before; the same shapes holding no secret (a mountain pass, a boarding pass, a mark, a sort
key, a placeholder word) stay."""

from __future__ import annotations

import pytest

from doctree.sessions.repository import SessionsRepository
from doctree.store.documents import DocumentsRepository
from doctree.store.secrets import find_secrets, mask_text

FOUND = [
    ("site\tuser\tpassword\nfernbank.example\tjo.k\tMarten!Sprocket41", "Marten!Sprocket41"),
    ("site,user,password\nfernbank.example,jo.k,Marten!Sprocket41\nmailhub.example,jo,quillfenwick",
     "quillfenwick"),
    ("service;login;pass\nstreamly;jo;Osprey#Bramble2290", "Osprey#Bramble2290"),
    ("| account | user | pwd |\n|---|---|---|\n| router | admin | Zx-Pelican-0937 |", "Zx-Pelican-0937"),
    ("door,pin\nback gate,7305\nshed,2281", "7305"),
    ("provider\tapi key\nweatherly\tq8Jd2LmZx7Pv0Kw4Rt9N", "q8Jd2LmZx7Pv0Kw4Rt9N"),
    ("mail settings:\nsmtp:\n  host: mail.example.org\n  pass: Heron-Gravel-5521", "Heron-Gravel-5521"),
    ("DB_HOST=db.internal\nDB_PASS=Heron-Gravel-5521", "Heron-Gravel-5521"),
    ("export WEATHERLY_KEY=q8Jd2LmZx7Pv0Kw4Rt9N", "q8Jd2LmZx7Pv0Kw4Rt9N"),
    # the question a security answer is to, said before the answer
    ("bank security answer: mother's maiden name is Wierzbicka", "Wierzbicka"),
]  # fmt: skip

KEPT = [
    "name,score,pass\nAna,71,yes\nBo,40,no",
    "trail,pass,notes\nGR20,Col-de-Bavella,windy",
    "route,boarding pass,gate\nLHR-JFK,BA1234-17C,B32",
    "course,pass rate\nMaths,87.5%",
    "date,token,amount\n2031-01-01,BTC,1.2",
    "| Dish | Secret ingredient |\n|---|---|\n| Stew | star-anise |",
    "site,user,password\nfernbank.example,jo.k,password",
    "SORT_KEY=created_at",
    "ROUTE_KEY=LHR-JFK-2031",
    "auth:\n  user: 'you@example.com',\n  pass: 'yourpassword'",
]


@pytest.mark.parametrize(("text", "secret"), FOUND)
def test_found_and_masked(text, secret):
    assert find_secrets(text), text
    assert secret not in mask_text(text)


@pytest.mark.parametrize("text", KEPT)
def test_the_same_shapes_without_a_secret_stay(text):
    assert find_secrets(text) == [], text


def test_none_of_them_reaches_the_database_file(tmp_path):
    """Through a session's history and a page's body, on a real SQLite file (the -wal
    included): no secret of the list above is in the file's bytes."""
    db = tmp_path / "s.db"
    with SessionsRepository(db) as s:
        s.create("main", "s-1")
        for text, _ in FOUND:
            s.append_history("s-1", "user", text)
    repo = DocumentsRepository(db)
    try:
        repo.write("main", "~/memory/accounts", "\n\n".join(t for t, _ in FOUND))
    finally:
        repo.close()
    raw = b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))
    for _, secret in FOUND:
        assert secret.encode() not in raw, secret
