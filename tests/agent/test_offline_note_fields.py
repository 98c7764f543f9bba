"""A note pasted with its fields (front matter, `key:: value`): each field is a statement of
what the note is about, kept as a line of its own; a later paste of the note with a field
changed replaces that field's line."""

from __future__ import annotations

from doctree.agent.offline.fields import note_fields
from doctree.agent.offline.segment import closes_fence
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import page_lines, run, transcript

FENCE = "````"


def _note(status: str, budget: str, carpenter: str) -> str:
    return "\n".join(
        [
            "Here's my note on the studio, straight from the app:",
            "",
            f"{FENCE}markdown",
            "---",
            "title: Garden studio",
            "tags: [garden, build]",
            f"status: {status}",
            "---",
            "# Garden studio",
            "",
            "designer:: [[Rosa Quint]]",
            f"budget:: {budget}",
            f"carpenter:: [[{carpenter}]]",
            "",
            "## Log",
            "- 2029-03-02 base poured by [[Oakbeam Ltd|Oakbeam]] #groundwork",
            "",
            "## Wiring",
            "```",
            "hub_secret_line = zq-not-for-pages-77",
            "```",
            FENCE,
        ]
    )


def test_each_field_of_a_pasted_note_is_a_line_of_its_subject(repo: DocumentsRepository):
    run(
        repo,
        transcript(
            "s-note", ("user", "2029-03-05T20:00:00Z", _note("planning", "£12,500", "Ivo Brandt"))
        ),
    )
    now, _ = page_lines(repo)
    text = "\n".join(now)
    assert any("Garden studio" in ln and "designer: Rosa Quint" in ln for ln in now), text
    assert any("budget: £12,500" in ln for ln in now), text
    assert any("carpenter: Ivo Brandt" in ln for ln in now), text
    assert any("status: planning" in ln for ln in now), text
    # a link is read as the name it links to, a tag is left out
    assert any("base poured by Oakbeam Ltd" in ln for ln in now), text
    assert "#groundwork" not in text and "[[Oakbeam" not in text and "|Oakbeam" not in text
    # a code block inside the note is no statement of it
    every = "\n".join(d.body for d in repo.documents("main", "~/memory"))
    assert "zq-not-for-pages-77" not in every


def test_a_field_changed_in_a_later_paste_replaces_the_old_one(repo: DocumentsRepository):
    run(
        repo,
        transcript(
            "s-one", ("user", "2029-03-05T20:00:00Z", _note("planning", "£12,500", "Ivo Brandt"))
        ),
    )
    run(
        repo,
        transcript(
            "s-two", ("user", "2029-04-02T20:00:00Z", _note("building", "£14,000", "Kasia Lund"))
        ),
    )
    now, past = page_lines(repo)
    text = "\n".join(now)
    assert any("carpenter: Kasia Lund" in ln for ln in now), text
    assert not any("carpenter: Ivo Brandt" in ln for ln in now), text
    assert any("carpenter: Ivo Brandt" in ln for ln in past), past
    assert not any("budget: £12,500" in ln for ln in now), text
    assert not any("status: planning" in ln for ln in now), text
    # a field pasted again unchanged stays current
    assert any("designer: Rosa Quint" in ln for ln in now), text


def test_a_block_with_one_field_and_no_front_matter_is_no_note():
    assert note_fields(["Note:: this is just me thinking aloud", "and another line"]) is None
    assert note_fields(["Note: we leave at nine.", "Bring the maps."]) is None
    assert note_fields(["---", "", "Some text between two rules", "---"]) is None


def test_a_note_reads_its_fields_with_its_title():
    lines = ["---", "title: Boat", "---", "mooring:: Pier 4", "insurer:: [[Harbour Mutual|HM]]"]
    assert note_fields(lines) == ["Boat, mooring: Pier 4.", "Boat, insurer: Harbour Mutual."]


def test_a_fence_of_four_marks_closes_only_on_four():
    assert not closes_fence("```", "````markdown")
    assert closes_fence("````", "````markdown")
    assert closes_fence("`````", "````")
    assert closes_fence("```", "```yaml")
    assert closes_fence("```python", "```")  # three marks close as they always have
