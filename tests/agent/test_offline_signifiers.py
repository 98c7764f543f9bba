"""A page of a bullet journal or a paper to-do list pasted in a block: each line's mark says
where the item stands ("× done", "> migrated", "✗ cancelled"), in the words of the key the
user gives with it, or the usual ones."""

from __future__ import annotations

from doctree.agent.offline.signifiers import journal_key, journal_lines
from tests.agent.offline_runs import current_facts, run, transcript


def test_a_journal_page_keeps_each_items_status_in_the_words_of_its_key(repo):
    run(
        repo,
        transcript(
            "s-journal",
            (
                "user",
                "2031-01-13T21:00:00Z",
                "Today's page. Key: • task, × done, > migrated to tomorrow, ✗ cancelled, ○ event.\n\n"
                "```\n"
                "× renew the parking permit\n"
                "• ring the garage about the clutch\n"
                "✗ book the village hall for March\n"
                "> send the deposit to the caterer\n"
                "```",
            ),
        ),
    )
    now = current_facts(repo)
    assert "Renew the parking permit (done)" in now, now
    assert "Book the village hall for March (cancelled)" in now, now
    assert "Send the deposit to the caterer (migrated to tomorrow" in now, now
    assert "Ring the garage about the clutch" in now and "(task)" not in now, now


def test_a_key_of_the_users_own_gives_its_words():
    text = "Legend: ✓ = paid, → chased again, ☐ open"
    key = journal_key(text)
    lines = journal_lines(["✓ gas bill", "→ water bill", "☐ council tax"], key)
    assert lines == ["- gas bill (paid)", "- water bill (chased again)", "- council tax (open)"]


def test_without_a_key_the_usual_marks_are_read():
    lines = journal_lines(["× post the forms", "• call the bank"], journal_key("my page"))
    assert lines == ["- post the forms (done)", "- call the bank"]


def test_a_quote_or_a_plain_list_in_a_block_is_no_journal():
    key = journal_key("no key here")
    assert journal_lines(["> I'll be late", "> sorry"], key) is None
    assert journal_lines(["- milk", "- eggs", "* bread"], key) is None
    assert journal_lines(["× one line only", "plain text"], key) is None
