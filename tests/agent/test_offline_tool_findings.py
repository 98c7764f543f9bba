"""What a tool did at the user's bidding, reported back by the assistant (a reservation made,
its reference, a time), is kept like an answer to a question: the user asked for it, even
without a question mark ("go ahead and reserve it"). What a tool returned when the user had
asked nothing stays out."""

from __future__ import annotations

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


def _current(repo: DocumentsRepository) -> str:
    return "\n".join(
        d.body.split("## Past")[0] for d in repo.documents("main", "~/memory")
        if "/archive/" not in d.path
    )  # fmt: skip


def _reservation(first_user_line: str) -> str:
    return transcript(
        "s-table",
        ("user", "2029-04-03T18:00:00Z", first_user_line),
        (
            "tool_call",
            "2029-04-03T18:00:05Z",
            {"id": "r1", "name": "table_reserve", "input": {"venue": "Osteria Lumi", "seats": 4}},
        ),
        (
            "tool_result",
            "2029-04-03T18:00:07Z",
            {
                "tool_use_id": "r1",
                "content": '{"status": "ok", "ref": "QM-5521"}',
                "is_error": False,
            },
        ),
        (
            "assistant",
            "2029-04-03T18:00:10Z",
            "Reserved: a table for four at Osteria Lumi at 19:30, reference QM-5521.",
        ),
        ("user", "2029-04-03T18:01:00Z", "Lovely, thanks."),
    )


def test_a_reservation_the_user_told_the_assistant_to_make_is_kept(repo):
    run(repo, _reservation("Four of us on Saturday night. Go ahead and reserve Osteria Lumi."))
    now = _current(repo)
    assert "QM-5521" in now and "19:30" in now, now


def test_an_imperative_in_the_middle_of_a_message_still_asks(repo):
    run(repo, _reservation("the corner table would be nice. book it for four"))
    assert "QM-5521" in _current(repo)


def test_a_tool_the_user_did_not_ask_for_keeps_its_result_out(repo):
    run(repo, _reservation("Four of us on Saturday night, I will sort out the restaurant."))
    assert "QM-5521" not in _current(repo)


def _review(reply: str) -> str:
    return transcript(
        "s-review",
        ("user", "2029-04-03T09:00:00Z", "Here is the cron line for the backup job: 0 3 * * 1."),
        (
            "assistant",
            "2029-04-03T09:00:10Z",
            "One thing stands out. BACKUP_DIR is never set, so on host db-2 the job writes into "
            "/tmp and the files vanish at reboot.",
        ),
        ("user", "2029-04-03T09:02:00Z", reply),
    )


def test_what_the_user_credits_as_a_good_catch_is_kept(repo):
    run(repo, _review("Good catch, I had no idea."))
    assert "BACKUP_DIR is never set" in _current(repo)


def test_thanks_alone_does_not_make_a_plain_remark_a_finding(repo):
    run(repo, _review("ok thanks"))
    assert "BACKUP_DIR" not in _current(repo)


def _debugging(reply: str) -> str:
    return transcript(
        "s-build",
        ("user", "2029-04-03T09:00:00Z", "The nightly export job died again. Can you look?"),
        (
            "tool_call",
            "2029-04-03T09:00:05Z",
            {"id": "d1", "name": "shell", "input": {"command": "pip show lxml; pytest -q"}},
        ),
        (
            "tool_result",
            "2029-04-03T09:00:09Z",
            {
                "tool_use_id": "d1",
                "content": "Name: lxml\nVersion: 6.1.2\n3 failed, 87 passed in 4.20s",
                "is_error": False,
            },
        ),
        (
            "assistant",
            "2029-04-03T09:00:30Z",
            "The job picked up lxml 6.1.2 overnight, which dropped the `huge_tree` default. "
            "The fix is to pass `huge_tree=True` in exporter/parse.py.",
        ),
        ("user", "2029-04-03T09:05:00Z", reply),
        (
            "tool_call",
            "2029-04-03T09:06:00Z",
            {"id": "d2", "name": "shell", "input": {"command": "pytest -q"}},
        ),
        (
            "tool_result",
            "2029-04-03T09:06:09Z",
            {"tool_use_id": "d2", "content": "90 passed in 4.02s", "is_error": False},
        ),
        (
            "assistant",
            "2029-04-03T09:06:20Z",
            "All 90 tests pass now. I'd also cap lxml below 7 in the lock file.",
        ),
        (
            "user",
            "2029-04-03T09:07:00Z",
            "Yes, cap it. Odile reviews every change to the exporter.",
        ),
    )


def test_what_a_tool_printed_as_the_assistant_reports_it_is_kept(repo):
    run(repo, _debugging("ok, patch it"))
    now = _current(repo)
    assert "lxml 6.1.2" in now, now  # the version the tool printed, with the cause
    assert "All 90 tests pass" in now  # a test count reported after a run, accepted
    assert "cap lxml below 7" in now  # a proposal ("I'd also …") the user accepted


def test_a_plain_statement_about_someone_opening_on_their_name_is_kept(repo):
    run(repo, _debugging("ok, patch it"))
    assert "Odile reviews every change to the exporter" in _current(repo)


def test_a_secret_pasted_with_dont_keep_it_removes_nothing_said_before(repo):
    run(
        repo,
        transcript(
            "s-log",
            ("user", "2029-04-03T09:00:00Z", "The staging deploy of Quillpad failed at 02:10."),
            (
                "user",
                "2029-04-03T09:01:00Z",
                "Here is the log, it prints the token:\n\n```\n"
                "DEPLOY_TOKEN=ghp_4kTq9ZrW2xLmP7vN3sYbC8dH6fJ1aE5uQ0oR\n```\n\n"
                "I'll rotate it, don't keep it anywhere.",
            ),
        ),
    )
    everything = "\n".join(d.body for d in repo.documents("main", "~/memory"))
    assert "ghp_4kTq9ZrW2xLmP7vN3sYbC8dH6fJ1aE5uQ0oR" not in everything
    assert "The staging deploy of Quillpad failed at 02:10" in _current(repo)


def _lookup(reply: str) -> str:
    return transcript(
        "s-lookup",
        (
            "user",
            "2029-04-04T09:00:00Z",
            "Can you check which plan the allotment society has me on?",
        ),
        (
            "tool_call",
            "2029-04-04T09:00:05Z",
            {"id": "p1", "name": "member_lookup", "input": {"member": "A-118"}},
        ),
        (
            "tool_result",
            "2029-04-04T09:00:07Z",
            {"tool_use_id": "p1", "content": '{"plan": "half plot", "fee": 42}', "is_error": False},
        ),
        (
            "assistant",
            "2029-04-04T09:00:10Z",
            "You are on the half plot plan, member A-118, at £42 a year.",
        ),
        ("user", "2029-04-04T09:02:00Z", reply),
    )


def test_a_finding_the_user_went_past_is_not_labelled_accepted(repo):
    run(repo, _lookup("Separately, the water trough by gate 3 leaks again."))
    now = _current(repo)
    finding = next(ln for ln in now.split("\n") if "A-118" in ln)
    assert "not confirmed by the user" in finding, finding
    assert "accepted by the user" not in finding


def test_a_finding_the_user_agreed_with_is_labelled_accepted(repo):
    run(repo, _lookup("Yes, that's right."))
    finding = next(ln for ln in _current(repo).split("\n") if "A-118" in ln)
    assert "Found by the assistant and accepted by the user" in finding, finding


def test_a_finding_the_user_acted_on_is_labelled_accepted(repo):
    run(repo, _lookup("Done, I've paid the £42 for this year."))
    finding = next(ln for ln in _current(repo).split("\n") if "A-118" in ln)
    assert "Found by the assistant and accepted by the user" in finding, finding


def test_what_the_user_says_put_it_right_is_kept_as_found(repo):
    """ "ah ok. I set it and the job ran fine": the user took in what was found and says it
    worked, which credits it as "good catch" does."""
    run(repo, _review("ah ok. I set it in the cron file and the job ran fine tonight."))
    assert "BACKUP_DIR is never set" in _current(repo)


def test_taking_it_in_without_saying_it_worked_credits_nothing(repo):
    run(repo, _review("ah ok. I'll look at it tomorrow."))
    assert "BACKUP_DIR is never set" not in _current(repo)
