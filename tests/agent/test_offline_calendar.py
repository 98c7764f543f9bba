"""A pasted iCalendar file (an invite, an .ics export) is read as events, field by field:
what, when (the date written out and resolved), where and the notes; an updated invite of
the same event (SEQUENCE above 0) moves the old time under Past."""

from __future__ import annotations

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

INVITE = """BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Riverside Vets//Bookings//EN
BEGIN:VEVENT
UID:vacc-7781@riverside.example
DTSTART:20290312T141500Z
DTEND:20290312T143000Z
SUMMARY:Booster jab for Mango
LOCATION:Riverside Vets, Room 3
DESCRIPTION:Bring the vaccination card. Booking ref RV-7781.
END:VEVENT
END:VCALENDAR"""


def _current(repo: DocumentsRepository) -> str:
    out = []
    for d in repo.documents("main", "~/memory"):
        if not d.path.startswith("~/memory/archive"):
            out += [ln for ln in d.body.split("## Past")[0].split("\n") if " — past: " not in ln]
    return "\n".join(out)


def test_a_pasted_invite_is_kept_as_its_event_with_the_date_resolved(repo):
    run(
        repo,
        transcript(
            "s-vet", ("user", "2029-03-01T09:00:00Z", f"the vet sent this:\n\n```\n{INVITE}\n```")
        ),
    )
    now = _current(repo)
    line = next((ln for ln in now.split("\n") if "Booster jab" in ln), "")
    assert "2029-03-12" in line and "14:15" in line, now
    assert "Room 3" in line and "RV-7781" in line, line
    assert "BEGIN:VEVENT" not in now


def test_an_updated_invite_moves_the_old_time_under_past(repo):
    run(
        repo,
        transcript(
            "s-vet", ("user", "2029-03-01T09:00:00Z", f"the vet sent this:\n\n```\n{INVITE}\n```")
        ),
    )
    moved = INVITE.replace(
        "UID:vacc-7781@riverside.example", "UID:vacc-7781@riverside.example\nSEQUENCE:1"
    )
    moved = moved.replace("20290312T1415", "20290315T1000").replace(
        "20290312T1430", "20290315T1015"
    )
    run(
        repo,
        transcript(
            "s-vet-2", ("user", "2029-03-04T09:00:00Z", f"they moved it:\n\n```\n{moved}\n```")
        ),
    )
    now = _current(repo)
    assert "2029-03-15" in now, now
    assert "2029-03-12" not in now, now
