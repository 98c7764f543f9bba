"""The tiered layout and weekly consolidation (seed 002)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from doctree.cli import cli
from doctree.errors import UserError
from doctree.memory.layout import ACTIVE, TIERS
from doctree.memory.tiers import (
    consolidate,
    ensure_layout,
    last_week,
    parse_week,
    project_path,
    week_of,
)

OWNER = "main"
WEEK = "2026-W47"
PAGE = "~/memory/archive/2026-W47"
FIXTURES = Path(__file__).parents[1] / "fixtures" / "transcripts"

ACTIVE_BODY = """# Active

## Upcoming

- 2026-11-19: Team dinner on Thursday.
- 2026-12-04: Anna's birthday.

## Recent decisions

- 2026-11-18: We decided to use Postgres for the event store.
- 2026-11-23: We decided to load test with k6.
"""


def seed_week(repo):
    repo.write(
        OWNER,
        PAGE,
        "# Week 2026-W47\n\n## Sessions\n\n- 2026-11-18: [[~/memory/archive/2026-W47/s-kickoff|s-kickoff]]\n",
    )
    repo.write(
        OWNER,
        f"{PAGE}/s-kickoff",
        "# Session s-kickoff\n\n- session: s-kickoff\n\n## Key lines\n\n"
        "- We decided to use Postgres for the event store.\n- Priya leads the backend.\n",
    )
    repo.write(
        OWNER,
        f"{PAGE}/s-api",
        "# Session s-api\n\n## Key lines\n\n- We agreed on REST with JSON.\n"
        "- Priya leads the backend.\n",
    )
    repo.write(OWNER, ACTIVE, ACTIVE_BODY)


def versions(repo):
    return {d.path: d.version for d in repo.documents(OWNER)}


def test_parse_week_gives_monday_and_sunday():
    assert parse_week("2026-W47") == (date(2026, 11, 16), date(2026, 11, 22))


def test_parse_week_rejects_another_format_naming_the_rule():
    with pytest.raises(UserError, match=r"week '2026-47': write an ISO week as YYYY-Www"):
        parse_week("2026-47")


def test_parse_week_rejects_a_week_the_year_does_not_have():
    with pytest.raises(UserError, match="year 2025 has no week 53"):
        parse_week("2025-W53")


def test_week_of_a_day():
    assert week_of(date(2026, 11, 23)) == "2026-W48"


def test_last_week_is_the_iso_week_before_today():
    assert last_week(date(2026, 11, 23)) == "2026-W47"


def test_project_path_is_a_slug_below_projects():
    assert project_path("Apollo Mobile") == "~/memory/projects/apollo-mobile"


def test_ensure_layout_creates_every_tier(repo):
    ensure_layout(repo, OWNER)
    assert all(repo.exists(OWNER, p) for p in TIERS)


def test_ensure_layout_never_touches_existing_pages(repo):
    repo.write(OWNER, ACTIVE, "# Active\n\nmine")
    created = ensure_layout(repo, OWNER)
    assert ACTIVE not in created and repo.read(OWNER, ACTIVE).body == "# Active\n\nmine"


def test_consolidate_rolls_session_pages_into_the_week_page(repo):
    seed_week(repo)
    result = consolidate(repo, OWNER, WEEK)
    body = repo.read(OWNER, PAGE).body
    assert sorted(result.rolled) == [f"{PAGE}/s-api", f"{PAGE}/s-kickoff"]
    assert "- We agreed on REST with JSON." in body
    assert "- We decided to use Postgres for the event store." in body


def test_consolidate_says_each_line_once(repo):
    seed_week(repo)
    consolidate(repo, OWNER, WEEK)
    assert repo.read(OWNER, PAGE).body.count("Priya leads the backend.") == 1


def test_consolidate_retires_session_pages_keeping_history(repo):
    seed_week(repo)
    consolidate(repo, OWNER, WEEK)
    assert not repo.exists(OWNER, f"{PAGE}/s-api")
    assert "REST with JSON" in repo.read(OWNER, f"{PAGE}/s-api", version=1).body


def test_consolidated_week_page_links_every_session_page(repo):
    seed_week(repo)
    consolidate(repo, OWNER, WEEK)
    doc = repo.read(OWNER, PAGE)
    assert {f"{PAGE}/s-api", f"{PAGE}/s-kickoff"} <= set(doc.links)
    assert f"## Session s-api ([[{PAGE}/s-api]])" in doc.body


def test_consolidate_keeps_what_the_week_page_said(repo):
    seed_week(repo)
    consolidate(repo, OWNER, WEEK)
    assert (
        "- 2026-11-18: [[~/memory/archive/2026-W47/s-kickoff|s-kickoff]]"
        in repo.read(OWNER, PAGE).body
    )


def test_consolidate_moves_the_weeks_lines_out_of_active(repo):
    seed_week(repo)
    result = consolidate(repo, OWNER, WEEK)
    active = repo.read(OWNER, ACTIVE).body
    assert result.pruned_active_lines == 2
    assert "Team dinner" not in active and "Postgres" not in active
    assert "Anna's birthday" in active and "k6" in active


def test_lines_moved_out_of_active_land_in_the_week_page(repo):
    seed_week(repo)
    consolidate(repo, OWNER, WEEK)
    assert "- 2026-11-19: Team dinner on Thursday." in repo.read(OWNER, PAGE).body


def test_consolidate_can_leave_active_alone(repo):
    seed_week(repo)
    consolidate(repo, OWNER, WEEK, prune_active=False)
    assert repo.read(OWNER, ACTIVE).version == 1


def test_consolidating_the_same_week_twice_changes_nothing(repo):
    seed_week(repo)
    consolidate(repo, OWNER, WEEK)
    before = versions(repo)
    result = consolidate(repo, OWNER, WEEK)
    assert not result.changed and versions(repo) == before


def test_consolidate_folds_in_a_session_page_added_later(repo):
    seed_week(repo)
    consolidate(repo, OWNER, WEEK)
    repo.write(OWNER, f"{PAGE}/s-late", "# Session s-late\n\n- Marcus owns the mobile app.\n")
    consolidate(repo, OWNER, WEEK)
    body = repo.read(OWNER, PAGE).body
    assert "Marcus owns the mobile app." in body and "REST with JSON" in body


def test_consolidate_leaves_other_weeks_alone(repo):
    seed_week(repo)
    repo.write(OWNER, "~/memory/archive/2026-W48/s-next", "- Next week's session.")
    consolidate(repo, OWNER, WEEK)
    assert repo.exists(OWNER, "~/memory/archive/2026-W48/s-next")


def test_consolidate_of_an_empty_week_writes_nothing(repo):
    result = consolidate(repo, OWNER, "2026-W10")
    assert not result.changed and repo.documents(OWNER) == []


def test_consolidate_command_is_idempotent(db_path, repo):
    seed_week(repo)
    args = ["--db", str(db_path), "consolidate", "--week", WEEK]
    first = CliRunner().invoke(cli, args)
    second = CliRunner().invoke(cli, args)
    assert "2 session page(s) rolled in, 2 line(s) moved out of active" in first.output
    assert second.output.strip() == "nothing to consolidate for 2026-W47"


def test_consolidate_command_rejects_a_bad_week_in_one_line(db_path, repo):
    result = CliRunner().invoke(cli, ["--db", str(db_path), "consolidate", "--week", "W47"])
    assert result.exit_code == 2
    assert "write an ISO week as YYYY-Www" in result.output and "Traceback" not in result.output


@pytest.mark.slow
def test_consolidate_after_replaying_the_fixture_transcripts(db_path, repo):
    transcripts = sorted(str(p) for p in FIXTURES.glob("*.md"))
    replay = CliRunner().invoke(cli, ["--db", str(db_path), "replay", *transcripts])
    assert replay.exit_code == 0, replay.output
    sessions = [d for d in repo.documents(OWNER, PAGE) if d.path != PAGE]
    result = consolidate(repo, OWNER, WEEK)
    body = repo.read(OWNER, PAGE).body
    assert len(result.rolled) == len(sessions) > 0
    assert "We decided to use Postgres for the event store" in body
    assert not consolidate(repo, OWNER, WEEK).changed
