"""A file the user keeps, pasted as the unified diff that changed it, is read as the file
it leaves: the lines kept and added, each added line that replaces a removed one about the
same thing saying what it replaces; the removed lines are not kept. A list item in pasted
notes is said with the heading it sits under when it does not name it."""

from __future__ import annotations

from doctree.agent.offline.blocks import diff_result, under_headings
from tests.agent.offline_runs import run, transcript

FIRST = """```diff
diff --git a/garden.md b/garden.md
index 1a2b3c4..5d6e7f8 100644
--- a/garden.md
+++ b/garden.md
@@ -1,6 +1,7 @@
 # Garden
 
 ## Greenhouse
-- Heater: paraffin, refill monthly
+- Heater: electric, about £40 a month to run
+- Glass repaired by Coldharbour Glazing on 2031-02-11
 
 ## Lawn
 - Mower blades sharpened in March
```"""

SECOND = """```diff
--- a/garden.md
+++ b/garden.md
@@ -3,4 +3,4 @@
 ## Greenhouse
-- Heater: electric, about £40 a month to run
+- Heater: electric, about £45 a month to run
 - Glass repaired by Coldharbour Glazing on 2031-02-11
```"""


def test_a_diff_leaves_its_kept_and_added_lines_without_marks_or_headers():
    lines = FIRST.split("\n")[1:-1]
    assert diff_result(lines) == [
        "# Garden",
        "",
        "## Greenhouse",
        "- Heater: electric, about £40 a month to run (instead of paraffin, refill monthly)",
        "- Glass repaired by Coldharbour Glazing on 2031-02-11",
        "",
        "## Lawn",
        "- Mower blades sharpened in March",
    ]


def test_a_replaced_line_about_another_thing_says_nothing_of_the_old_one():
    lines = ["@@ -1,2 +1,2 @@", "-- Bins: Tuesdays", "+- Recycling: every other Friday"]
    assert diff_result(lines) == ["- Recycling: every other Friday"]


def test_text_without_a_hunk_is_no_diff():
    assert diff_result(["--- a note", "+++ more", "- milk", "+ eggs"]) is None


def test_an_item_is_said_with_the_heading_it_does_not_name():
    notes = ["## Boiler", "- Serviced in May, next due May 2032", "- Boiler pressure 1.2 bar"]
    assert under_headings(notes) == [
        "## Boiler",
        "- Serviced in May, next due May 2032 (Boiler)",
        "- Boiler pressure 1.2 bar",
    ]


def test_a_diffed_file_keeps_its_new_values_and_retires_the_old_ones(repo):
    run(repo, transcript("s-g1", ("user", "2031-03-01T09:00:00Z", "My garden notes:\n\n" + FIRST)))
    run(repo, transcript("s-g2", ("user", "2031-04-01T09:00:00Z", "And again:\n\n" + SECOND)))
    pages = "\n".join(d.body for d in repo.documents("main", "~/memory"))
    current = "\n".join(p.split("## Past")[0] for p in pages.split("\n# "))
    assert "Coldharbour Glazing" in current and "£45" in current
    assert "paraffin" not in current.replace("instead of paraffin", "")
    assert not any("£40" in ln and "£45" not in ln for ln in current.splitlines()), current
