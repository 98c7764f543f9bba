"""Mail pasted as its raw source: quoted-printable decoded before it is read (soft line
breaks joined, "=C2=A3" read as "£", encoded header words read), the fields only mail
software writes ("Content-Type:", "MIME-Version:") passed over with the header block, and an
organisation that signs its own mail is no person working there. A password cut by a soft
line break never reaches a page or the database."""

from __future__ import annotations

from doctree.agent.offline.mail import decoded_source, mail_chain
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import page_lines, run, transcript

SOURCE = (
    "Can you read this? My bank's letter came through like this.\n\n"
    "```\n"
    "Return-Path: <notices@harbourmutual.example>\n"
    "From: Harbour Mutual <notices@harbourmutual.example>\n"
    "Subject: =?UTF-8?Q?Your_loan_HM-77120_=E2=80=93_approved?=\n"
    "Date: Wed, 3 Mar 2032 09:12:40 +0000\n"
    "MIME-Version: 1.0\n"
    'Content-Type: text/plain; charset="UTF-8"\n'
    "Content-Transfer-Encoding: quoted-printable\n"
    "\n"
    "Dear Priya,\n"
    "\n"
    "Your loan of =C2=A34,800 for the kitchen has been approved and will be paid o=\n"
    "n Friday 12 March 2032. Your adviser is Tomasz Wrona on 0117 496 0733.\n"
    "\n"
    "To see the agreement, sign in with the one-time passw=\n"
    "ord Qz7!rT=\n"
    "w9Lm =E2=80=93 it expires in a week.\n"
    "```"
)


def _pages(tmp_path, text: str) -> tuple[str, bytes]:
    db = tmp_path / "m.db"
    with DocumentsRepository(db) as repo:
        run(
            repo,
            transcript(
                "s-mail-source",
                ("user", "2032-03-03T10:00:00Z", text),
                ("assistant", "2032-03-03T10:01:00Z", "It says your loan is approved."),
            ),
        )
        now, _ = page_lines(repo)
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("m.db"))
    return "\n".join(now), stored


def test_quoted_printable_is_read_decoded():
    text = decoded_source(SOURCE)
    assert "£4,800" in text and "paid on Friday 12 March 2032" in text
    assert "Your loan HM-77120 – approved" in text  # the encoded header word
    assert "=C2=A3" not in text and "=\n" not in text


def test_text_without_the_marks_of_quoted_printable_stays_as_it_is():
    settings = "retries=\ntimeout=30\nsize=1D"  # a line ending in "=", no byte beyond ASCII
    assert decoded_source(settings) == settings
    assert decoded_source("I owe Sam £20 =)") == "I owe Sam £20 =)"


def test_fields_only_mail_software_writes_are_no_lines(tmp_path):
    text, _ = _pages(tmp_path, SOURCE)
    assert "£4,800" in text and "2032-03-12" in text and "Tomasz Wrona" in text
    for field in ("Content-Type", "MIME-Version", "Return-Path", "=C2=A3", "quoted-printable"):
        assert field not in text


def test_an_organisation_signing_its_own_mail_is_no_person_working_there(tmp_path):
    text, _ = _pages(tmp_path, SOURCE)
    assert "Harbour Mutual works at" not in text


def test_a_header_block_without_its_sender_is_still_one():
    body = (
        "Subject: Update to your order\n"
        "Date: Thu, 4 Mar 2032 08:00:00 +0000\n"
        'Content-Type: text/plain; charset="UTF-8"\n'
        "\n"
        "Your sofa now arrives on 19 March."
    )
    chain = mail_chain(body)
    assert chain is not None
    assert not any("Content-Type" in line for mail in chain for line in mail.lines)
    # two fields a person writes in a note are no mail
    assert mail_chain("Subject: maths\nDate: Tuesday\nRevise fractions.") is None


def test_a_password_cut_by_a_soft_line_break_is_stored_nowhere(tmp_path):
    text, stored = _pages(tmp_path, SOURCE)
    for piece in ("Qz7!rT", "w9Lm"):
        assert piece not in text
        assert piece.encode() not in stored


def test_mail_source_with_a_lone_surrogate_is_left_as_it_stands():
    text = "Subject: x\n\nYour deposit of =C2=A3150 is paid o=\nn time \ud800 thanks"
    assert decoded_source(text) == text  # no bytes to decode: read as written, no traceback


def test_a_run_over_mail_source_with_a_lone_surrogate_finishes(tmp_path):
    text, _ = _pages(tmp_path, SOURCE + "\n\ud800")
    assert "Tomasz Wrona" in text
