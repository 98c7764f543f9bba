"""A labelled corpus for the secret detector: fake secrets of every kind doctree withholds,
each in several sentences a person might paste into a conversation, and lines of ordinary
prose full of things that look random but are not secrets (commit hashes, sha256 digests,
UUIDs, base64 images, long URLs, hex ids).

Every secret is built at run time from a seeded random generator, its well-known prefix put
together from pieces, so this file holds no literal a secret scanner would flag, and the
corpus is the same on every run. `bench/secret_detection.py` measures detectors on it; the tests in
`tests/memory/test_secrets.py` hold the chosen detector to it.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Callable
from dataclasses import dataclass

UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
DIGITS = string.digits
ALNUM = UPPER + LOWER + DIGITS
B64URL = ALNUM + "-_"
HEX = "0123456789abcdef"


@dataclass(frozen=True)
class Case:
    """One line of the corpus: its text, and the secret it holds (None: none) with the kind
    of marker that must replace it."""

    text: str
    kind: str | None = None
    secret: str | None = None


def _s(rnd: random.Random, alphabet: str, n: int) -> str:
    return "".join(rnd.choice(alphabet) for _ in range(n))


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


# -- secrets, by kind --------------------------------------------------------------------


def aws_access_key(rnd: random.Random) -> str:
    return "AK" + "IA" + _s(rnd, UPPER + "234567", 16)


def aws_secret_key(rnd: random.Random) -> str:
    return _s(rnd, ALNUM, 30) + "/" + _s(rnd, ALNUM + "+", 9)


def github_token(rnd: random.Random) -> str:
    if rnd.random() < 0.6:
        return "gh" + rnd.choice("pousr") + "_" + _s(rnd, ALNUM, 36)
    return "github" + "_pat_" + _s(rnd, ALNUM, 22) + "_" + _s(rnd, ALNUM, 59)


def gitlab_token(rnd: random.Random) -> str:
    return "gl" + "pat-" + _s(rnd, ALNUM + "_-", 20)


def anthropic_key(rnd: random.Random) -> str:
    return "sk-" + "ant-" + rnd.choice(["api03-", "admin01-"]) + _s(rnd, B64URL, 93) + "AA"


def openai_key(rnd: random.Random) -> str:
    if rnd.random() < 0.5:
        return "sk-" + "proj-" + _s(rnd, B64URL, 74) + "T3Blbk" + "FJ" + _s(rnd, B64URL, 74)
    return "sk-" + _s(rnd, ALNUM, 20) + "T3Blbk" + "FJ" + _s(rnd, ALNUM, 20)


def slack_token(rnd: random.Random) -> str:
    prefix = "xo" + "x" + rnd.choice("bpa") + "-"
    return prefix + _s(rnd, DIGITS, 12) + "-" + _s(rnd, DIGITS, 13) + "-" + _s(rnd, ALNUM, 24)


def telegram_bot_token(rnd: random.Random) -> str:
    return _s(rnd, DIGITS, rnd.choice([9, 10])) + ":" + "AA" + _s(rnd, ALNUM + "-_", 33)


def discord_webhook(rnd: random.Random) -> str:
    return (
        "https://" + "discord.com/api/" + "webhooks/" + _s(rnd, DIGITS, 18) + "/"
        + _s(rnd, B64URL, 68)
    )  # fmt: skip


def stripe_key(rnd: random.Random) -> str:
    return rnd.choice(["sk", "rk"]) + "_" + rnd.choice(["live", "test"]) + "_" + _s(rnd, ALNUM, 24)


def google_api_key(rnd: random.Random) -> str:
    return "AI" + "za" + "Sy" + _s(rnd, ALNUM + "-_", 33)


def npm_token(rnd: random.Random) -> str:
    return "np" + "m_" + _s(rnd, ALNUM, 36)


def pypi_token(rnd: random.Random) -> str:
    return "py" + "pi-" + "AgEIcHlwaS5vcmc" + _s(rnd, B64URL, 70)


def sendgrid_key(rnd: random.Random) -> str:
    return "S" + "G." + _s(rnd, B64URL, 22) + "." + _s(rnd, B64URL, 43)


def private_key(rnd: random.Random) -> str:
    label = rnd.choice(["RSA PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY", "PRIVATE KEY"])
    lines = [_s(rnd, ALNUM + "+/", 64) for _ in range(rnd.randint(3, 8))]
    lines.append(_s(rnd, ALNUM + "+/", rnd.randint(8, 60)) + "==")
    begin, end = "-----" + "BEGIN " + label + "-----", "-----" + "END " + label + "-----"
    return "\n".join([begin, *lines, end])


def jwt(rnd: random.Random) -> str:
    header = _b64url(json.dumps({"alg": rnd.choice(["HS256", "RS256"]), "typ": "JWT"}).encode())
    claims = {"sub": _s(rnd, DIGITS, 10), "name": rnd.choice(NAMES), "iat": 1700000000}
    payload = _b64url(json.dumps(claims).encode())
    return f"{header}.{payload}.{_s(rnd, B64URL, 43)}"


def db_password(rnd: random.Random) -> str:
    return _s(rnd, LOWER, 4) + _s(rnd, DIGITS, 3) + rnd.choice("!%*_") + _s(rnd, ALNUM, 5)


def password(rnd: random.Random) -> str:
    return (
        rnd.choice(["Tr", "Qz", "mP", "xK"])
        + _s(rnd, ALNUM, 6)
        + rnd.choice("!#&*$")
        + _s(rnd, DIGITS, 2)
    )


def api_key(rnd: random.Random) -> str:
    return _s(rnd, HEX, 32) if rnd.random() < 0.5 else _s(rnd, ALNUM, 32)


def bearer_token(rnd: random.Random) -> str:
    return _s(rnd, B64URL, 40)


NAMES = ["Ana", "Kenji", "Priya", "Lucía", "Tomasz", "Zoë", "Omar", "Mei"]


def _luhn_digit(body: str) -> str:
    """The check digit that makes `body` + it a valid card number."""
    total = 0
    for i, c in enumerate(reversed(body)):
        d = int(c)
        if i % 2 == 0:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return str(-total % 10)


def payment_card(rnd: random.Random) -> str:
    """A made-up number with a network's prefix and a valid check digit, grouped as a card."""
    prefix, length = rnd.choice([("4", 16), ("51", 16), ("2720", 16), ("37", 15), ("6011", 16)])
    body = prefix + _s(rnd, DIGITS, length - len(prefix) - 1)
    number = body + _luhn_digit(body)
    if length == 15:
        return f"{number[:4]} {number[4:10]} {number[10:]}"
    sep = rnd.choice([" ", "-", ""])
    return sep.join(number[i : i + 4] for i in range(0, 16, 4))


def security_code(rnd: random.Random) -> str:
    return _s(rnd, DIGITS, rnd.choice([3, 4]))


def social_security_number(rnd: random.Random) -> str:
    sep = rnd.choice(["-", " ", ""])
    return f"{rnd.randint(100, 665)}{sep}{_s(rnd, DIGITS, 2)}{sep}{_s(rnd, DIGITS, 4)}"


def national_id_number(rnd: random.Random) -> str:
    """A UK National Insurance number, a Canadian social insurance number or a passport's."""
    kind = rnd.choice(["nino", "sin", "passport"])
    if kind == "nino":
        sep = rnd.choice([" ", ""])
        pairs = sep.join(_s(rnd, DIGITS, 2) for _ in range(3))
        return f"{_s(rnd, 'ABCEGHJKLMNPRSTWXYZ', 2)}{sep}{pairs}{sep}{rnd.choice('ABCD')}"
    if kind == "sin":
        sep = rnd.choice([" ", "-", ""])
        return sep.join(_s(rnd, DIGITS, 3) for _ in range(3))
    return rnd.choice(["", _s(rnd, "ABCDEFGHJKLMNPRSTUVWXYZ", 1)]) + _s(rnd, DIGITS, 8)


HOSTS = ["db.internal", "10.0.3.12", "pg-prod.example.net", "replica-2.corp.local"]

#: kind -> (make a secret, sentences it is pasted in; `{s}` is the secret)
KINDS: dict[str, tuple[Callable[[random.Random], str], list[str]]] = {
    "aws-access-key": (
        aws_access_key,
        [
            "the access key for the backup bucket is {s}",
            "export AWS_ACCESS_KEY_ID={s}",
            "I rotated it, new one: {s}.",
            "aws_access_key_id = {s}",
        ],
    ),
    "aws-secret-key": (
        aws_secret_key,
        [
            "aws_secret_access_key = {s}",
            "export AWS_SECRET_ACCESS_KEY={s}",
            "the secret access key is {s}",
        ],
    ),
    "github-token": (
        github_token,
        [
            "my GitHub token {s} expires next month",
            "use {s} for the CI bot",
            "GITHUB_TOKEN={s}",
            "token: {s}",
        ],
    ),
    "gitlab-token": (gitlab_token, ["gitlab token {s} works", "CI_TOKEN={s}"]),
    "anthropic-key": (
        anthropic_key,
        [
            "the staging key is {s}",
            "ANTHROPIC_API_KEY={s}",
            "here you go: {s}",
        ],
    ),
    "openai-key": (openai_key, ["OPENAI_API_KEY={s}", "the openai key {s} is for the demo"]),
    "slack-token": (slack_token, ["slack bot {s}", "SLACK_BOT_TOKEN={s}"]),
    "telegram-bot-token": (
        telegram_bot_token,
        ['bot = telebot.TeleBot("{s}")', "the reminders bot is {s}", '"bot": "{s}"'],
    ),
    "discord-webhook": (
        discord_webhook,
        ["post the alerts to {s}", "DISCORD_WEBHOOK_URL={s}", "the server's webhook is {s} btw"],
    ),
    "stripe-key": (stripe_key, ["stripe: {s}", "the payments key is {s}, keep it safe"]),
    "google-api-key": (google_api_key, ["maps key {s}", "GOOGLE_API_KEY={s}"]),
    "npm-token": (npm_token, ["//registry.npmjs.org/:_authToken={s}", "npm token {s}"]),
    "pypi-token": (pypi_token, ["password = {s}", "the upload token is {s}"]),
    "sendgrid-key": (sendgrid_key, ["SENDGRID_API_KEY={s}", "mail key {s}"]),
    "private-key": (
        private_key,
        [
            "here is the deploy key:\n{s}\nput it on the bastion",
            "{s}",
        ],
    ),
    "jwt": (
        jwt,
        [
            "the session cookie was {s}",
            "Authorization: Bearer {s}",
            "decode this for me: {s}",
        ],
    ),
    "database-url-password": (
        db_password,
        [
            "db url postgres://admin:{s}@{host}:5432/app",
            "DATABASE_URL=postgresql://app_user:{s}@{host}/orders",
            "connect with mysql://root:{s}@{host}:3306/shop",
            "the cache is redis://:{s}@{host}:6379/0",
            "mongodb+srv://svc:{s}@cluster0.{host}/prod?retryWrites=true",
        ],
    ),
    "password": (
        password,
        [
            "password: {s}",
            "DB_PASSWORD={s}",
            "the wifi password is {s}",
            "my password for the reporting replica is {s}, it's in the vault too",
            'config: {{"user": "ops", "password": "{s}"}}',
            "pwd={s}",
        ],
    ),
    "api-key": (
        api_key,
        [
            "api_key={s}",
            "API_KEY: {s}",
            "x-api-key: {s}",
            "client_secret = '{s}'",
            "the api key for the weather service is {s}",
        ],
    ),
    "payment-card": (
        payment_card,
        [
            "my card is {s}, expires 09/31",
            "use the Visa {s} for the hotel",
            "card number: {s}",
            "pay with the company credit card ({s}) please",
            "numéro de carte {s}",
        ],
    ),
    "card-security-code": (
        security_code,
        [
            "the CVV is {s}",
            "CVC: {s}",
            "security code {s} on the back",
        ],
    ),
    "social-security-number": (
        social_security_number,
        [
            "my SSN is {s}",
            "Social Security number: {s}",
        ],
    ),
    "national-id-number": (
        national_id_number,
        [
            "my national insurance number is {s}",
            "NI number: {s}",
            "passport number {s}, expires 2031",
            "SIN {s}",
        ],
    ),
    "bearer-token": (
        bearer_token,
        [
            "Authorization: Bearer {s}",
            "curl -H 'Authorization: Bearer {s}' https://api.example.com",
        ],
    ),
}


def secrets(seed: int = 7, per_template: int = 3) -> list[Case]:
    """Every kind in every one of its sentences, `per_template` times with fresh values."""
    rnd = random.Random(seed)
    out: list[Case] = []
    for kind, (make, templates) in KINDS.items():
        for template in templates:
            for _ in range(per_template):
                value = make(rnd)
                text = template.replace("{host}", rnd.choice(HOSTS)).replace("{s}", value)
                text = text.replace("{{", "{").replace("}}", "}")
                out.append(Case(text, kind, value))
    return out


# -- ordinary prose ----------------------------------------------------------------------

PROSE = [
    "Reset your password from the settings page if you forget it.",
    "The password is in the vault; ask Ana if you need it.",
    "The token expired yesterday, so the nightly job failed.",
    "The API key for staging lives in 1Password under 'Staging'.",
    "We rotated the secret key last week after the audit.",
    "Call me at 10:30 on December 4, or after lunch.",
    "I prefer green tea in the morning and coffee after lunch.",
    "Priya moved the standup to 9:30 because of the school run.",
    "Our on-call rotation starts Monday; Kenji takes the first week.",
    "Remember that Maya's birthday is 2026-03-14.",
    "The migration to PostgreSQL 16 is planned for the second sprint.",
    "Use the access token from the environment, never hard-code it.",
    "Password rules: at least twelve characters, no reuse of the last five.",
    "The private key never leaves the hardware token.",
    "She said the secret ingredient is smoked paprika.",
    "Kenji handles the frontend and Omar the billing service.",
    "The JWT library was upgraded to fix the clock-skew bug.",
    "Set the database URL in the config file, not in the code.",
    "We keep every credential in the team vault, nowhere else.",
    "def get_token(self): return self._token",
    "const apiKey = process.env.API_KEY;",
    "password = getpass.getpass('Password: ')",
    "if password_hash == stored_hash: login(user)",
    "The key insight was that the cache was keyed on the raw bytes.",
    "Token budget: compress at 80% of the limit and keep the last 10 entries.",
    "My PIN reminder: the card is in the blue wallet.",
    "The bearer of this letter is my colleague Tomasz.",
    "Lucía booked the table at Olive & Fig for Friday at 8.",
    "Deploy window is 02:00-04:00 UTC; freeze starts 2026-12-20.",
    "The keyboard shortcut is Ctrl+Shift+P, then type 'reload'.",
    "Apollo's API review moved to next Tuesday because Zoë is out.",
    "Her phone number is +49 30 1234567 and her email is mei@example.com.",
    "The flight is LH 1234, seat 14C, gate B22.",
    "Version 2.14.3 fixed the regression introduced in 2.14.0.",
    "Run `pip install -e '.[dev]'` and then `make test`.",
    "The secret to good sourdough is a long, cold proof.",
    "Pass the salt, please, and the pepper too.",
    "The passcode screen appears after five minutes idle.",
    "Our SSO provider issues tokens that last one hour.",
    "Keys to the office are with reception until Monday.",
    "The card ending 4242 was declined at the till.",
    "Order 4111111111111111 shipped with the invoice attached.",
    "Tracking: 9400 1000 0000 0000 0000 00, due Thursday.",
    "The gift card balance is 25.50 and the loyalty card has 1200 points.",
    "Card 4 of 16: 1234 5678 9012 3456 is the sample number on the slide.",
    "Her security code review is on Friday, section 3.",
    "The SSN field in the form is optional.",
]


def _uuid(rnd: random.Random) -> str:
    h = _s(rnd, HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


ID_LINES: list[Callable[[random.Random], str]] = [
    lambda r: f"Merged commit {_s(r, HEX, 40)} into main after review.",
    lambda r: f"commit {_s(r, HEX, 40)}\nAuthor: Ana <ana@example.com>",
    lambda r: f"Reverted {_s(r, HEX, 7)}; the fix is in {_s(r, HEX, 12)}.",
    lambda r: f"The image digest is sha256:{_s(r, HEX, 64)}.",
    lambda r: f"sha256sum says {_s(r, HEX, 64)}  release.tar.gz",
    lambda r: f"Request id {_uuid(r)} failed with a 502 at 10:42.",
    lambda r: f"trace_id={_s(r, HEX, 32)} span_id={_s(r, HEX, 16)}",
    lambda r: f"Order {_uuid(r).upper()} shipped; tracking number 1Z{_s(r, UPPER + DIGITS, 16)}.",
    lambda r: (
        "Here is the logo: data:image/png;base64," + base64.b64encode(r.randbytes(90)).decode()
    ),
    lambda r: f'<img src="data:image/gif;base64,{base64.b64encode(r.randbytes(60)).decode()}">',
    lambda r: (
        f"See https://example.com/search?q=release+notes&session={_s(r, HEX, 24)}"
        f"&utm_source=newsletter&ref={_s(r, B64URL, 22)}"
    ),
    lambda r: f"https://docs.google.com/document/d/{_s(r, B64URL, 44)}/edit?usp=sharing",
    lambda r: f"https://github.com/acme/app/pull/{r.randint(100, 9999)}/commits/{_s(r, HEX, 40)}",
    lambda r: f"Artifact at s3://builds/releases/{_s(r, HEX, 16)}/app-{_s(r, DIGITS, 4)}.tar.gz",
    lambda r: f'ETag: "{_s(r, HEX, 32)}"',
    lambda r: f"The pod web-{_s(r, HEX, 9)}-{_s(r, LOWER + DIGITS, 5)} restarted twice.",
    lambda r: f"Colour #{_s(r, HEX, 6)} for the header, #{_s(r, HEX, 6)} for links.",
    lambda r: f"Build {r.randint(1000, 99999)} ({_s(r, HEX, 8)}) passed in {r.randint(2, 59)} min.",
    lambda r: f"The YouTube link is https://youtu.be/{_s(r, B64URL, 11)}?t={r.randint(1, 900)}",
    lambda r: (
        f"Slack thread: https://acme.slack.com/archives/C{_s(r, UPPER + DIGITS, 8)}"
        f"/p{_s(r, DIGITS, 16)}"
    ),
    lambda r: f"Message-ID: <{_s(r, HEX, 20)}@mail.example.com>",
    lambda r: f"node_modules/.cache/{_s(r, HEX, 40)}.json is 2 MB",
    lambda r: f"The base64 of the config is {base64.b64encode(r.randbytes(30)).decode()}",
    lambda r: (
        f"IPv6 2001:db8:{_s(r, HEX, 4)}:{_s(r, HEX, 4)}::1, MAC "
        + ":".join(_s(r, HEX, 2) for _ in range(6))
    ),
    lambda r: f"Invoice INV-{_s(r, DIGITS, 8)} for EUR {r.randint(10, 999)}.{_s(r, DIGITS, 2)}",
    lambda r: f"Your verification link: https://app.example.com/verify/{_uuid(r)}",
    lambda r: f"git checkout -b fix/{_s(r, LOWER, 6)}-{_s(r, HEX, 6)}",
    lambda r: f"Docker image acme/api@sha256:{_s(r, HEX, 64)} is the one in prod.",
    lambda r: f"The Figma file key is {_s(r, ALNUM, 22)}, page 3.",
    lambda r: f"Calendar event id {_s(r, LOWER + DIGITS, 26)} moved to Thursday.",
]


def prose(seed: int = 11, n: int = 360) -> list[Case]:
    """`n` lines without a secret: the sentences above, and lines full of random-looking ids."""
    rnd = random.Random(seed)
    out = [Case(t) for t in PROSE]
    while len(out) < n:
        out.append(Case(rnd.choice(ID_LINES)(rnd)))
    return out


def corpus() -> list[Case]:
    """The whole labelled corpus: every secret case, then the prose."""
    return secrets() + prose()


# -- held out ----------------------------------------------------------------------------

#: Sentences written after the patterns were tuned on those above, and never tuned on:
#: what `bench/secret_detection.py` reports as held out. Some forms here are known misses.
HELD_OUT: list[tuple[str, str]] = [
    ("github-token", "Here's my token, don't share it: {s}"),
    ("anthropic-key", "put `{s}` in your .env"),
    ("google-api-key", "https://maps.googleapis.com/maps/api/js?key={s}&callback=init"),
    ("private-key", "ssh key below\n\n{s}\n\nthanks!"),
    ("jwt", "JWT: {s}"),
    ("aws-access-key", "AWS creds for the sandbox account: {s}"),
    ("slack-token", "the bot user token ({s}) was revoked"),
    ("stripe-key", 'STRIPE_SECRET_KEY="{s}"'),
    ("database-url-password", "amqp://guest:{s}@rabbit.internal:5672/"),
    ("database-url-password", "jdbc:postgresql://db:5432/app?user=app&password={s}"),
    ("password", "the root password for the NAS is {s}"),
    ("password", "PGPASSWORD={s} psql -h db -U app"),
    ("password", "login: ops / {s}"),
    ("password", "mysql -u root -p{s} shop"),
    ("password", "Passwort: {s}"),
    ("api-key", "set the header X-Api-Key to {s} for every call"),
    ("api-key", "secret={s}"),
]


def held_out(seed: int = 23, per_template: int = 3) -> list[Case]:
    """The held-out secret cases (see `HELD_OUT`)."""
    rnd = random.Random(seed)
    out: list[Case] = []
    for kind, template in HELD_OUT:
        make = KINDS[kind][0]
        for _ in range(per_template):
            value = make(rnd)
            out.append(Case(template.replace("{s}", value), kind, value))
    return out


def transcript_lines(folder: str) -> list[Case]:
    """Every non-empty line of the fixture transcripts in `folder`: ordinary conversation,
    none of it tuned on. Lines the fixtures meant as secrets are left out."""
    from pathlib import Path

    out = []
    for path in sorted(Path(folder).glob("*.md")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and "password is" not in line:
                out.append(Case(line))
    return out
