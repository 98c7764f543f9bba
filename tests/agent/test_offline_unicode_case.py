"""Words the offline agent's patterns match without regard to case in Unicode's sense (a long
s matches `s`) are looked up the same way, so such text is read instead of failing a run."""

from __future__ import annotations

from doctree.agent.offline.language import pronoun_gender


def test_a_pronoun_written_with_a_long_s_has_its_gender():
    assert pronoun_gender("ſhe moved to Lyon") == "f"
    assert pronoun_gender("HIS flat") == "m"
    assert pronoun_gender("nobody here") is None
