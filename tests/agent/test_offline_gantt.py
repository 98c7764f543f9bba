"""A Mermaid gantt chart pasted in a fence is read as its tasks, each with its days counted
as Mermaid counts them: a task "after" another starts when that one ends, one with no start
follows the one before it, a milestone is its one day; pasted again with dates moved, the
tasks that moved replace their lines."""

from __future__ import annotations

from doctree.agent.offline.gantt import gantt_tasks
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import current_facts, run, transcript

CHART = """gantt
    title Kitchen refit
    dateFormat YYYY-MM-DD
    section Build
    Strip out - Fenwick Joinery   :done, so, 2032-05-03, 2d
    Plastering                    :pl, after so, 3d
    Worktops fitted               :milestone, wt, after pl, 0d
    Snagging                      :1d
"""


def test_tasks_are_counted_as_mermaid_counts_them():
    assert gantt_tasks(CHART.split("\n")) == [
        "Kitchen refit – Strip out - Fenwick Joinery (Build) is from Monday 3 May 2032 to "
        "Tuesday 4 May 2032 (done).",
        "Kitchen refit – Plastering (Build) is from Wednesday 5 May 2032 to Friday 7 May 2032.",
        "Kitchen refit – Worktops fitted (Build) is on Saturday 8 May 2032.",
        "Kitchen refit – Snagging (Build) is on Saturday 8 May 2032.",
    ]


def test_other_date_formats_and_no_chart():
    chart = "gantt\n dateFormat DD-MM-YYYY\n Viewing : v1, 14-06-2032, 1d\n"
    assert gantt_tasks(chart.split("\n")) == ["Viewing is on Monday 14 June 2032."]
    assert gantt_tasks(["flowchart TD", "A --> B"]) is None
    # a format with tokens the reader does not count keeps nothing rather than guess
    assert gantt_tasks(["gantt", "dateFormat X", "Call : c1, 1700000000, 1d"]) is None


def test_a_pasted_chart_gives_its_dates_and_a_later_one_moves_them(tmp_path):
    later = CHART.replace("2032-05-03, 2d", "2032-05-10, 2d")
    with DocumentsRepository(tmp_path / "m.db") as repo:
        for i, (day, chart) in enumerate((("2032-04-20", CHART), ("2032-04-27", later))):
            run(
                repo,
                transcript(
                    f"s-gantt-{i}",
                    ("user", f"{day}T20:00:00Z", f"Our plan:\n\n```mermaid\n{chart}```"),
                    ("assistant", f"{day}T20:01:00Z", "Noted."),
                ),
            )
        facts = current_facts(repo)
    plaster = [ln for ln in facts.split("\n") if "Plastering" in ln]
    assert plaster and all("2032-05-12" in ln for ln in plaster)
    assert not any("2032-05-05" in ln for ln in plaster)


def test_a_chart_past_the_calendars_end_is_not_counted_and_the_run_goes_on(tmp_path):
    chart = "gantt\nHuge : h1, 2032-05-01, 99999999999999d\nLast : l1, 9999-12-31, 2d\n"
    assert gantt_tasks(chart.split("\n")) is None
    with DocumentsRepository(tmp_path / "m.db") as repo:
        summary = run(
            repo,
            transcript(
                "s-gantt-huge",
                ("user", "2032-04-20T20:00:00Z", f"Plan:\n\n```mermaid\n{chart}```"),
                ("assistant", "2032-04-20T20:01:00Z", "Noted."),
            ),
        )
        # the run finished (no traceback) and wrote its session's page
        assert any("s-gantt-huge" in path for path in summary.changed)
