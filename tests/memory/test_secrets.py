"""Secrets never reach memory: the detector, the guard on the write path, and a model-backed
run (the real SDK over HTTP against the scripted fake) that writes what the user typed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doctree.agent.runtime import MemoryAgentRuntime
from doctree.interop.tools import MemoryTools
from doctree.memory.secrets import secret_location
from doctree.sessions.transcripts import format_transcript
from doctree.store.secrets import (
    _ALL_WORDS,
    KINDS,
    _gated,
    contains_secret,
    find_secrets,
    markers,
    mask,
    mask_value,
    may_hold_secret,
    may_hold_secret_joined,
)
from tests.fakes.messages_api import FakeMessagesServer, ScriptedMemoryModel
from tests.secrets_corpus import held_out, prose, secrets, transcript_lines

FIXTURES = Path(__file__).parents[1] / "fixtures" / "transcripts"
# a fake key built at run time (no literal in the repository a scanner would flag)
TOKEN = "gh" + "p_" + "Zx8Qw7Er6Ty5Ui4Op3As2Df1Gh0Jk9Lm8Nb7V"


def survives(secret: str, text: str, n: int = 8) -> bool:
    """Whether any `n` characters of `secret` in a row are still in `text`."""
    return any(secret[i : i + n] in text for i in range(max(1, len(secret) - n + 1)))


@pytest.mark.parametrize("case", secrets(), ids=lambda c: c.kind)
def test_every_kind_of_secret_is_replaced_by_its_typed_marker(case):
    clean, found = mask(case.text)
    assert not survives(case.secret, clean), clean
    assert f"[secret: {case.kind}]" in clean
    assert not contains_secret(clean)  # a marker is not a secret


def test_every_kind_in_the_corpus_is_a_kind_the_detector_names():
    assert {c.kind for c in secrets()} <= set(KINDS)


@pytest.mark.parametrize("case", prose(), ids=lambda c: c.text[:30])
def test_ordinary_prose_with_hashes_ids_and_images_is_left_alone(case):
    assert find_secrets(case.text) == []


def test_the_fixture_conversations_raise_no_false_alarm():
    assert [c.text for c in transcript_lines(str(FIXTURES)) if find_secrets(c.text)] == []


def test_held_out_forms_are_mostly_found():
    """The sentences written after tuning: a floor on what is found (docs/secrets.md lists
    the forms known to be missed)."""
    cases = held_out()
    found = sum(not survives(c.secret, mask(c.text)[0]) for c in cases)
    assert found >= 42, f"{found}/{len(cases)}"


@pytest.mark.parametrize(
    "text",
    [
        "the password is in the vault",
        "the token expired yesterday",
        "the API key for staging lives in 1Password",
        "we rotated the secret key last week",
        "call me at 10:30 on December 4",
        "const apiKey = process.env.API_KEY;",
        "Password rules: at least twelve characters.",
    ],
)
def test_plain_words_are_not_secrets(text):
    assert find_secrets(text) == []


def test_redaction_is_idempotent_and_markers_name_their_kind():
    text = f"token {TOKEN} and AKIA{'Q' * 16}"
    once, found = mask(text)
    assert [s.kind for s in found] == ["github-token", "aws-access-key"]
    assert mask(once) == (once, [])
    assert [m.kind for m in markers(once)] == ["github-token", "aws-access-key"]


def test_a_json_value_is_redacted_in_every_string_keys_included():
    value = {"cmd": ["curl", f"-H 'Authorization: token {TOKEN}'"], TOKEN: 1, "n": 2}
    clean = mask_value(value)
    assert TOKEN not in repr(clean) and clean["n"] == 2
    plain = {"a": ["b", 1]}
    assert mask_value(plain) is plain


def test_where_the_user_keeps_a_secret():
    assert secret_location("the key is sk-ant-x, it lives in 1Password under Staging") == (
        "in 1Password under Staging"
    )
    assert secret_location("no idea") is None


def test_the_write_path_withholds_a_secret_whoever_writes(repo):
    tools = MemoryTools(repo, "main", session_id="s-1")
    r = tools.call(
        "document_write",
        {"path": "~/memory/notes", "body": f"# Notes\n\n- token {TOKEN}\n"},
    )
    assert not r.is_error and "secret(s) (github-token) withheld" in r.content
    body = repo.read("main", "~/memory/notes").body
    assert "ghp_" not in body and "[secret: github-token]" in body
    r = tools.call(
        "document_edit",
        {"path": "~/memory/notes", "old_string": "# Notes", "new_string": "# Notes pw: hunter2!x"},
    )
    assert not r.is_error
    assert "hunter2" not in repo.read("main", "~/memory/notes").body


def _transcript(session: str, time: str, text: str) -> str:
    return format_transcript(
        [{"kind": "user", "time": time, "content": text}], owner="main", session_id=session
    )


def test_a_model_backed_run_forgets_on_request_and_never_stores_a_secret(repo):
    with FakeMessagesServer(ScriptedMemoryModel()) as srv:
        runtime = MemoryAgentRuntime(
            repo, backend="anthropic", api_key="k", base_url=srv.base_url, max_retries=0
        )
        try:
            runtime.run(
                "main",
                "s-1",
                _transcript(
                    "s-1",
                    "2026-12-01T09:00:00Z",
                    f"The standup moved to 9:30 with Ana. My token is {TOKEN}, it is in 1Password.",
                ),
            )
            assert "9:30" in repo.read("main", "~/memory/archive/2026-W49/s-1").body
            runtime.run(
                "main",
                "s-2",
                _transcript(
                    "s-2", "2026-12-02T09:00:00Z", "Please forget what I said about the standup."
                ),
            )
        finally:
            runtime.close()
    assert "9:30" not in repo.read("main", "~/memory/archive/2026-W49/s-1").body
    for v in repo.log("main", "~", limit=None):
        assert "ghp_" not in (v.body or ""), v.path


def test_the_detector_is_a_pure_function_of_the_text_with_no_network():
    """It imports nothing but text tools (the standard library's, an Aho-Corasick string
    search, and an English word list, the package's own data, read through `doctree.words`,
    itself as pure): no socket, no HTTP client, no database access, nothing else of
    doctree."""
    import ast
    from types import ModuleType

    import doctree.store.secrets as module
    import doctree.words as words

    def imports(mod: ModuleType) -> set[str]:
        tree = ast.parse(Path(str(mod.__file__)).read_text(encoding="utf-8"))
        return {
            n.module if isinstance(n, ast.ImportFrom) and n.module else a.name
            for n in ast.walk(tree)
            if isinstance(n, ast.Import | ast.ImportFrom)
            for a in n.names
        }

    pure = {
        "__future__",
        "ahocorasick_rs",
        "base64",
        "collections",
        "collections.abc",
        "dataclasses",
        "english_words",
        "functools",
        "math",
        "re",
        "typing",
    }
    assert imports(module) <= pure | {"doctree.words"}
    assert imports(words) <= pure
    text = f"token {TOKEN}"
    assert mask(text) == mask(text)


def test_no_secret_found_inside_a_slug_is_shorter_than_the_paths_shortcut():
    """`normalize_path` skips segments shorter than SHORTEST_IN_A_SLUG: check that every
    secret the detector finds in a slug-shaped segment is at least that long."""
    from doctree.store.paths import SHORTEST_IN_A_SLUG, slugify

    for case in [*secrets(), *held_out()]:
        for seg in re.split(r"[^\w.-]+", case.text):
            for s in find_secrets(seg):
                assert s.end - s.start >= SHORTEST_IN_A_SLUG, (seg, s.kind)
    assert slugify(f"key {TOKEN}") == "key-secret-github-token"


def test_a_code_named_with_where_it_opens_is_a_secret():
    from doctree.store.secrets import mask

    text, found = mask("the alarm code at the new flat is 4417, the door code in the lobby is 9920")
    assert [s.kind for s in found] == ["pin", "pin"]
    assert "4417" not in text and "9920" not in text


def test_a_code_named_by_the_lock_it_opens_is_a_secret():
    from doctree.store.secrets import mask

    said = [
        ("the key safe next to the garage is 7712, let them in", "7712"),
        ("lockbox by the side door is 3385", "3385"),
        ("the code for the bike shed is 0451", "0451"),
        ("our gate code is 66120 now", "66120"),
        ("the padlock combination is 9023", "9023"),
        ("my gym locker code is 2047 if I lose the card", "2047"),
        ("the keypad code is 4471 till Friday", "4471"),
        ("THE KEYPAD CODE IS 8830", "8830"),
    ]
    for sentence, value in said:
        text, found = mask(sentence)
        assert value not in text, sentence
        assert [s.kind for s in found] == ["pin"], sentence


def test_a_pin_or_a_lock_code_said_right_before_its_digits_is_a_secret():
    from doctree.store.secrets import mask

    said = [
        ("They sent a new debit card, PIN 7306, it arrives Monday.", "7306"),
        ("gift voucher 12 pounds, pin code 4410 on the back", "4410"),
        ("the side gate code 2219 works from tonight", "2219"),
        ("passcode 551029 for the meeting room tablet", "551029"),
    ]
    for sentence, value in said:
        text, found = mask(sentence)
        assert value not in text, sentence
        assert [s.kind for s in found] == ["pin"], sentence
    # "pin" the verb before a version, a price after "PIN", an error code: no PIN
    for sentence in (
        "pin 2024 in the requirements file",
        "the PIN 12.50 adapter",
        "error code 5003 again",
    ):
        assert mask(sentence)[1] == [], sentence


def test_a_pin_wrapped_in_markup_is_a_secret_as_it_is_bare():
    from doctree.store.secrets import mask

    said = [
        ("<p>The key safe code is <b>3318</b>. Keep it to yourself.</p>", "3318"),
        ("The alarm code is **8840**, set it when you leave.", "8840"),
        ("door code: <strong class='x'>1957</strong>", "1957"),
        ("my PIN is *6623*", "6623"),
        ("PIN `8812` for the new card", "8812"),
        ("Set him up on the lock with his own code, **7204**.", "7204"),
    ]
    for sentence, value in said:
        text, found = mask(sentence)
        assert value not in text, sentence
        assert [s.kind for s in found] == ["pin"], sentence
    # markup does not make a number after an error code or the verb "pin" a PIN
    for sentence in ("the error code is **5003**", "pin **2024** in the lock file"):
        assert mask(sentence)[1] == [], sentence


def test_a_pin_said_digit_by_digit_in_pairs_or_in_words_is_a_secret():
    said = [
        ("the pin for the new card is 4 4 1 9, don't lose it", "4 4 1 9"),
        ("The alarm code is 7 3 0 1 and the fob is on the hook.", "7 3 0 1"),
        ("door code 1-9-8-4 from Monday", "1-9-8-4"),
        ("safe combination: 12-34-56", "12-34-56"),
        ("PIN: four four one nine", "four four one nine"),
        ("the gate code is two zero one seven, press enter after", "two zero one seven"),
        ("my passcode's 558213", "558213"),
        ("the key safe is round the back, code 7731", "7731"),
    ]
    for sentence, value in said:
        text, found = mask(sentence)
        assert value not in text, sentence
        assert [s.kind for s in found] == ["pin"], sentence
    # a count, a word that is not a digit, a version, two digits: no PIN
    for sentence in (
        "the gate code is 12 digits long",
        "the door code is one of the four things I forgot",
        "pin 2 0 2 4 in the lock file",
        "the alarm code is 7 3, I think",
        "The gate showed error code 5003, then 5004.",
    ):
        assert mask(sentence)[1] == [], sentence


def test_a_password_after_is_with_a_colon_or_a_line_break_is_a_secret():
    for sentence in (
        "my password is:\nhunter2horse",
        "Password is: Tr0mb0ne!",
        "wifi password =\n  kettle42pond",
    ):
        text, found = mask(sentence)
        assert [s.kind for s in found] == ["password"], sentence
        assert not re.search(r"hunter2|Tr0mb0ne|kettle42", text), sentence


def test_a_password_in_another_language_is_a_secret():
    for sentence, value in (
        ("Mot de passe : soleil2024", "soleil2024"),
        ("mon mot de passe est soleil2024", "soleil2024"),
        ("la contraseña: gato1234", "gato1234"),
        ("das Passwort ist Wolke77", "Wolke77"),
        ("mijn wachtwoord: fiets1234", "fiets1234"),
    ):
        text, found = mask(sentence)
        assert value not in text and [s.kind for s in found] == ["password"], sentence
    # the word without a value
    assert mask("j'ai oublié mon mot de passe hier")[1] == []


def test_a_pass_phrase_in_quotes_is_a_secret_a_screen_message_is_not():
    for sentence, value in (
        ("the passphrase is 'purple monkey dishwasher'", "purple monkey dishwasher"),
        ("my passphrase: \u201cblue whale\u201d", "blue whale"),
        ('the wifi password is "correct horse battery staple" btw', "horse battery"),
        ("Password 'Summer 2024' was rejected", "Summer 2024"),
        ("the password's 'Tango Foxtrot 7'", "Tango Foxtrot"),
    ):
        text, found = mask(sentence)
        assert value not in text and [s.kind for s in found] == ["passphrase"], sentence
    # two words a screen said, a quoted single word (judged as any value is): kept
    for sentence in (
        "it says the password is 'not valid' when I log in",
        "the password is 'expired'",
        "I'll change the password on Monday",
    ):
        assert mask(sentence)[1] == [], sentence


def test_a_code_given_in_a_sentence_about_a_lock_is_a_secret_an_error_code_is_not():
    from doctree.store.secrets import mask

    text, found = mask("Set the cleaner up on the smart lock with her own code, 5518, for Fridays.")
    assert "5518" not in text and [s.kind for s in found] == ["pin"]
    text, found = mask("The garage door keypad shows error code 4021 when it's cold.")
    assert "4021" in text and found == []


def test_a_wallet_recovery_phrase_is_a_secret_and_a_mention_of_one_is_not():
    from doctree.store.secrets import mask

    words = "pond ladder quiet brisk native oven maple shadow grape tunnel wagon civic"
    text, found = mask(f"My seed phrase is {words}, please don't lose it.")
    assert [s.kind for s in found] == ["recovery-phrase"]
    assert all(w not in text for w in words.split())
    text, found = mask("The recovery phrase is written down in the safe deposit box at the bank.")
    assert found == []


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("for the whip-round: Jo Pike, sort code 20-45-77, acc 51873302 thanks", "Jo Pike"),
        ("Account no. 51873302, sort code 204577, ref BIRTHDAY", "ref BIRTHDAY"),
        ("pay me on a/c 51873302 and sort code 20 45 77", "pay me on"),
        ("my IBAN is DE44 5001 0517 5407 3249 31 if you need it", "if you need it"),
    ],
)
def test_a_bank_account_number_with_its_sort_code_or_an_iban_is_a_secret(said, kept):
    from doctree.store.secrets import mask

    text, found = mask(said)
    assert [s.kind for s in found] == ["bank-account"], text
    assert kept in text and not re.search(r"\d{6,}|\d{2}[- ]\d{2}[- ]\d{2}", text), text


def test_an_account_number_or_a_sort_code_alone_is_not_a_secret():
    from doctree.store.secrets import mask

    for said in (
        "my gas account number is 51873302, for the meter readings",
        "the sort code 20-45-77 is the Barclays branch in town",
    ):
        assert mask(said) == (said, [])


def test_a_login_given_as_a_pair_keeps_the_name_and_withholds_the_password():
    from doctree.store.secrets import mask

    text, found = mask("the supplier portal login is kim.ops / Pl@ntPot88 — oops, wrong tab")
    assert "Pl@ntPot88" not in text and "kim.ops" in text
    assert [s.kind for s in found] == ["password"]
    text, _ = mask("username and password are admin / cAstle&9road")
    assert "cAstle&9road" not in text


def test_numbers_near_lock_words_that_are_not_codes_stay():
    from doctree.store.secrets import find_secrets

    for sentence in [
        "the combination of the two is 1234 points",
        "the error code is 5003",
        "I wrote code for the door sensor in 2024",
        "the safe is 1.5m tall",
        "the login is via SSO / Okta",
        "the store opens at 0900",
        "I'd pin urllib3>=2,<3 in the lock file",
        "pin requests==2.31.0 as well",
    ]:
        assert find_secrets(sentence) == [], sentence


CREDENTIAL = "Heron-4420"


@pytest.mark.parametrize(
    "sentence",
    [
        "log in with {}",
        "the password's {}",
        "my password for the portal, in case I forget, is {}",
        "set the password to {} please",
        "changed my password to {} yesterday",
        "the code to log in is {}",
        "passwords: {}",
        "I use {} as my password",
        "It's {}, that's the password",
        "login: {}",
        "access code {}",
        "the password (case sensitive) is {}",
        "my password, which is {}",
        "password — {}",
        "password was reset to {}",
        "the portal login they set up for me is anna.k / {}",
        "Passwort: {}",
        "mot de passe : {}",
        "contraseña: {}",
        "wachtwoord is {}",
    ],
)
def test_a_credential_near_a_word_for_one_is_a_secret_however_it_is_worded(sentence):
    """A token that can only be a credential (letters and digits, mixed case or a symbol,
    random enough) in the same sentence as a word for one, in any wording or order."""
    text, found = mask(sentence.format(CREDENTIAL))
    assert CREDENTIAL not in text and "4420" not in text, text
    assert [s.kind for s in found] == ["password"]


@pytest.mark.parametrize(
    "sentence",
    [
        "I reset my password at 10:30am on 12-Mar-2029",
        "the password hashing uses SHA-256 and bcrypt",
        "I keep my passwords in 1Password",
        "login fails with error E4021 since v2.3.1",
        "the login page returns 500 for user 3f2a9c1e-77aa-4b1c-9d3e-0a1b2c3d4e5f",
        "sign in with anna.k@example.com",
        "the login service runs on node-7 and node-12",
        "after the login the page shows Q3-2029 figures",
        "the password expires on 2029-04-01",
        "the credential store moved to Vault-1.15 last week",
        "log in from Room-101A",
        "the password rules changed in Windows-11",
        "log in with your employee ID, e.g. EMP-20931",
        "the login screen on the Pixel-8a froze",
        "Includes password protection and 256-bit AES hardware encryption",
        "CREDENTIALS = 'caramel-base-379922-9d9af53bf1a0.json'",
        "QUEUE_NAME=invoices-eu, WORKER_THREADS=12, SMTP_PASSWORD withheld",
        "the password is read in retry_after_30s",
    ],
)
def test_letters_and_digits_near_a_word_for_a_credential_that_are_not_one_stay(sentence):
    """Times, dates, versions, acronyms with numbers, hosts, rooms, models, addresses and
    identifiers near 'password' or 'login' are facts to keep, not secrets."""
    assert find_secrets(sentence) == []


def test_a_credential_said_in_a_transcript_never_reaches_the_database(tmp_path):
    """A replayed conversation: no page, no version, no session record, no index and no
    byte of the database file holds the credential."""
    from click.testing import CliRunner

    from doctree.cli import cli
    from doctree.store.documents import DocumentsRepository

    transcript = tmp_path / "t.md"
    transcript.write_text(
        _transcript(
            "s-cred",
            "2028-03-02T10:00:00Z",
            f"The cabin wifi is Fjordnet. I use {CREDENTIAL} as its password, keep it.",
        )
    )
    db = tmp_path / "doctree.db"
    result = CliRunner().invoke(
        cli, ["--db", str(db), "replay", "--backend", "offline", str(transcript)]
    )
    assert result.exit_code == 0, result.output
    repo = DocumentsRepository(db)
    texts = [v.body or "" for d in repo.documents("main") for v in repo.history("main", d.path)]
    repo.close()
    assert any("Fjordnet" in t for t in texts)  # the rest of what was said is kept
    assert not any(CREDENTIAL in t for t in texts)
    raw = b"".join(p.read_bytes() for p in tmp_path.glob("doctree.db*"))
    assert CREDENTIAL.encode() not in raw


def test_a_secret_given_in_reply_to_a_question_never_reaches_the_database(tmp_path):
    """The assistant asks for a code and the user replies with the bare value, or the user
    leads into one and gives it in the next message: no byte of the database file holds it,
    and the pages say what it opens, never the value."""
    from click.testing import CliRunner

    from doctree.cli import cli
    from doctree.store.documents import DocumentsRepository

    said = [
        ("user", "The new house keys are sorted, the key safe is by the back door."),
        ("assistant", "Great. What's the code for the key safe?"),
        ("user", "6087"),
        ("assistant", "Thanks. And the wifi password?"),
        ("user", "marble93kettle"),
        ("user", "my bank PIN is"),
        ("user", "3952"),
    ]
    transcript = tmp_path / "t.md"
    transcript.write_text(
        format_transcript(
            [
                {"kind": k, "time": f"2031-05-01T10:0{i}:00Z", "content": c}
                for i, (k, c) in enumerate(said)
            ],
            owner="main",
            session_id="s-reply",
        )
    )
    db = tmp_path / "doctree.db"
    result = CliRunner().invoke(
        cli, ["--db", str(db), "replay", "--backend", "offline", str(transcript)]
    )
    assert result.exit_code == 0, result.output
    raw = b"".join(p.read_bytes() for p in tmp_path.glob("doctree.db*"))
    for value in ("6087", "marble93kettle", "3952"):
        assert value.encode() not in raw, value
    repo = DocumentsRepository(db)
    lines = [ln for d in repo.documents("main") for ln in d.body.splitlines()]
    repo.close()
    assert any("key safe is by the back door" in ln for ln in lines)
    # a marker is kept whole where a page says what the code opens
    assert all("secret: pin]" not in ln or "[secret: pin]" in ln for ln in lines), lines


def test_a_wiki_link_after_a_word_for_a_credential_is_no_password():
    """A page line left with "PIN is" before its citation: the link is no value."""
    line = "- 2031-05-01: The user's bank PIN is ([[~/memory/archive/2031-W18/s1|s1]])"
    assert find_secrets(line) == []
    assert find_secrets("the password is in [[~/memory/tools/vault-42]]") == []


@pytest.mark.parametrize(
    "text",
    [
        "the card ending 4242 was declined",  # four digits are what receipts print
        "my card is 4111 1111 1111 1112",  # the check digit is wrong
        "order 4111111111111111 is on its way",  # a card's digits, but no card in the sentence
        "card 1234 5678 9012 3452 is the example",  # no network starts with 1
        "The card is on the desk. Order 4111111111111111 shipped.",  # the card word elsewhere
        "the security code review is on 12 May",
        "my SSN is on the form",
    ],
)
def test_card_like_digits_without_a_card_are_not_secrets(text):
    assert find_secrets(text) == []


def test_a_card_its_security_code_and_an_ssn_are_masked_where_the_sentence_names_them():
    text, found = mask(
        "Pay with my Visa 4111-1111-1111-1111 (CVV 737). Amex 3782 822463 10005 is the backup."
        " SSN: 219-09-9999."
    )
    assert [s.kind for s in found] == [
        "payment-card",
        "card-security-code",
        "payment-card",
        "social-security-number",
    ]
    for value in ("4111-1111-1111-1111", "737", "822463", "219-09-9999"):
        assert value not in text
    assert text.startswith("Pay with my Visa [secret: payment-card] (CVV")


_GATE_PIECES = sorted({w[i:j] for w in _ALL_WORDS for i in range(len(w)) for j in (i + 1, len(w))})


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(_ALL_WORDS) | st.sampled_from(_GATE_PIECES) | st.text(max_size=4),
        max_size=8,
    )
)
def test_the_word_gate_lets_through_exactly_the_texts_holding_one_of_its_words(parts):
    # the gate reads a text once for all words: the answer is that of a search for each
    low = "".join(parts).lower()
    assert _gated(low) == any(w in low for w in _ALL_WORDS)


_GATE_PIECES = sorted({w[:k] for w in _ALL_WORDS for k in range(1, len(w) + 1)} | {" ", "x"})


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_GATE_PIECES), max_size=12), st.text(max_size=8))
def test_the_gate_finds_a_gate_word_wherever_a_substring_search_does(pieces, noise):
    # texts made of the gate words' beginnings, so that most hold one only by a join
    low = noise.join(pieces)
    assert _gated(low) == any(w in low for w in _ALL_WORDS)


@pytest.mark.parametrize(
    ("text", "held"),
    [
        ("my password is tr0ub4dor", True),
        ("just ask mira", True),  # "sk" of a key's prefix, inside a word: the gate only reads
        ("ghp_ at the end", True),
        ("nothing to see here", False),
        ("", False),
    ],
)
def test_the_word_gate_on_a_few_texts(text: str, held: bool):
    assert _gated(text) is held


def test_a_secret_beside_a_lone_surrogate_is_still_found():
    # the word gate's automaton cannot read such text: the words are searched one by one
    assert _gated("my password is x \ud800")
    assert not _gated("nothing to see \ud800")
    assert find_secrets(f"token {TOKEN} \ud800")


@pytest.mark.parametrize(
    "text",
    ["my pass is", "the access", "sign in here", "log in", "user & co", "hasło", "xox", "a", ""],
)
def test_the_gate_on_texts_with_and_without_gate_words(text):
    assert _gated(text) == any(w in text for w in _ALL_WORDS)


_JOIN_PIECES = [*_GATE_PIECES, "İ", "ß", "Σ", "K", "\n", "  ", "SIGN", "Lock"]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(_JOIN_PIECES), max_size=8),
    st.lists(st.sampled_from(_JOIN_PIECES), max_size=8),
    st.text(max_size=6),
)
def test_a_join_may_hold_a_secret_only_by_a_word_across_it(first, second, noise):
    a, b = noise.join(first), "".join(second)
    if may_hold_secret(a) or may_hold_secret(b):
        return
    assert may_hold_secret_joined(a, b) == may_hold_secret(f"{a} {b}")


@pytest.mark.parametrize(
    ("first", "second"),
    [("Use this one to sign", "in: then"), ("the lock", "box"), ("a user", "and b"), ("x", "y")],
)
def test_a_gate_word_across_a_join_is_found(first, second):
    assert not may_hold_secret(first) and not may_hold_secret(second)
    assert may_hold_secret_joined(first, second) == may_hold_secret(f"{first} {second}")


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("the login code it texted me was 583 912, worked fine", "583 912"),
        ("your OTP is 482193", "482193"),
        ("Verification code: 7730-4412", "7730-4412"),
        ("318604 is your verification code", "318604"),
        ("they sent a sign-in code, 66120, to my phone", "66120"),
        ("the one-time password was 902177", "902177"),
        ("code de vérification… no: the 2FA code is 5519 0283", "5519 0283"),
        ("they e-mailed me an access code of 841 226", "841 226"),
    ],
)
def test_a_one_time_code_is_a_secret_however_it_is_worded(text, code):
    """A code sent to sign in, by a name only such a code has, or by a name other codes share
    ("login code") when its sending is said."""
    masked, found = mask(text)
    assert code not in masked, masked
    assert [s.kind for s in found] == ["one-time-code"]


@pytest.mark.parametrize(
    "text",
    [
        "I wrote the login code in 2024",
        "the verification code expired after 10 minutes",
        "the verification code was sent at 10:30 on 12.03",
        "sent the login code to 3 people in 2029",
        "the security code review is on 12 May",
        "one-time code 12.5 seconds late",
        "the access code changes every 30 days",
        "their verification code length is 6",
    ],
)
def test_numbers_beside_a_sign_in_code_that_are_not_one_stay(text):
    assert find_secrets(text) == [], text


@pytest.mark.parametrize(
    "text",
    [
        "these are the recovery codes:\n\n```\n4kq7-2mzp  9xtd-b3ve\nh2rw-77cn  p5ja-0lqe\n```\nkept",
        "my backup codes are 1234-5678 2345-6789 and that's it",
        "Recovery codes: 81kd2 77cq1 p0z83",
        "two-factor backup codes were:\n  aa12-bb34\n  cc56-dd78",
    ],
)
def test_recovery_codes_listed_after_their_name_are_secrets(text):
    masked, found = mask(text)
    assert [s.kind for s in found] == ["recovery-code"], masked
    for token in ("4kq7", "p5ja", "5678", "81kd2", "p0z83", "aa12", "dd78"):
        assert token not in masked
    assert masked.startswith(text[:8])  # what comes before the codes stays


@pytest.mark.parametrize(
    "text",
    [
        "backup codes are printed in the 2030 folder",
        "the recovery codes are in the fire safe since 2029",
        "I printed the recovery codes: all 10 of them",
    ],
)
def test_words_after_recovery_codes_that_are_not_codes_stay(text):
    assert find_secrets(text) == [], text


def test_the_end_of_a_private_key_said_apart_from_its_first_line_is_a_secret():
    """A pasted key read a line at a time: its last lines and END line hold no BEGIN line."""
    tail = (
        "AAAEDx9kq3Yw1Vb8uT2nZpLr6cM0sJf4eHd7gA5iKo2NyQqWpXeZfR8uq1PNjasrxwfXA3\n"
        "-----END OPENSSH PRIVATE KEY-----"
    )
    for text in (tail, tail.replace("\n", " "), f"here it is {tail} thanks"):
        masked, found = mask(text)
        assert "AAAEDx9" not in masked and "END OPENSSH" not in masked, masked
        assert [s.kind for s in found] == ["private-key"]
    assert mask("here it is " + tail)[0].startswith("here it is ")
    # prose about the lines of a key is no key
    said = "the file ends with the -----END PRIVATE KEY----- line"
    assert mask(said)[0].count("the file ends with the") == 1


@pytest.mark.parametrize(
    "text",
    [
        "The office Wi-Fi password is copper-lantern-31 if the label maker asks for it, which"
        " is a Brother QL-L820NWB by the door.",
        "password: Zq8-mmt4-Lk if the scanner asks, it's the RT-AX88U by the TV",
        "the login is Heron-4420, then open the DCP-L2530DW queue",
    ],
)
def test_a_password_found_names_no_other_token_after_it(text):
    """A credential word whose value is found (or a marker standing for it) does not make a
    model number later in the sentence a password: masking twice changes nothing more."""
    masked, found = mask(text)
    assert len(found) == 1 and found[0].kind == "password", masked
    for model in ("QL-L820NWB", "RT-AX88U", "DCP-L2530DW"):
        if model in text:
            assert model in masked
            assert mask(masked) == (masked, [])


def test_a_credential_before_another_secret_is_still_found():
    masked, found = mask("log in with Heron-4420 and the API key sk-ant-abcdefghijklmnopqrstu")
    assert "Heron-4420" not in masked and [s.kind for s in found] == ["password", "anthropic-key"]


def test_sign_in_codes_said_in_a_transcript_never_reach_the_database(tmp_path):
    """A replayed conversation with a texted code, recovery codes and a key pasted a line at
    a time: no byte of the database holds any of them, and the rest of what was said stays."""
    from click.testing import CliRunner

    from doctree.cli import cli

    key = (
        "-----BEGIN OPENSSH PRIVATE KEY-----\n"
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
        "AAAEDx9kq3Yw1Vb8uT2nZpLr6cM0sJf4eHd7gA5iKo2NyQqWpXeZfR8uq1PNjasrxwfXA3\n"
        "-----END OPENSSH PRIVATE KEY-----"
    )
    said = (
        "Turned on two-factor for the allotment society's site. These are the recovery codes:"
        "\n\n```\nq7dn-4kx2  m2vv-81tr\n```\n\nThe login code it texted me was 730 518."
        f" The deploy host is larch.example, port 2201. Here's the key:\n\n{key}\n\nDone."
    )
    transcript = tmp_path / "t.md"
    transcript.write_text(_transcript("s-otp", "2028-03-02T10:00:00Z", said))
    db = tmp_path / "doctree.db"
    result = CliRunner().invoke(
        cli, ["--db", str(db), "replay", "--backend", "offline", str(transcript)]
    )
    assert result.exit_code == 0, result.output
    raw = b"".join(p.read_bytes() for p in tmp_path.glob("doctree.db*"))
    assert b"larch.example" in raw  # the rest is kept
    for secret in ("q7dn-4kx2", "m2vv-81tr", "730 518", "AAAEDx9kq3Yw1Vb8", "b3BlbnNzaC1rZXkt"):
        assert secret.encode() not in raw, secret


@pytest.mark.parametrize(
    "text",
    [
        "my passwords are Heron-4420 and Gull-8812",
        "passwords: Heron-4420, Gull-8812",
        "the password is Heron-4420 / Gull-8812 on the old box",
    ],
)
def test_a_list_of_credentials_after_one_word_is_found_whole(text):
    masked, found = mask(text)
    assert "Heron-4420" not in masked and "Gull-8812" not in masked, masked


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "Reset it here: https://accounts.example.org/reset?token=Qm8vT2x9aB3k&lang=en",
            "Qm8vT2x9aB3k",
        ),
        (
            "the SAS link https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&sig=abcDEF123ghiJKL456mno%3D",
            "abcDEF123ghiJKL456mno%3D",
        ),
        (
            "https://app.example.com/callback#access_token=ya29.a0AfH6SMBx&expires_in=3600",
            "ya29.a0AfH6SMBx",
        ),
        ("see www.example.com/login?auth=a1b2c3d4e5, then sign in", "a1b2c3d4e5"),
        (
            "signed: https://files.example.net/x.zip?X-Goog-Signature=5d41402abc4b2a76b9719d911017c592ab",
            "5d41402abc4b2a76b9719d911017c592ab",
        ),
        (
            "magic link <https://club.example/enter?login_token=Zq0LkWmXpTrSvUyN>",
            "Zq0LkWmXpTrSvUyN",
        ),
        ("Track it: https://parcels.example/d/88213?tok=7Hc2Kx9Q.", "7Hc2Kx9Q"),
        ("change the slot: https://courier.example/m?ref=20931&tk=bW4pQ8zLr2Xy", "bW4pQ8zLr2Xy"),
        ("reset at https://accounts.example.org/r?u=jo&tkn=Hq72mVx0PzLs", "Hq72mVx0PzLs"),
    ],
)
def test_a_token_in_a_link_is_a_secret_and_the_link_stays(text, value):
    masked, found = mask(text)
    assert found and value not in masked, masked
    # the link stays up to the parameter's name; a value some older pattern knows (a
    # token of 16 or more after "token=") keeps that pattern's kind
    assert masked.startswith(text[: text.index(value)]), masked
    assert found[-1].kind in ("link-token", "api-key"), found


@pytest.mark.parametrize(
    "text",
    [
        "the video https://youtu.be/dQw4w9WgXcQ?t=90 from 1:30",
        "https://example.com/search?q=release+notes&page=2",
        "use https://shop.example.com/checkout?code=SUMMER20&id=48213 for the discount",
        "track https://track.example.com/?tracking_number=1Z999AA10123456784",
        "https://maps.example.com/?key=value&token=expired",
        "https://x.example/?monkey=abc123def456",
        "https://x.example/list?tks=abc123def456&stk=Qm8vT2x9aB3k",
        "the form said token=Qm8vT2x9aB3k but it was no link",
    ],
)
def test_parameters_of_a_link_that_open_nothing_stay(text):
    assert "link-token" not in [s.kind for s in find_secrets(text)], text


@pytest.mark.parametrize(
    "text",
    [
        "card 4929 3310 5521 8841 exp 07/29",
        "Visa 4929 3310 5521 8841, expires 07/2029",
        "my card: 5412 7534 1234 5679 (valid thru 11/30)",
    ],
)
def test_a_card_number_said_with_its_expiry_is_a_secret_whatever_its_check_digit(text):
    """A digit mistyped fails the check digit; the expiry beside the number still says it is
    a card's, and the other fifteen digits are the card's."""
    masked, found = mask(text)
    assert [s.kind for s in found] == ["payment-card"], text
    assert not re.search(r"\d{4} \d{4}", masked)


def test_a_card_shaped_number_without_check_digit_or_expiry_stays():
    for text in (
        "my card is 4111 1111 1111 1112",
        "card order 4929 3310 5521 8841 shipped 07/29",
    ):
        assert mask(text)[1] == [], text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("My national insurance number is QQ 12 34 56 C.", "QQ 12 34 56 C"),
        ("NI number: AB123456D", "AB123456D"),
        ("NINO QQ123456C for the payroll form", "QQ123456C"),
        ("my SIN is 046 454 286", "046 454 286"),
        ("social insurance number: 046-454-286", "046-454-286"),
        ("passport no. 533380006 expires 2030", "533380006"),
        ("Passport number: X1234567", "X1234567"),
    ],
)
def test_an_identity_number_after_its_name_is_masked(text, value):
    masked, found = mask(text)
    assert [s.kind for s in found] == ["national-id-number"]
    assert value not in masked and "[secret: national-id-number]" in masked


@pytest.mark.parametrize(
    "text",
    [
        "I left my passport in the car on 12 June.",
        "NI number is in the drawer by the door.",
        "He sold 123456789 units; passport photos cost 12 quid.",
        "My passport is 5333800 days from expiring, roughly.",
        "passport 2024 renewal went through",
        "the sin of 1999 was the haircut",
        "National Insurance went up 2% in April.",
    ],
)
def test_a_passport_or_an_insurance_mentioned_without_its_number_stays(text):
    assert mask(text) == (text, [])


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        ("my memorable word is Lighthouse", "Lighthouse", "memorable-word"),
        ("Bank passcode 882731 and memorable information: SEAGULL", "SEAGULL", "memorable-word"),
        ("DVLA driving licence number MORGA753116SM9IJ", "MORGA753116SM9IJ", "national-id-number"),
        ("garage opener code 5520", "5520", "pin"),
        ("front door keypad code: 1290", "1290", "pin"),
        ("router admin pass = Tr0ub4dor&3", "Tr0ub4dor&3", "password"),
        ("the wifi key is xK9#mq2Lp", "xK9#mq2Lp", "password"),
    ],
)
def test_a_bank_word_a_licence_a_lock_code_and_a_named_pass_are_masked(text, value, kind):
    masked, found = mask(text)
    assert kind in [s.kind for s in found], found
    assert value not in masked


@pytest.mark.parametrize(
    "text",
    [
        "Monthly pass: $100/month for the train",
        "I have a memorable word for it somewhere.",
        "Memorable word? No idea, I'll ring them.",
        "network key is fine now",
        "Access all areas code 2020 is on the lanyard design.",
        "the door has a code but I forget it",
    ],
)
def test_a_pass_a_memorable_word_or_a_code_mentioned_without_a_value_stays(text):
    assert mask(text) == (text, [])


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("the marina gate code is K4417 if anyone asks", "K4417"),
        ("Ho lasciato le chiavi nella cassetta, il codice è 8812.", "8812"),
        ("Die Schlüssel sind im Kasten, der Code ist 4711.", "4711"),
        ("Las llaves están en la caja, el código es 5521.", "5521"),
        ("Der Code für die Tür ist 3390.", "3390"),
    ],
)
def test_a_lock_code_with_a_keypad_letter_or_in_another_language_is_masked(text, value):
    masked, found = mask(text)
    assert [s.kind for s in found] == ["pin"], found
    assert value not in masked


@pytest.mark.parametrize(
    "text",
    [
        "Il codice è 2619.",  # a code of nothing said to lock
        "the error code is 5003 on the door panel",
        "The code is in the README, version 2024",
        "Il codice postale è 06024.",
    ],
)
def test_a_code_of_no_lock_stays(text):
    assert mask(text) == (text, [])


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        ("the CVV on the back is 317", "317", "card-security-code"),
        ("security code on the back of the card: 0412", "0412", "card-security-code"),
        ("security answer: Marmalade", "Marmalade", "memorable-word"),
        ("the answer to my security question is Marmalade", "Marmalade", "memorable-word"),
        ("2FA backup code 493882", "493882", "recovery-code"),
        ("my recovery code is K7RQ-22LA", "K7RQ-22LA", "recovery-code"),
    ],
)
def test_a_card_code_a_security_answer_and_a_single_backup_code_are_masked(text, value, kind):
    masked, found = mask(text)
    assert kind in [s.kind for s in found], found
    assert value not in masked


@pytest.mark.parametrize(
    "text",
    [
        "the security answer was wrong so I got locked out",
        "backup code 2024 was the year we moved",
        "the backup codes are printed in the drawer",
        "we need a backup code review on Friday",
    ],
)
def test_a_security_answer_or_backup_code_mentioned_without_one_stays(text):
    assert mask(text) == (text, [])


def test_a_card_whose_question_names_a_password_holds_it_in_its_answer():
    from doctree.store.secrets import mask

    text, found = mask("What is the guest wifi password?\tKestrelHarbour88")
    assert "KestrelHarbour88" not in text and [s.kind for s in found] == ["password"]
    for card in (
        "Where is the keypad?\tby the door",
        "What is the password policy?\tevery 90 days",
    ):
        assert mask(card)[1] == [], card
