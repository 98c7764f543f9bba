"""What a database target is, read without `re` (a one-shot read does not import it)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from doctree.store.targets import scheme_of

#: What `scheme_of` stands for: `scheme:` at the start, two characters at least (so that a
#: drive letter, `C:`, is never taken for one).
SCHEME = r"([A-Za-z][A-Za-z0-9+.-]+):"


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="aZ09+.-:/_ é", max_size=14))
def test_the_scheme_check_is_the_pattern_it_stands_for(text):
    m = re.match(SCHEME, text)
    assert scheme_of(text) == (m.group(1) if m else None)


def test_schemes_as_written():
    assert scheme_of("mysql://root@localhost/db") == "mysql"
    assert scheme_of("Postgres:/db") == "Postgres"
    assert scheme_of("svn+ssh://host") == "svn+ssh"
    for text in ("C:/data/x.db", "x.db", ":memory:", "1a:b", "a b:c", "./mysql:x"):
        assert scheme_of(text) is None
