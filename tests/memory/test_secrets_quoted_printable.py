"""A secret in mail source written in quoted-printable, cut by a soft line break ("passw=" /
"ord Qz7!rT=" / "w9Lm"), is found whole and masked with the break inside it; text that only
ends a line in "=" (a setting left empty) is not read as quoted-printable."""

from __future__ import annotations

from doctree.store.documents import DocumentsRepository
from doctree.store.secrets import _quoted_printable, find_secrets, mask_text, may_hold_secret

CUT = (
    "Content-Transfer-Encoding: quoted-printable\n\n"
    "Sign in with the temporary passw=\nord Qz7!rT=\nw9Lm =E2=80=93 it expires in a week."
)


def test_a_password_cut_by_soft_line_breaks_is_found_whole():
    found = find_secrets(CUT)
    assert [s.kind for s in found] == ["password"]
    assert CUT[found[0].start : found[0].end] == "Qz7!rT=\nw9Lm"
    masked = mask_text(CUT)
    assert "Qz7!rT" not in masked and "w9Lm" not in masked
    assert "passw=\nord [secret: password] =E2=80=93" in masked


def test_a_gate_word_cut_by_a_soft_line_break_still_opens_the_gate():
    text = "Your pa=\nssword is Qz7!rTw9Lm =E2=80=93 change it."
    assert may_hold_secret(text)
    assert "Qz7!rTw9Lm" not in mask_text(text)


def test_a_setting_ending_a_line_in_equals_is_no_mail_source():
    assert _quoted_printable("retries=\ntimeout=30\nsize=1D") is None  # no byte beyond ASCII
    assert _quoted_printable("a line that ends=\nand goes on") is None
    decoded = _quoted_printable(CUT)
    assert decoded is not None and "password Qz7!rTw9Lm – it" in decoded[0]


def test_the_database_never_holds_the_cut_password(tmp_path):
    db = tmp_path / "m.db"
    with DocumentsRepository(db) as repo:
        repo.write("user", "~/notes/mail", CUT)
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert b"Qz7!rT" not in stored and b"w9Lm" not in stored
