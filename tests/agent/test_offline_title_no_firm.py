"""A title before a name ("Mr", "Dr") after a word the rules read as a service kept
somewhere ("note: … with Mr Quinn") is someone's, never an organisation called "Mr"; a
service's own name still is one."""

from __future__ import annotations

from tests.agent.offline_runs import run, transcript


def test_a_title_after_note_with_is_no_organisation(repo):
    run(
        repo,
        transcript(
            "s-title",
            ("user", "2031-05-06T10:00:00Z", "Please note: Mr Abernethy met with Mr Oyelaran."),
        ),
    )
    paths = {d.path for d in repo.documents("main", "~/memory")}
    assert "~/memory/organisations/mr" not in paths, paths


def test_a_service_named_after_keep_in_is_still_one(repo):
    run(
        repo,
        transcript("s-kept", ("user", "2031-05-06T10:00:00Z", "We keep the receipts in Dext.")),
    )
    paths = {d.path for d in repo.documents("main", "~/memory")}
    assert "~/memory/organisations/dext" in paths, paths
