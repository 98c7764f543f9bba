"""Secrets in text: API keys, tokens, passwords and private keys, found so they are never stored.

Everything doctree stores passes through here first, whoever sends it: session history
(`SessionsRepository.append_history`), the recall record (`RecallIndex.add`), document
bodies, titles and paths (`Writes`), and the error texts of runs and sessions. Each secret is
replaced by a typed marker, `[secret: aws-access-key]`, before anything is written, so no
table, index, WAL frame or free page ever holds one. A path segment holding a secret is
refused (`path_secret`): a path is an address a caller uses again, and a silent rename could
make two pages collide.

A pure function of the text: regular expressions, no network, no state. The patterns are
written out here rather than taken from a scanning library; `bench/secret_detection.py` measures them
against detect-secrets on a labelled corpus (see docs/secrets.md for the figures): the
library's entropy plugins flag commit hashes, digests and base64 images in prose, and its
pattern plugins miss most secrets pasted in sentences ("my password is ...").

    find_secrets(text)   -> [Secret(kind, start, end), ...]
    mask(text)         -> (text with each secret replaced by its marker, [Secret, ...])
    mask_value(value)  -> a JSON-like value with every string in it masked
    contains_secret(text), marker(kind), markers(text), path_secret(path)
"""

from __future__ import annotations

import base64
import math
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from ahocorasick_rs import AhoCorasick

from doctree.words import is_word

__all__ = [
    "KINDS",
    "Secret",
    "contains_secret",
    "find_secrets",
    "marker",
    "markers",
    "path_secret",
    "mask",
    "mask_text",
    "asks_for_secret",
    "mask_answer",
    "mask_value",
    "quoted_printable",
    "slug",
]


@dataclass(frozen=True)
class Secret:
    """One secret found in a text: its kind (`aws-access-key`, `password`, ...) and its span."""

    kind: str
    start: int
    end: int

    @property
    def label(self) -> str:
        """The kind in words, for people: 'AWS access key'."""
        return KINDS.get(self.kind, self.kind.replace("-", " "))


#: Every kind of secret found, and how it reads in a sentence.
KINDS: dict[str, str] = {
    "private-key": "private key",
    "anthropic-key": "Anthropic API key",
    "openai-key": "OpenAI API key",
    "stripe-key": "Stripe key",
    "aws-access-key": "AWS access key",
    "aws-secret-key": "AWS secret access key",
    "github-token": "GitHub token",
    "gitlab-token": "GitLab token",
    "slack-token": "Slack token",
    "slack-webhook": "Slack webhook",
    "discord-webhook": "Discord webhook",
    "telegram-bot-token": "Telegram bot token",
    "google-api-key": "Google API key",
    "npm-token": "npm token",
    "pypi-token": "PyPI token",
    "sendgrid-key": "SendGrid key",
    "twilio-key": "Twilio key",
    "jwt": "JSON web token",
    "database-url-password": "password in a URL",
    "bearer-token": "bearer token",
    "password": "password",
    "passphrase": "pass phrase",
    "pin": "PIN",
    "recovery-phrase": "recovery phrase",
    "bank-account": "bank account number",
    "api-key": "API key",
    "payment-card": "payment card number",
    "card-security-code": "card security code",
    "social-security-number": "social security number",
    "national-id-number": "national identity number",
    "memorable-word": "memorable word",
    "one-time-code": "one-time code",
    "recovery-code": "recovery code",
    "link-token": "token in a link",
}

# Values after a keyword ("password: ...") are judged by `_looks_random`; these kinds are.
_JUDGED = {"password", "api-key", "bearer-token"}
_SEP = (
    # an arrow or a dash between the word and its value: "API key → …", "password -> …"
    r"(?:\s*(?:->|=>|-->|→|⇒|⟶|➜|➔)\s*|\s+[-–—]{1,2}\s+"
    r"|[\"']?\s*[:=]\s*|\s+(?:is|was)\s*[:=]\s*|\s+(?:is|was|=|:)\s+(?:now\s+)?"
    # a card's question and its answer in the next field: "The guest wifi password?<TAB>…"
    r"|['’]s\s+(?:now\s+)?|\s+(?:est|es|ist|är|é|era|war|jest)\s+|\?[ ]*\t\s*"
    r"|\s+)"
)
_FOR = (
    r"(?:\s+(?:for|of|to|on|at|in|by|beside|behind|outside|inside|under|near|next\s+to|"
    # the same said in the languages a conversation most often mixes in: "die PIN meiner
    # Bankkarte ist …", "le mot de passe du routeur est …", "il PIN della carta è …"
    r"meiner|meines|meinem|für|von|der|des|du|della|del|dela|do|da)"
    r"(?:\s+[^\s:=]+){1,3}?"
    # or an aside in brackets: "Gate keypad (out of hours only): 4471#"
    r"|\s*\([^()\n]{1,40}\))?"
)
#: What asks for a security answer, said with it: "for the bank", "on my Halifax account",
#: "for the bank's security questions".
_ASKED_BY = (
    r",?\s+(?:for|on|at|with)\s+(?:the\s+|my\s+|our\s+)?(?:[\w-]+\s+)?"
    r"(?:bank|account|security|log-?\s?in|card|verification|building\s+society|"
    r"password\s+reset)(?:['’]s)?\b(?:\s+(?:security\s+)?(?:questions?|checks?|app|login))?"
)
#: A short value given outright after its word ("is", ":" or "="), closing its clause: the
#: end of a line, a sentence after it, a dash or bracket, or a word that joins a clause.
_GIVEN_SHORT = (
    r"(?:\s*[:=]\s*|\s+(?:is|was)\s*[:=]?\s*(?:now\s+)?)"
    r"[\"'`]?(?P<value>(?P<short>[^\s\"'`]{1,5}?))[\"'`]?"
    r"(?=[.!?,;)]*(?:[ \t]*(?:\n|$)|\s+(?-i:[A-Z(])|\s+[\-–—]|\s+(?:and|but|if|so|or|"
    r"btw|thanks|please)\b)|[,;)]\s)"
)
#: Markup a value may be wrapped in where it is given: "code is **7731**", "<b>6042</b>",
#: "`4410`" (the opener only: the value's own end is a word boundary).
_MARKUP_OPEN = r"(?:\*{1,2}|`|<(?:b|strong|em|i|u|code|mark|span|kbd|tt)(?:\s[^<>]{0,80})?>){0,2}"
#: "Password" in the languages people most often mix into a conversation, and their "is".
_PASSWORD_ABROAD = (
    r"mot\s+de\s+passe|contrase[ñn]a|passwort|kennwort|wachtwoord|senha|has[łl]o|"
    r"l[öo]senord|salasana|adgangskode"
)
_IS_ABROAD = r"est|es|ist|är|é|era|war|jest|er|on"
_DIGIT_WORD = r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)"
#: A PIN's digits: together ("4419"), one by one ("4 4 1 9", "1-9-8-4"), in pairs as a
#: combination is read ("12-34-56"), or said in words ("four four one nine").
_PIN_VALUE = (
    # a keypad's key with the digits first, so that it is masked with them: "4471#"
    r"(?P<value>\d{4,8}[#*](?![\w#*])|\d{4,10}\b(?![.,/:-]\d)|\d(?:[ -]\d){3,9}(?![ -]?\d)"
    # a keypad's letter with the digits: "C5829"
    r"|[A-Za-z]\d{4,8}(?![\w.,/:-])"
    r"|\d{2}(?:[ -]\d{2}){1,4}(?![ -]?\d)|"
    + _DIGIT_WORD
    + r"(?:[ ,-]+"
    + _DIGIT_WORD
    + r"){3,9}\b)"
)
#: A lock, a key, a key box, a door or a gate in the languages of `_PASSWORD_ABROAD`.
_LOCK_ABROAD = (
    r"(?:chiav[ei]|cassett[ae]|lucchett[oi]|cancell[oi]|portone|porta|serratura|allarme|"
    r"llaves?|cerradura|candado|caja|puerta|port[oó]n|alarma|cl[eé]s?|clef|bo[iî]te|porte|"
    r"portail|serrure|cadenas|alarme|schl[üu]ssel\w*|schloss|kasten|t[üu]r|tor|alarmanlage|"
    r"klucz\w*|skrytk\w*|drzwi|bram\w*|zamek|chaves?|fechadura|cadeado|port[aã]o|cofre|"
    r"sleutel\w*|slot|deur|poort|kluis)"
)
#: "is" before a code in those languages, or a colon.
_IS_CODE_ABROAD = r"(?:\s*[:=]\s*|\s+(?:è|e|es|est|ist|é|jest|to|is|era|war)\s*:?\s*)"
#: What a code opens: "the gate code", "the code for the back door", "the key safe".
_LOCK = (
    r"(?:door|gate|alarm|entry|access|garage|lock|locker|safe|building|lock\s*box|key\s*safe|keypad|"
    r"key\s*box|padlock|shed|storeroom|store\s+room)"
)

#: A code sent to sign in, by a name only it has ("one-time code", "OTP", "verification code")
#: and by a name other codes share ("login code"), which needs its sending said (`_SENT`).
_OTP = (
    r"(?:one[- ]time\s+(?:pass(?:word|code)|code|pin)|otp|(?:verification|2fa|two[- ]factor"
    r"|mfa)\s+code)"
)
_SIGN_IN_CODE = r"(?:log[- ]?in|sign[- ]?in|auth(?:entication)?|security|access)\s+code"
_SENT = r"(?:text(?:ed)?|sms|sent|e-?mailed)"
_GAP = r"[^.!?\n\d]{0,40}?"
#: Four to eight digits, or two groups of three or four: "4821", "583912", "583 912".
_CODE_DIGITS = r"(?<![\d.,:/-])(?:\d{3,4}[ -]\d{3,4}|\d{4,8})(?![\d.,:/-]?\d)"
#: One recovery code: groups of 4 to 6 letters and digits (a digit among them), hyphenated.
_RECOVERY_CODE = (
    r"(?:\d{7,10}|(?=[A-Za-z0-9-]*\d)[A-Za-z0-9]{4,6}(?:-[A-Za-z0-9]{4,6}){0,3})(?![\w-])"
)

#: A bank's sort code with its number, and an account's number with its word.
_SORT_CODE = r"sort\s*code\s*[:=]?\s*(?:is\s+)?\d{2}[- ]?\d{2}[- ]?\d{2}\b"
_ACCOUNT = r"(?:acc(?:oun)?t?|a/c)\.?(?:\s+(?:no\.?|number|#))?\s*[:=]?\s*(?:is\s+)?\d{6,10}\b"


@cache
def _patterns() -> list[tuple[str, re.Pattern[str]]]:
    """(kind, pattern); the group named `value` is the secret when present, else the whole
    match. Earlier patterns win where two overlap, so the specific ones come first. Compiled
    on first use: importing the store (`doctree read`) compiles none of them."""
    return [
        (
            "private-key",
            re.compile(
                r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
                r"(?:.*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|.*)",
                re.S,
            ),
        ),
        (
            "private-key",
            # the end of a key whose first lines were said apart (a paste split in lines):
            # its last lines of base64 and its END line
            re.compile(
                r"(?<![A-Za-z0-9+/=])(?>[A-Za-z0-9+/=]{16,}\s+)*"
                r"-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
            ),
        ),
        ("anthropic-key", re.compile(r"sk-ant-(?<!\wsk-ant-)[A-Za-z0-9_-]{16,}")),
        (
            "openai-key",
            re.compile(
                r"sk-(?<!\wsk-)(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9_-]{8,}T3BlbkFJ[A-Za-z0-9_-]{8,})"
            ),
        ),
        ("api-key", re.compile(r"sk-(?<!\wsk-)[A-Za-z0-9_-]{20,}")),
        ("stripe-key", re.compile(r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}")),
        # a webhook's signing secret, whatever the setting holding it is named
        ("stripe-key", re.compile(r"\bwhsec_[A-Za-z0-9+/]{24,}")),
        # an age encryption tool's secret key, and a PuTTY key file's private lines
        ("private-key", re.compile(r"\bAGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}\b")),
        (
            "private-key",
            re.compile(
                r"\bPrivate-Lines:[ \t]*\d+[ \t]*\r?\n(?P<value>(?:[ \t]*[A-Za-z0-9+/=]{8,}[ \t]*(?:\r?\n|$))+)"
            ),
        ),
        ("aws-access-key", re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[A-Z0-9]{16}\b")),
        (
            "aws-secret-key",
            re.compile(
                r"(?<![A-Za-z])(?:aws[ _-]?)?secret[ _-]?access[ _-]?key"
                + _SEP
                + r"[\"'`]?(?P<value>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])",
                re.I,
            ),
        ),
        (
            "github-token",
            re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})"),
        ),
        ("gitlab-token", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}")),
        ("slack-token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
        ("slack-webhook", re.compile(r"https://hooks\.slack\.com/services/[A-Za-z0-9/_-]+")),
        (
            # the token after a Discord webhook's id lets anyone post as it
            "discord-webhook",
            re.compile(
                r"https://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api/webhooks/\d{15,22}/"
                r"[A-Za-z0-9_-]{40,100}"
            ),
        ),
        # a Telegram bot's token: the bot's number, a colon, then "AA" and 33 more
        ("telegram-bot-token", re.compile(r"(?<![\w:])\d{8,10}:AA[A-Za-z0-9_-]{33}(?![\w-])")),
        ("google-api-key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}")),
        ("npm-token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b")),
        ("pypi-token", re.compile(r"\bpypi-[A-Za-z0-9_-]{50,}")),
        ("sendgrid-key", re.compile(r"\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}")),
        ("twilio-key", re.compile(r"SK(?<!\wSK)[0-9a-fA-F]{32}\b")),
        (
            "jwt",
            re.compile(r"eyJ(?<!\weyJ)[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
        ),
        (
            "database-url-password",
            re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s:/@]*:(?P<value>[^\s/@]{3,})@[^\s]+", re.I),
        ),
        (
            # a PostgreSQL password file's line: "host:port:database:user:password", the host
            # a name with a dot, "localhost" or "*" (not a time or a MAC address, no dot), the
            # password with a digit or a sign (not a log line's last word)
            "database-url-password",
            re.compile(
                r"(?<![\w.:/@-])(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+|localhost|\*):(?:\d{1,5}|\*):"
                r"[\w.*-]+:[\w.@*-]+:(?P<value>(?=[^\s:]*[^\s:A-Za-z])[^\s:]{3,})(?=\s|$)"
            ),
        ),
        ("bearer-token", re.compile(r"\b[Bb]earer\s+(?P<value>[A-Za-z0-9._~+/=-]{16,})")),
        (
            # a login given to curl as a pair: "curl -u ops:Tr1cky https://…" (not a shell
            # variable or a placeholder in angle brackets: "-u $USER:$TOKEN")
            "password",
            re.compile(
                r"\bcurl\b[^\n]*?\s(?:-u|--user)(?:\s+|=)[\"']?[^\s:\"']{1,64}:"
                r"(?P<value>(?P<given>(?![$<{%])[^\s\"']{1,128}))[\"']?(?=\s|$)"
            ),
        ),
        (
            # HTTP basic authentication: a login and its password, in base64 after "Basic"
            # (`_judged` decodes it: a pair of printable text with a colon between)
            "password",
            re.compile(
                r"(?<![A-Za-z-])(?:proxy-)?authorization[\"']?\s*[:=]\s*[\"']?basic\s+"
                r"(?P<value>(?P<basic>[A-Za-z0-9+/]{6,}={0,2}))(?![A-Za-z0-9+/=])",
                re.I,
            ),
        ),
        (
            # a login given as a pair: "the portal login is anna.k / Xy!93kq"
            "password",
            re.compile(
                r"(?<![A-Za-z])(?:log-?\s?in|sign-?\s?in|credentials|creds|"
                r"user(?:name)?\s*(?:and|&|/)\s*pass(?:word)?s?)(?![A-Za-z])"
                + _FOR
                + r"(?:[\"']?\s*[:=]\s*|\s+(?:is|are|was|were)\s+(?:now\s+)?|\s+)"
                + r"[\"'`]?[^\s/\"'`]{2,64}?[\"'`]?\s*(?:/|:|,|and)\s*"
                r"[\"'`]?(?P<value>(?=[^\s\"'`]*(?:[\d_]|[^\w\s]))[^\s\"'`]{6,}?)[\"'`]?"
                r"(?=[\s,;}]|[.!?](?:\s|$)|$)",
                re.I,
            ),
        ),
        (
            "password",
            re.compile(
                r"(?<![A-Za-z])(?:password|passwd|passphrase|pass ?code|pwd|pw|"
                # "admin pass = …", "the wifi key: …", "WPA2 key …"
                r"(?:admin|root|user|login|account|portal|e-?mail|wi-?fi|router|network)\s+"
                r"pass(?=\s*[:=])|(?:wi-?fi|wpa2?|wlan|network|router)\s+key|"
                + _PASSWORD_ABROAD
                + r"|"
                # "pin" is a verb too ("pin urllib3>=2,<3"): a PIN only with "is", ":" or "="
                r"pin(?=\s*[:=]|\s+(?:is|was|for|of|to|on|at|in)\b))(?![A-Za-z])"
                + _FOR
                + _SEP
                + r"[\"'`]?(?P<value>(?=[^\s\"'`]*(?:[\d_]|[^\w\s]))[^\s\"'`]{6,}?)[\"'`]?"
                r"(?=[\s,;}]|[.!?](?:\s|$)|$)",
                re.I,
            ),
        ),
        (
            # a password of lower-case letters only, given alone after its keyword and a
            # colon or "is": "pw: kettlepond", "the passcode is greenfrog". A word of the
            # dictionary is what the password is said to be, not it ("password: required",
            # "the password is incorrect"), and so are several words ("password: the usual
            # one"): the group `coined` is judged by `_coined`
            "password",
            re.compile(
                # English words only: the dictionary that judges the value is English ("das
                # Passwort ist vergessen" says what happened to it)
                r"(?<![A-Za-z])(?:password|passwd|passphrase|pass ?code|pwd|pw)(?![A-Za-z])"
                r"(?:\s*[:=]\s*|\s+(?:is|was)\s*[:=]?\s*(?:now\s+)?)"
                # (in capitals too, as a sentence written in capitals gives it: "THE WIFI
                # PASSWORD IS OTTERSLIDE")
                r"[\"'`]?(?P<value>(?P<coined>(?-i:[a-z]{6,32}|[A-Z]{6,32})))[\"'`]?"
                r"(?=[.!?,;:)]*(?:[ \t]*(?:\n|$)|\s+[(\-–—]|\s+(?:and|but|if|so|or|for|on|to|"
                r"btw|thanks|please)\b)|[,;)]\s)",
                re.I,
            ),
        ),
        (
            # a password said to be another's, then given: "my email password is the same
            # as the bank one: lanternfish" (what follows the colon or dash, ending the
            # sentence, is the password, a word of the dictionary too)
            "password",
            re.compile(
                r"(?<![A-Za-z])(?:password|passwd|passphrase|pwd|pw)(?![A-Za-z])"
                r"[^.!?\n:]{0,40}?\b(?:the\s+)?(?:same|identical)\s+(?:as|to)\b[^.!?\n:–—]{1,40}?"
                r"(?:\s*:\s*|\s+[-–—]\s+)[\"'`]?(?P<value>(?P<given>(?!(?:yes|no|none|same|the|a|an|"
                r"it|that|this|see|unknown)\b)[^\s\"'`]{4,64}?))[\"'`]?(?=[.!?]*(?:\s*$|\s*\n))",
                re.I,
            ),
        ),
        (
            # a service's login given as a pair on its own line, the service named before it:
            # "Netflix: me@example.com / Pa55word!!", "- Spotify - anna.k / Xy93kq!" (the
            # password is judged by `_paired`: a value with letters and digits or a symbol,
            # or after an e-mail address a coined word; "Flight: BA249 / LHR-JFK" stays)
            "password",
            re.compile(
                r"^[ \t]*(?:[-*•+][ \t]+|\d{1,2}[.)][ \t]+)?(?:(?:my|our|the)[ \t]+)?"
                r"[A-Za-z][\w.&'+]*(?:[ \t][\w.&'+]+){0,2}[ \t]*(?::|[ \t][-–—])[ \t]+"
                r"(?:(?P<email>[\w.+-]+@[\w-]+(?:\.[\w-]+)+)|[\w.+-]{2,40})"
                r"[ \t]* [/|][ \t]+[\"'`]?(?P<value>(?P<paired>[^\s\"'`]{6,64}?))[\"'`]?"
                r"[.,;]?(?=[ \t]*$|[ \t]+[(\-–—])",
                re.I | re.M,
            ),
        ),
        (
            # a pass phrase given in quotes, words and spaces: "the passphrase is 'purple
            # monkey dishwasher'" (a single quoted word is judged as any value is, above)
            "passphrase",
            re.compile(
                r"(?<![A-Za-z])(?:(?P<phrase>pass\s?phrase)|password|"
                + _PASSWORD_ABROAD
                + r")(?![A-Za-z])"
                + _FOR
                + r"(?:\s*[:=]\s*|\s+(?:is|was|"
                + _IS_ABROAD
                + r")\s*[:=]?\s*(?:now\s+)?|['’]s\s+|\s+)"
                # a pass phrase's words, two or more; a password's, with a digit or three
                # words at least ("the password is 'not valid'" is what a screen said)
                + r"[\"'“‘`](?P<value>(?(phrase)|(?=(?:[^\"“”‘’`'\n]|'(?=\w))*\d|(?:(?:[^\s\"“”‘’`']|'(?=\w))+\s+){2}\w))"
                r"[^\"“”‘’`\n]{1,64}?\s[^\"“”‘’`\n]{1,64}?)[\"'”’`]",
                re.I,
            ),
        ),
        (
            "pin",
            re.compile(
                r"\b(?:pin(?:\s+code)?|passcode|"
                + _LOCK
                # "gate code", and with one word between: "garage opener code", "door keypad pin"
                + r"(?:\s+(?!(?:is|was|has|and|or|to|for|the|a|an|no|not)\b)[a-z]+)?"
                r"\s+(?:code|combination|combo|pin)|key\s*safe|lock\s*box|key\s*box|padlock|"
                r"(?:code|combination|combo)\s+(?:for|to|of|on)\s+"
                r"(?:the\s+|my\s+|our\s+|his\s+|her\s+|their\s+)?(?:\w+\s+)?"
                + _LOCK
                + r")\b"
                + _FOR
                # "PIN 5193", "door code 4471": the digits right after the word, but not after
                # a "pin" that may be the verb ("pin 2024" a version): that one needs "is"
                # ("is" said in another language too: "PIN ni 4827", "PIN ist 4827")
                + r"(?:\s*[:=]\s*|\s+(?:is|was|ni|es|est|ist|är|er|jest|je|é|è)\s*[:=]?\s*"
                r"(?:now\s+)?|['’]s\s+|(?<![Pp][Ii][Nn])\s+|(?<=(?-i:PIN))\s+)"
                + _MARKUP_OPEN
                + _PIN_VALUE,
                re.I,
            ),
        ),
        (
            "pin",
            # a code given in a sentence about a lock: "added him to the lock app with his
            # own code, 7204", "the key safe is by the back door, code 7731" (a possessive,
            # an article or a comma before "code": not "error code 5003")
            re.compile(
                r"\b(?:lock|door|gate|alarm|keypad|key\s*safe|padlock|entry|garage)"
                r"(?:[^.!?\n]{0,80}?)(?:\b(?:his|her|my|their|your|our|its|the|a|an)\s+"
                r"(?:own\s+|new\s+)?|[,;]\s*)code\s*[,:=]?\s*(?:is\s+|was\s+)?"
                + _MARKUP_OPEN
                + r"(?P<value>\d{4,10})\b",
                re.I,
            ),
        ),
        (
            "pin",
            # a PIN named, then its digits set off later in the same sentence: "I wrote the
            # card PIN on a sticky note so I wouldn't lose it, 7302, is that safe?" ("PIN" in
            # capitals or "PIN number"/"passcode", never the verb "pin"; the digits alone
            # between commas or after a colon or a dash, not a year, an amount or a time)
            re.compile(
                r"(?:(?<![A-Za-z])(?-i:PIN)(?:\s+(?:code|number))?|\bpasscode)(?![A-Za-z])"
                r"[^.!?\n]{0,90}?(?:,|:|\s[-–—])\s*"
                + _MARKUP_OPEN
                + r"(?P<value>(?!(?:19|20)\d\d\b)\d{4,8})(?=\s*(?:[,.;!?)]|$))",
                re.I,
            ),
        ),
        (
            "pin",
            # the same in the languages most often mixed into a conversation: a word of a lock,
            # a key or a key box, then its code ("le chiavi nella cassetta, il codice è 2619",
            # "Schlüssel im Kasten, der Code ist 4711", "las llaves en la caja, el código es …")
            re.compile(
                rf"\b{_LOCK_ABROAD}(?:[^.!?\n]{{0,80}}?)\b(?:codice|c[oó]digo|code|kod|pin)\b"
                rf"{_IS_CODE_ABROAD}" + _MARKUP_OPEN + r"(?P<value>\d{4,10})\b",
                re.I,
            ),
        ),
        (
            "pin",
            # "il codice della porta è 2619", "der Code für die Tür ist 4711"
            re.compile(
                r"\b(?:codice|c[oó]digo|code|kod|pin)\s+(?:della|del|di|per|de|do|da|für|zur|zum|"
                r"pour|para|du|de\s+la|do|od|der|des)\s+(?:(?:die|das|den|la|il|lo|el|le|a|o)\s+)?"
                rf"(?:\w+\s+)?{_LOCK_ABROAD}\w*{_IS_CODE_ABROAD}"
                + _MARKUP_OPEN
                + r"(?P<value>\d{4,10})\b",
                re.I,
            ),
        ),
        (
            "pin",
            # a code said to be another's, then given: "the gate code is the same as the
            # garage one: 4471"
            re.compile(
                r"\b(?:pin(?:\s+code)?|passcode|" + _LOCK + r"\s+(?:code|combination|pin))\b"
                r"[^.!?\n:]{0,40}?\b(?:the\s+)?(?:same|identical)\s+(?:as|to)\b[^.!?\n:–—]{1,40}?"
                r"(?:\s*:\s*|\s+[-–—]\s+)" + _MARKUP_OPEN + _PIN_VALUE,
                re.I,
            ),
        ),
        (
            "bank-account",
            # an account number said with its sort code, either way round: "sort code
            # 93-11-42, acc 40718236", "account no. 40718236, sort code 931142"
            re.compile(
                rf"\b(?:{_SORT_CODE}[,;]?\s*(?:and\s+)?{_ACCOUNT}|{_ACCOUNT}[,;]?\s*(?:and\s+)?{_SORT_CODE})",
                re.I,
            ),
        ),
        (
            "bank-account",
            # an IBAN said as one: country, check digits, then the account in groups of four
            re.compile(
                r"\biban\s*[:=]?\s*(?:is\s+)?"
                r"(?P<value>[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){3,7}(?:[ ]?[A-Z0-9]{1,3})?)\b",
                re.I,
            ),
        ),
        (
            "recovery-phrase",
            # a wallet's words: "the recovery phrase is orbit canvas mule ..." (12 to 24)
            re.compile(
                r"\b(?:recovery|seed|backup|mnemonic|secret)\s+(?:phrase|words)"
                r"(?:\s*[:=]\s*|\s+(?:is|are|was|were)\s*:?\s+)"
                r"(?P<value>[a-z]{3,8}(?:[\s,]+[a-z]{3,8}){11,23})\b",
                re.I,
            ),
        ),
        (
            "api-key",
            re.compile(
                r"(?<![A-Za-z])(?:api[ _-]?key|apikey|access[ _-]?key|secret(?:[ _-]?key)?|token|"
                r"client[ _-]?secret|auth[ _-]?key|signing[ _-]?key)(?![A-Za-z])"
                + _FOR
                + _SEP
                + r"[\"'`]?(?P<value>[A-Za-z0-9][A-Za-z0-9._~+/=-]{15,})[\"'`]?",
                re.I,
            ),
        ),
        (
            # the three or four digits on a card's back: "CVV 123", "security code: 0412"
            "card-security-code",
            re.compile(
                r"(?<![A-Za-z])(?:cvv2?|cvc2?|cv2|csc|card\s+verification\s+(?:code|value)|"
                r"(?:card\s+)?security\s+code)(?![A-Za-z])"
                # "the CVV on the back is 317", "security code on the back of the card: 0412"
                r"(?:\s+on\s+the\s+back(?:\s+of\s+(?:the|my|your)\s+card)?)?"
                r"(?:\s*(?:number|no\.?|#))?(?:\s*[:=]\s*|\s+(?:is|was)\s+|\s+)"
                r"(?P<value>\d{3,4})(?!\d)",
                re.I,
            ),
        ),
        (
            # a US social security number after its name: "SSN 123-45-6789"
            "social-security-number",
            re.compile(
                r"(?<![A-Za-z])(?:ssn|social\s+security(?:\s+(?:number|no\.?|#))?)(?![A-Za-z])"
                r"(?:\s*[:=#]\s*|\s+(?:is|was)\s+|\s+)"
                r"(?P<value>\d{3}([- ]?)\d{2}\2\d{4})(?!\d)",
                re.I,
            ),
        ),
        (
            # another country's identity number after its name: a UK National Insurance
            # number ("NI number QQ 12 34 56 C"), a Canadian social insurance number ("SIN
            # 046 454 286"), a passport's number ("passport no. 533380006", "X1234567")
            "national-id-number",
            re.compile(
                r"(?<![A-Za-z])(?:national\s+insurance(?:\s+(?:number|no\.?|#))?|"
                r"(?-i:NI)\s+(?:number|no\.?|#)|nino|(?-i:SIN)|"
                r"social\s+insurance(?:\s+(?:number|no\.?|#))?|"
                r"passport(?:\s+(?:number|no\.?|#))?|"
                r"driv(?:ing|er'?s)\s+licen[cs]e(?:\s+(?:number|no\.?|#))?)(?![A-Za-z])"
                r"(?:\s*[:=#]\s*|\s+(?:is|was)\s+|\s+)"
                r"(?P<value>[A-Z]{2}\s?\d{2}\s?\d{2}\s?\d{2}(?:\s?[A-D])?(?![A-Za-z0-9])"
                r"|\d{3}(?P<sep>[- ]?)\d{3}(?P=sep)\d{3}(?![\d-])|[A-Z]{1,2}\d{6,8}(?![A-Za-z0-9])"
                r"|\d{8,9}(?![\d-])"
                # a UK driving licence: "MORGA753116SM9IJ"
                r"|(?-i:[A-Z9]{5}\d{6}[A-Z9]{2}\d[A-Z]{2})(?![A-Za-z0-9]))",
                re.I,
            ),
        ),
        (
            # a bank's memorable word: "my memorable word is Lighthouse", "memorable
            # information: SEAGULL" (a word is what it is: no randomness asked)
            "memorable-word",
            re.compile(
                r"(?<![A-Za-z])(?:memorable\s+(?:word|info(?:rmation)?|answer)|security\s+answer|"
                # "my security question answer is Biscuit"
                r"security\s+question(?:['’]s)?\s+answer|"
                # "the answer to my security question is Biscuit"
                r"answer\s+to\s+(?:my|the|your|our)\s+security\s+question|"
                # the answer a bank asks for, said with what it is for: "my mother's maiden
                # name, for the bank, is Tregarthen" (said without it, a family's name: kept)
                r"(?:(?:mother|mum|mom)['’]s\s+maiden\s+name|first\s+pet(?:['’]s\s+name)?|"
                r"first\s+school|place\s+of\s+birth|favou?rite\s+teacher)"
                rf"(?={_ASKED_BY}))(?![A-Za-z])"
                # what it is for, said between: "the security answer for the bank is Biscuit"
                rf"(?:{_ASKED_BY},?)?"
                r"(?:\s*[:=]\s*|\s+(?:is|was)\s*[:=]?\s*(?:now\s+)?|['’]s\s+|\s+)"
                # the question the answer is to, said first: "security answer: mother's maiden
                # name is Kowalczyk" (the name is the answer)
                r"(?:(?:my\s+|the\s+)?(?:mother|mum|mom)['’]s\s+maiden\s+name"
                r"(?:\s*[:=]\s*|\s+(?:is|was)\s*[:=]?\s*))?"
                r"[\"'`]?(?P<value>(?!(?:is|was|and|or|for|the|a|an|to|wrong|right|correct|"
                r"incorrect|not|never|rejected|accepted|still|different|same|case|too|my|your|"
                r"his|her|their|our|something|nothing|blank|empty|required|needed|asked)\b)"
                r"[A-Za-z0-9][^\s\"'`.,;!?]{2,40})",
                re.I,
            ),
        ),
        (
            # a code sent to sign in: "the OTP is 48 21 93", "verification code: 583912", "the
            # login code it texted me was 583 912" (a code of a kind that also names other
            # things, "login code", needs its sending said: texted, SMS, sent, e-mailed)
            "one-time-code",
            re.compile(
                rf"(?<![A-Za-z])(?:{_OTP}(?![A-Za-z]){_GAP}"
                rf"|{_SIGN_IN_CODE}(?![A-Za-z])[^.!?\n\d]{{0,40}}?\b{_SENT}\b{_GAP}"
                rf"|{_SENT}\b{_GAP}\b{_SIGN_IN_CODE}(?![A-Za-z]){_GAP})"
                rf"(?P<value>{_CODE_DIGITS})",
                re.I,
            ),
        ),
        (
            # a code said by its sending: "the code they sent is 448812", "the code the bank
            # texted me was 583 912" (the article right before "code": "the tracking code
            # they sent" names another thing)
            "one-time-code",
            re.compile(
                r"\b(?:the|a|that)\s+code\s+(?:that\s+)?(?:[\w'’-]+\s+){0,2}?(?:just\s+)?"
                rf"{_SENT}(?:\s+(?:me|us|to\s+me|over|through))?"
                r"(?:\s+(?:by|via|in\s+an?|over)\s+(?:text|sms|e-?mail|whats\s?app))?"
                r"(?:\s*[:=]\s*|\s+(?:is|was)\s*[:=]?\s*)"
                rf"(?P<value>{_CODE_DIGITS})",
                re.I,
            ),
        ),
        (
            # the same, the code first: "583912 is your verification code"
            "one-time-code",
            re.compile(
                rf"(?P<value>{_CODE_DIGITS})\s+(?:is|was)\s+(?:your|the|my)\s+{_OTP}(?![A-Za-z])",
                re.I,
            ),
        ),
        (
            # an account's codes for when its second factor is lost, listed after their name:
            # "the recovery codes:" then the codes (each with a digit), on a line or in a block
            "recovery-code",
            re.compile(
                r"\b(?:recovery|backup|back-up|2fa|two[- ]factor)\s+codes?\b[^\n.]{0,60}?"
                r"(?:\s*:|\s+(?:are|were)\s*:?)\s*(?:```[^\n]*\n\s*)?"
                rf"(?P<value>{_RECOVERY_CODE}(?:[ \t]+{_RECOVERY_CODE})*"
                rf"(?:\s*\n\s*{_RECOVERY_CODE}(?:[ \t]+{_RECOVERY_CODE})*)*)",
                re.I,
            ),
        ),
        (
            # one such code given straight after its name: "2FA backup code 493882", "my
            # recovery code is K7RQ-22LA" (a code has a digit)
            "recovery-code",
            re.compile(
                r"\b(?:recovery|backup|back-up|2fa|two[- ]factor)\s+codes?(?:\s+(?:is|are|was|were))?"
                r"\s+(?P<value>(?=[A-Za-z0-9-]*\d)(?:[A-Za-z0-9]{6,10}|[A-Za-z0-9]{4,6}"
                r"(?:-[A-Za-z0-9]{4,6}){1,3})"
                r"|\d{3}\s\d{3})(?![\w-])",
                re.I,
            ),
        ),
        (
            # "pass" for a password after the login it goes with: "the login is j.harper and
            # the pass is Tulip!Moon7" ("pass" alone is also a bus or boarding pass: only
            # after a login, user name or account in the same sentence, and its value judged)
            "password",
            re.compile(
                r"\b(?:log[- ]?in|username|user\s*name|user|sign[- ]?in|account|id)\b"
                # (a dot inside a word, as in a login name, does not end the sentence)
                r"(?:[^.!?\n]|\.(?=\S)){0,80}?"
                r"(?:\b(?:the|my|its|their|his|her|your|our|and)\s+|[,;/]\s*|\s(?=pass\s*[:=]))"
                r"pass(?![A-Za-z])(?:\s*[:=]\s*|\s+(?:is|was)\s*[:=]?\s*(?:now\s+)?)"
                r"[\"'`]?(?P<value>(?=[^\s\"'`]*(?:[\d_]|[^\w\s]))[^\s\"'`]{6,}?)[\"'`]?"
                r"(?=[\s,;}]|[.!?](?:\s|$)|$)",
                re.I,
            ),
        ),
        (
            # a password given to a database client after "-p" with no space: "mysql -u root
            # -pS3cretPass!" (with a space, "-p" asks for it: no value)
            "password",
            re.compile(
                r"\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n]*?\s"
                r"-p(?P<value>[^\s\"'`-][^\s\"'`]{3,})",
            ),
        ),
        (
            # a person's code, given as digits: "His code is 481926", "Mum's code is 1945" (a
            # door, alarm or safe's, said of whom it is; "the postcode", "his zip code", "the
            # dress code", "a discount code" name another code by a word before "code")
            "pin",
            re.compile(
                r"\b(?:his|her|their|my|your|our|(?-i:[A-Z])[a-z]+['’]s)\s+code"
                r"(?:\s*[:=]\s*|\s+(?:is|was)\s*[:=]?\s*(?:now\s+|still\s+)?)"
                + _MARKUP_OPEN
                + r"(?P<value>\d{4,8})(?![\d.,/:-]?\d|[A-Za-z])",
                re.I,
            ),
        ),
        (
            # a lock named as what a code opens, its code given as its value: "door: 4471#",
            # "the alarm is 7391", "the combination 3390", "the key safe's 8812". The lock
            # word is a label (a line's or a sentence's start) or has a determiner or a
            # possessive before it, with at most one word between ("the back gate: 1357"; not
            # "the boarding gate: 1045"); the value ends its clause (not "the gate is 1987
            # years old", "the safe is 2000 euros"). A year, a round figure and an alarm's
            # time of day are not taken (`_lock_code`)
            "pin",
            re.compile(
                r"(?:(?<![^\n])|(?<=[.!?;,(]\s)|(?<=[-*•>]\s)|\b(?:the|my|our|his|her|their|your|its|"
                r"(?-i:[A-Z])[a-z]+['’]s)\s+)(?:(?!(?:boarding|departure|arrival|airport|next|"
                r"emergency|fire|car|trap|revolving|winning|right|wrong|perfect|best|only)\b)"
                r"[a-z]+\s+){0,2}"
                r"(?P<lock>(?:door|gate|alarm|keypad|lock\s*box|key\s*safe|key\s*box|padlock|safe|"
                r"combination|combo))"
                r"(?:\s*\([^()\n]{1,40}\))?"  # an aside: "Gate keypad (out of hours only): …"
                # where the lock is, before its "is": "the side door at the hall is 4471", "the
                # gate to the yard is 1357" (not a flight's gate: "the gate for flight 12 is …",
                # nor a combination of things: "the combination of the two is 1234 points")
                r"(?:(?<!ion)(?<!mbo)\s+(?:at|of|to|on|in|into|by|behind|beside|outside|for)\s+"
                r"(?!(?:[\w'’.-]+\s+){0,3}?(?:flights?|terminal|airport|boarding|platform|"
                r"departures?)\b)(?:[\w'’.-]+\s+){0,3}?[\w'’.-]+(?=\s+(?:is|was)\s))?"
                r"(?P<is>\s*[:=]\s*|\s+(?:is|was)\s+(?:now\s+|still\s+)?|['’]s\s+(?:now\s+|still\s+)?"
                r"|(?<=ion|mbo)\s+)"
                + _MARKUP_OPEN
                # a keypad's letter with the digits: "C5829"
                + r"(?P<value>\d{4,8}[#*]?|(?-i:[A-Z])\d{4,8}|\d(?:[ -]\d){3,7}|"
                r"\d{2}(?:[ -]\d{2}){1,3}|" + _DIGIT_WORD + r"(?:[ ,-]+" + _DIGIT_WORD + r"){3,7})"
                r"(?![\w#*]|[.,/:-]?\d|[ \t]*(?:%|°|\$|€|£)|[ \t]+(?:[a-z]+[ \t]+)?(?:years?|yrs?|sq|square|"
                r"feet|ft|foot|metres?|meters?|m|cm|mm|inch(?:es)?|in|euros?|dollars?|pounds?|quid|"
                r"bucks|usd|eur|gbp|kg|kgs|kilos?|lbs?|miles?|km|people|persons|pm|am|hrs?|hours?|"
                r"minutes?|mins?|seconds?|secs?|times?|sqm|wide|tall|high|long|deep|old|units?|"
                r"pieces?|models?|series|edition|watts?|w|volts?|v|db|decibels?|rpm|psi|lumens?)\b)",
                re.I,
            ),
        ),
        (
            # a password spelled out one character at a time, as it is read aloud or typed
            # for someone to copy: "the wifi password is h u n t e r 2 7", "my password is
            # p-a-s-s-w-o-r-d-!": spelling it says it is the value, whatever it spells
            "password",
            re.compile(
                r"\b(?:password|passwd|pwd|pass\s*phrase|wi-?fi\s+key)\b"
                r"(?:\s+(?:is|was)\b|['’]s)?(?:\s*[:=])?\s*(?:now\s+)?"
                + _MARKUP_OPEN
                # one separator throughout ("a-z, 0-9" is a rule for one, not one)
                + r"(?P<value>(?P<given>[A-Za-z0-9!@#$%^&*?_+~](?P<sep>[ ]|-)[A-Za-z0-9!@#$%^&*?_+~]"
                r"(?:(?P=sep)[A-Za-z0-9!@#$%^&*?_+~]){2,40}))(?![\w@#$%^&*?_+~])",
                re.I,
            ),
        ),
        (
            # a key safe, lockbox or padlock with its code after a comma at the end of the
            # clause: "the spare key's in the lockbox, 5582"
            "pin",
            re.compile(
                r"\b(?P<lock>key\s*safe|lock\s*box|key\s*box|padlock)\b[^.!?\n\d]{0,40}?,\s*"
                + _MARKUP_OPEN
                + r"(?P<value>\d{4,8}[#*]?)(?![\w#*]|[.,/:-]?\d|[ \t]+(?!(?:and|but|if|so|then|when)\b)[a-z])",
                re.I,
            ),
        ),
        (
            # the key printed on a router's sticker, given after it: "the router sticker:
            # k7Q2-mm9X", "it's on the back of the modem, sticker says 8jR4-kP2m" (a value with
            # a digit, random enough: "the sticker says model AX55" names a model)
            "password",
            re.compile(
                r"(?<![A-Za-z])(?:(?:router|modem|hub|wi-?fi|wlan|broadband)\b[^.!?\n:]{0,40}?"
                r"\bsticker|sticker\s+on\s+(?:the\s+)?(?:(?:back|bottom|side|underside)\s+of\s+"
                r"(?:the\s+)?)?(?:router|modem|hub))(?![A-Za-z])"
                r"(?:\s*[:=]\s*|\s+(?:says|reads|shows|is)\s*:?\s*)"
                r"[\"'`]?(?P<value>(?=[^\s\"'`]*\d)[A-Za-z0-9][A-Za-z0-9!@#$%^&*_+=.-]{5,63}?)[\"'`]?"
                r"(?=[\s,;)]|[.!?](?:\s|$)|$)",
                re.I,
            ),
        ),
        (
            # a password said as words, unquoted, to the end of its sentence: "the wifi
            # password is purple otter forty two" (three words or more, none a word that
            # says something of the password: "the password is eight characters long", "is
            # on the fridge", "is case sensitive too" — `_spoken_words`)
            "passphrase",
            re.compile(
                r"(?<![A-Za-z])(?:password|passphrase|pass\s+phrase|passcode|pw|"
                r"(?:wi-?fi|wlan|network|router)\s+(?:key|pass))(?![A-Za-z])"
                r"(?:\s+for\s+(?:the\s+|my\s+|our\s+)?[\w-]+(?:\s+[\w-]+)?)?"
                r"(?:\s*[:=]\s*|\s+(?:is|was)\s*:?\s*(?:now\s+)?)"
                r"(?P<value>(?P<spoken>[a-z]+(?:[ -][a-z]+){2,7}))(?=\s*(?:[.!?,;]|$))",
                re.I,
            ),
        ),
        (
            # a wallet's words called by their count or "mnemonic": "the twelve words for my
            # wallet are …", "mnemonic: orbit canvas …" (12 to 24 words, as above)
            "recovery-phrase",
            re.compile(
                r"\b(?:(?:twelve|eighteen|twenty[- ]four|12|18|24)\s+(?:seed\s+|secret\s+|"
                r"recovery\s+|backup\s+)?words(?:\s+(?:for|of|to)\s+(?:my|the|our)\s+"
                r"(?:[\w-]+\s+){0,2}?[\w-]+)?|mnemonic)"
                r"(?:\s*[:=]\s*|\s+(?:is|are|was|were)\s*:?\s+)"
                r"(?P<value>[a-z]{3,8}(?:[\s,]+[a-z]{3,8}){11,23})\b",
                re.I,
            ),
        ),
        (
            # a PIN or a code said by how it is made from what memory may hold: "my PIN is my
            # birth year backwards", "the safe code is our anniversary" (the rule, with the
            # facts it uses, gives the code: `_derived`)
            "pin",
            re.compile(
                r"\b(?:pin(?:\s+(?:code|number))?|passcode|(?:door|gate|alarm|safe|lock|locker|"
                r"padlock|garage|phone|card)\s+(?:code|pin)|combination|combo)"
                r"(?:\s+(?:for|of|on|to)\s+(?:the\s+|my\s+|our\s+)?[\w-]+)?"
                r"\s+(?:is|was)\s+(?:just\s+|simply\s+|always\s+|still\s+)?"
                r"(?P<value>(?P<rule>(?:my|our|his|her|their)\s+[^.!?\n;]{3,60}?))"
                r"(?=\s*(?:[.!?;]|$))",
                re.I,
            ),
        ),
        (
            # the same of a password: "my laptop password is my dog's name plus 42"
            "password",
            re.compile(
                r"(?<![A-Za-z])(?:password|passwd|pwd|pw)(?![A-Za-z])"
                r"(?:\s+(?:for|of|on|to)\s+(?:the\s+|my\s+|our\s+)?[\w-]+)?"
                r"\s+(?:is|was)\s+(?:just\s+|simply\s+|always\s+|still\s+)?"
                r"(?P<value>(?P<rule>(?:my|our|his|her|their)\s+[^.!?\n;]{3,60}?))"
                r"(?=\s*(?:[.!?;]|$))",
                re.I,
            ),
        ),
        (
            # a service's key by its shape: a short name, "live", "test" or "prod", then a
            # long random part ("wx_live_4f9a8b7c…"), whatever the service
            "api-key",
            re.compile(
                r"(?<![A-Za-z0-9_])[a-z][a-z0-9]{1,11}_(?:live|test|prod|sandbox)_"
                r"(?P<value>(?P<given>[A-Za-z0-9]{16,}))(?![A-Za-z0-9])"
            ),
        ),
        (
            # a bare "key" given as a field of what it opens: "Network: Casa, key: 7b1f9c22aa",
            # "the cabin wifi is Pinewood, key is q8ZtR4mw" (a network, router, lock or safe
            # named before it in the clause; the value judged by `_keyed`: a digit in it and
            # random enough, or a made-up word, so "Safe: in the attic, key: the small one" and
            # "Locker 4, key: spare" stay)
            "password",
            re.compile(
                r"(?<![A-Za-z])(?:network|wi-?fi|wlan|ssid|router|modem|hotspot|padlock|lock|"
                r"locker|safe)(?![A-Za-z])[^.!?\n]{0,60}?(?<![A-Za-z-])key(?![A-Za-z-])"
                r"(?:\s*[:=]\s*|\s+is\s+(?:now\s+)?:?\s*)"
                + _MARKUP_OPEN
                + r"[\"'`]?(?P<value>(?P<keyed>[A-Za-z0-9][A-Za-z0-9!@#$%^&*_+=-]{3,63}?))[\"'`]?"
                r"(?=[\s,;)*`]|[.!?](?:\s|$)|$)",
                re.I,
            ),
        ),
        (
            # a bare "key:" with a value that looks generated, whatever it opens: letters and
            # digits mixed, eight or more, no word of the dictionary in them ("key:
            # 7b1f9c22aa"; not "key: Room12Annex", not "key dates: …", `_generated`). Bare:
            # a field of its own or "the key", not a compound that names an identifier ("the
            # file key is …", "primary key: …")
            "password",
            re.compile(
                r"(?:^[ \t]*(?:[-*•][ \t]+)?|[,;:(|\[]\s*|(?<![A-Za-z])(?:the|a|its|my|your|our|their|his|her)\s+)"
                r"key(?![A-Za-z-])(?:\s*[:=]\s*|\s+is\s+(?:now\s+)?:?\s*)"
                + _MARKUP_OPEN
                + r"[\"'`]?(?P<value>(?P<generated>[A-Za-z0-9][A-Za-z0-9_-]{7,63}?))[\"'`]?"
                r"(?=[\s,;)*`]|[.!?](?:\s|$)|$)",
                re.I | re.M,
            ),
        ),
        (
            # a short password given outright to its word: "the wifi password is xyz7", "pw:
            # abc1" (one to five characters, below the floor of the patterns above, the value
            # closing its clause; last, so that every other reading wins). The group `short` is
            # judged by `_short`: a placeholder ("TBD", "n/a"), an acronym ("SSO"), a word of
            # the dictionary ("same", "wrong") or one or two digits (a count) is not one
            "password",
            re.compile(
                r"(?<![A-Za-z])(?:password|passwd|pwd|pw|pass ?code)(?![A-Za-z])"
                + _FOR
                + _GIVEN_SHORT,
                re.I,
            ),
        ),
        (
            # the same of a PIN: "the PIN for the bike lock is 482" ("pin" with "is", ":" or
            # "=" only, as the verb pins things)
            "pin",
            re.compile(
                r"(?<![A-Za-z])pin(?=\s*[:=]|\s+(?:is|was|for|of|to|on|at|in)\b)(?![A-Za-z])"
                + _FOR
                + _GIVEN_SHORT,
                re.I,
            ),
        ),
    ]


def _lock_code(m: re.Match[str]) -> bool:
    """Whether a value given a lock as its value (the pattern with a group `lock`) is its
    code rather than a figure said of it: four digits that read as a year ("1987") or end
    in "00" (a price, a count), and an alarm's four digits that read as a time of day
    ("0630"), are not, unless a keypad's "#" or "*" ends them."""
    value = m.group("value")
    if value[-1] in "#*" or not value.isdigit() or len(value) != 4:
        return True
    if 1900 <= int(value) <= 2099 or value.endswith("00"):
        return False
    lock = m.group("lock").lower()
    return not (lock == "alarm" and int(value[:2]) < 24 and int(value[2:]) < 60)


_MARKER = re.compile(r"\[secret: ([a-z0-9-]{1,40})\]")

#: Words a value after "token"/"password" may be without being a secret ("the token is expired").
_PLAIN = re.compile(r"[a-z]+(?:[-'][a-z]+)*", re.I)
#: A name in code, not a literal: `process.env.API_KEY`, `settings.SECRET_KEY`.
_REFERENCE = re.compile(r"[A-Za-z]+(?:[._][A-Za-z]+)+")


def _entropy(s: str) -> float:
    counts = Counter(s)
    return -sum(n / len(s) * math.log2(n / len(s)) for n in counts.values())


def _looks_random(value: str, floor: float = 2.5) -> bool:
    """A credential, not a word: mixed characters with some entropy (`floor` bits a
    character)."""
    if "[[" in value or "~/" in value:
        return False  # a wiki link, a path of the tree: "(see [[~/memory/notes]])"
    value = value.strip(".,;:!?()[]{}")
    if len(value) < 6 or _PLAIN.fullmatch(value) or _REFERENCE.fullmatch(value):
        return False
    kinds = sum(bool(re.search(p, value)) for p in (r"[a-z]", r"[A-Z]", r"\d", r"[^A-Za-z0-9]"))
    return kinds >= 2 and _entropy(value) >= floor


#: A password's entropy a character when its word gave it and it mixes letters and figures
#: ("wifi password: Gr33nT34", 2.4 bits; "B00kB00k7", 1.9: its characters repeat, it is
#: still the password).
_GIVEN_PASSWORD_FLOOR = 1.5


def _judged(kind: str, pattern: re.Pattern[str], m: re.Match[str]) -> bool:
    """Whether the value a pattern found is the secret its kind says: a lower-case password
    a coined word (`_coined`), a password paired with a login one (`_paired`), the other
    values after a keyword random enough (`_looks_random`)."""
    value = m.group("value")
    if "coined" in pattern.groupindex:
        return _coined(value)
    if "spoken" in pattern.groupindex:
        return _spoken_words(value)
    if "rule" in pattern.groupindex:
        return _derived(value)
    if "paired" in pattern.groupindex:
        return _paired(value, email=m.group("email") is not None)
    if "short" in pattern.groupindex:
        return _short(value)
    if "keyed" in pattern.groupindex:
        return _keyed(value)
    if "generated" in pattern.groupindex:
        return _generated(value)
    if "given" in pattern.groupindex:
        return True  # given as a credential outright: its shape tells nothing more
    if "basic" in pattern.groupindex:
        return _basic_pair(value)
    if "lock" in pattern.groupindex:
        return _lock_code(m)
    if kind == "password" and re.search(r"[A-Za-z]", value) and re.search(r"\d", value):
        return _looks_random(value, _GIVEN_PASSWORD_FLOOR)
    return kind not in _JUDGED or _looks_random(value)


#: Words that say something of a password rather than being it: what it is like, where it
#: is, what happened to it ("eight characters long", "on the fridge", "case sensitive").
_NOT_SPOKEN = frozenset(
    [
        "a",
        "an",
        "the",
        "on",
        "in",
        "at",
        "under",
        "behind",
        "near",
        "by",
        "to",
        "of",
        "for",
        "from",
        "with",
        "without",
        "and",
        "or",
        "but",
        "not",
        "no",
        "is",
        "was",
        "are",
        "be",
        "been",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "my",
        "your",
        "our",
        "his",
        "her",
        "their",
        "same",
        "different",
        "usual",
        "old",
        "new",
        "wrong",
        "right",
        "correct",
        "incorrect",
        "invalid",
        "valid",
        "long",
        "short",
        "weak",
        "strong",
        "secure",
        "simple",
        "easy",
        "hard",
        "complicated",
        "case",
        "sensitive",
        "required",
        "needed",
        "expired",
        "changed",
        "reset",
        "saved",
        "stored",
        "written",
        "missing",
        "somewhere",
        "there",
        "here",
        "fridge",
        "wall",
        "card",
        "sticker",
        "router",
        "back",
        "bottom",
        "characters",
        "character",
        "letters",
        "letter",
        "digits",
        "digit",
        "numbers",
        "symbols",
        "chars",
        "minimum",
        "maximum",
        "least",
        "most",
        "only",
        "just",
        "still",
        "also",
        "too",
        "very",
        "really",
        "quite",
        "pretty",
        "so",
    ]
)


def _spoken_words(value: str) -> bool:
    """Whether words given as a password are it ("purple otter forty two"): none of them
    says something of it instead (`_NOT_SPOKEN`), nor ends as a word of a state or a manner
    does ("changed", "expiring", "totally")."""
    words = re.split(r"[ -]", value.lower())
    return not any(w in _NOT_SPOKEN or w.endswith(("ed", "ing", "ly")) or len(w) < 2 for w in words)


#: What makes a rule a code is made by: an order, a sum, or a fact of one's own.
_DERIVING = re.compile(
    r"\b(?:backwards?|reversed?|in\s+reverse|plus|minus|times|followed\s+by|twice|doubled|"
    r"birthday|birth|born|anniversary|name|names|initials|postcode|zip|house\s+number|"
    r"year|date|digits?)\b|\d",
    re.I,
)


def _derived(value: str) -> bool:
    """Whether what a PIN or password is said to be tells how it is made from facts of
    one's own ("my birth year backwards", "our anniversary", "my dog's name plus 42"), not
    something said of it ("my own business", "my usual one")."""
    return _DERIVING.search(value) is not None


def _basic_pair(value: str) -> bool:
    """Whether a value after "Authorization: Basic" is a login and its password: base64 of
    printable text with a colon after a name ("ZGVwbG95OnMzY3JldA==" is "deploy:s3cret")."""
    try:
        pair = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return False
    name, colon, password = pair.partition(":")
    return bool(name and colon and password) and pair.isprintable()


#: Endings the word list holds the stem of: "required", "protected", "shared", "changing".
_WORD_ENDINGS = ("s", "es", "ed", "d", "ing", "er", "ers", "ly", "ness", "ment", "able")


def _coined(value: str) -> bool:
    """A password of lower-case letters: not a word of the dictionary ("required", "usual"),
    so one made up or run together ("kettlepond", "letmein")."""
    return not is_word(value, _WORD_ENDINGS)


#: What a password or PIN is said to be when it is not yet one: "TBD", "n/a", "none", "???".
_PLACEHOLDER = re.compile(
    r"(?i:tb[dac]|n/?a|none|null|nil|unset|empty|blank|same|unknown)|[?*x.-]+|(?i:x+)", re.I
)


#: An acronym in capitals, a digit at most beside it: "SSO", "2FA", "MFA".
_ACRONYM = re.compile(r"\d?[A-Z]{2,5}\d?")


def _short(value: str) -> bool:
    """A short value given outright as a password or PIN: letters with a digit or a sign
    ("xyz7", "4a9", "ab#1"), three to five digits ("482"), or a made-up lower-case word
    ("xyz"); not a placeholder ("TBD", "n/a", "???"), an acronym in capitals ("SSO"), a word
    of the dictionary ("same", "wrong", "ok") nor one or two digits (a count: "PIN: 4")."""
    value = value.rstrip(".,;:!?)")
    if not value or _PLACEHOLDER.fullmatch(value) or _ACRONYM.fullmatch(value):
        return False
    if re.fullmatch(
        r"\d+(?:[.,]\d+)?|\d+(?i:am|pm|h|hrs?|m|mins?|s|mm|cm|km|kg|g|k|px|st|nd|rd|th|x)", value
    ):
        return value.isdigit() and len(value) >= 3
    if value.isalpha():
        return value.islower() and len(value) >= 3 and _coined(value)
    return any(c.isalnum() for c in value) and any(c.isdigit() for c in value)


def _keyed(value: str) -> bool:
    """The value of a bare "key" of a network, lock or safe: digits alone (four to twelve,
    not a year), letters with digits random enough, or a made-up lower-case word ("key:
    spare" and "key: Blue" are not)."""
    if value.isdigit():
        return 4 <= len(value) <= 12 and not (len(value) == 4 and 1900 <= int(value) <= 2099)
    if value.isalpha():
        return len(value) >= 6 and value.islower() and _coined(value)
    return any(c.isdigit() for c in value) and _looks_random(value)


def _generated(value: str) -> bool:
    """A value after a bare "key" that looks generated: letters and digits mixed, eight or
    more, random enough, and no run of its letters a word of the dictionary ("Flat12Annex"
    is not)."""
    if not (any(c.isdigit() for c in value) and any(c.isalpha() for c in value)):
        return False
    if len(value) < 8 or not _looks_random(value):
        return False
    if not re.fullmatch(r"[0-9a-f]+", value, re.I) and _NOT_CREDENTIAL.fullmatch(value):
        return False  # a reference ("INV20240312"), a name in code ("user_id2024")
    runs = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", value)
    return not any(len(r) >= 3 and is_word(r, _WORD_ENDINGS) for r in runs)


def _paired(value: str, *, email: bool) -> bool:
    """The password of a login given as a pair after a service's name: letters with digits
    or a symbol, random enough, and none of the shapes that are not credentials (a time, a
    version, a date, a number); after an e-mail address also a coined word ("me@x.com /
    letmein"). No address, link or path, and no upper-case code alone ("LHR-JFK")."""
    if any(c in value for c in "@/\\") or "[secret:" in value or value.isdigit():
        return False
    if value.isalpha():
        return email and value.islower() and _coined(value)
    letters = sum(c.isalpha() for c in value)
    lower = any(c.islower() for c in value)
    digit = any(c.isdigit() for c in value)
    if not letters or not (lower or digit) or _NOT_CREDENTIAL.fullmatch(value):
        return False
    return _looks_random(value)


def _words(*words: str, start: str | None = None) -> tuple[tuple[str, ...], str | None]:
    return words, start


#: The words "password" in the languages of `_PASSWORD_ABROAD` holds ("pass" stands for
#: "mot de passe" and "passwort" too), and where a match of one can start.
_ABROAD_WORDS = (
    "pass",
    "contrase",
    "kennwort",
    "wachtwoord",
    "senha",
    "hasło",
    "haslo",
    "senord",
    "salasana",
    "adgangskode",
)
_ABROAD_START = r"pass|mot|contrase|kennw|wachtw|senha|has|l[öo]sen|salas|adgang"

#: For each pattern above, in order: words one of which the lower-cased text must hold for
#: the pattern to be tried at all (most text holds none), and for a pattern opened by a
#: keyword, where a match can start, searched in the lower-cased text: the pattern is then
#: tried only there. Both only make the search faster; neither changes what is found.
_GATES: list[tuple[tuple[str, ...], str | None]] = [
    _words("private key"),
    _words("private key"),
    _words("sk-ant-"),
    _words("sk-"),
    _words("sk-"),
    _words("_live_", "_test_"),
    _words("whsec_"),
    _words("age-secret-key-1"),
    _words("private-lines:"),
    _words("akia", "asia", "agpa", "aida", "aroa", "anpa"),
    _words("access", start=r"aws|secret"),
    _words("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    _words("glpat-"),
    _words("xox"),
    _words("hooks.slack.com"),
    _words("/api/webhooks/"),
    _words(":aa"),
    _words("aiza"),
    _words("npm_"),
    _words("pypi-"),
    _words("sg."),
    _words("sk"),
    _words("eyj"),
    _words("://"),
    _words(*(f":{c}" for c in "0123456789*")),  # a password file's ":port" or ":*"
    _words("bearer", start=r"bearer"),
    _words("curl", start=r"curl"),
    _words("basic", start=r"proxy|authorization"),
    _words(
        "login",
        "log-in",
        "log in",
        "signin",
        "sign-in",
        "sign in",
        "credential",
        "creds",
        "username",
        "user and",
        "user &",
        "user/",
        "user /",
        start=r"log|sign|cred|user",
    ),
    _words(
        "pw",
        "pin",
        "key",
        *_ABROAD_WORDS,
        start=rf"pw|pin|wi-?fi|wpa|wlan|network|router|admin|root|user|login|account|portal|e-?mail|{_ABROAD_START}",
    ),
    _words("pw", "pass", start=r"pw|pass"),
    _words("same", "identical", start=r"pw|pass"),
    _words(" /", " |"),
    _words(*_ABROAD_WORDS, start=_ABROAD_START),
    # a lock word alone is not enough: "code", "pin", "combination"/"combo" or a key safe,
    # lockbox or padlock must be there too
    _words(
        "pin",
        "code",
        "padlock",
        "combination",
        "combo",
        "key safe",
        "keysafe",
        "lockbox",
        "lock box",
        "key box",
        "keybox",
        start=r"pin|passcode|padlock|lock|key|code|door|gate|alarm|entry|access|garage|safe|"
        r"building|shed|store",
    ),
    _words("code", start=r"lock|door|gate|alarm|keypad|key|padlock|entry|garage"),
    _words("pin", "passcode", start=r"pin|passcode"),
    _words("codice", "digo", "code", "kod", "pin"),
    _words("codice", "digo", "code", "kod", "pin", start=r"codice|c[oó]digo|code|kod|pin"),
    _words(
        "same",
        "identical",
        start=r"pin|passcode|door|gate|alarm|entry|access|garage|lock|safe|key|building|padlock|shed|store",
    ),
    _words("sort", start=r"sort|acc|a/c"),
    _words("iban", start=r"iban"),
    _words("phrase", "words", start=r"recovery|seed|backup|mnemonic|secret"),
    _words("key", "secret", "token", start=r"api|access|secret|token|client|auth|signing"),
    _words("cvv", "cvc", "cv2", "csc", "verification", "security code", start=r"cv|csc|card|sec"),
    _words("ssn", "social security", start=r"ssn|social"),
    _words(
        "insurance",
        "nino",
        "ni n",
        "ni #",
        "sin",
        "passport",
        "licen",
        start=r"national|ni|sin|social|passport|driv",
    ),
    _words(
        "memorable",
        "security answer",
        "security question",
        "maiden name",
        "first pet",
        "first school",
        "place of birth",
        "teacher",
        start=r"memorable|security|answer|mother|mum|mom|first|place|favou?rite",
    ),
    _words(
        "otp",
        "one-time",
        "one time",
        "code",
        start=r"one|otp|verif|2fa|two|mfa|log|sign|auth|sec|acc|text|sms|sent|e-?mail",
    ),
    _words("code", start=r"\b(?:the|a|that)\s+code\b"),
    _words("otp", "one-time", "one time", "code"),
    _words("codes", "code:", start=r"recovery|backup|back-up|2fa|two"),
    _words("code", start=r"recovery|backup|back-up|2fa|two"),
    _words("pass", start=r"log|user|sign|account|id"),
    _words("mysql", "mariadb", start=r"mysql|mariadb"),
    _words("code"),
    _words(
        "door",
        "gate",
        "alarm",
        "keypad",
        "lockbox",
        "lock box",
        "key safe",
        "keysafe",
        "key box",
        "keybox",
        "padlock",
        "safe",
        "combination",
        "combo",
    ),
    _words("pass", "pwd", "wifi key", "wi-fi key", start=r"pass|pwd|wi"),
    _words("key safe", "keysafe", "lockbox", "lock box", "key box", "keybox", "padlock"),
    _words("sticker", start=r"router|modem|hub|wi|wlan|broadband|sticker"),
    _words("pass", "pw", "key", start=r"pass|pw|wi|wlan|network|router"),
    _words("words", "mnemonic", start=r"twelve|eighteen|twenty|12|18|24|mnemonic"),
    _words(
        "pin",
        "code",
        "combination",
        "combo",
        start=r"pin|passcode|door|gate|alarm|safe|lock|padlock|garage|phone|card|combination|combo",
    ),
    _words("pw", "pass", start=r"pass|pw"),
    _words("_live_", "_test_", "_prod_", "_sandbox_"),
    _words("key", start=r"network|wi|wlan|ssid|router|modem|hotspot|padlock|lock|safe"),
    _words("key"),
    _words("pw", "pass", start=r"pw|pass"),
    _words("pin", start=r"pin"),
]


@cache
def _gates() -> list[tuple[tuple[str, ...], re.Pattern[str] | None]]:
    """`_GATES` with each keyword start compiled (on first use, as `_patterns`)."""
    assert len(_GATES) == len(_patterns())
    return [(words, re.compile(start) if start else None) for words, start in _GATES]


#: A word for a credential, in the languages people most often mix into a conversation:
#: a token near one, in the same sentence, is a password when it looks like one
#: (`_near_credentials`), however the sentence is worded.
_CREDENTIAL_WORDS = (
    "password",
    "passwort",
    "passwd",
    "passphrase",
    "passcode",
    "pass code",
    "mot de passe",
    "contraseña",
    "contrasena",
    "wachtwoord",
    "kennwort",
    "hasło",
    "haslo",
    "senha",
    "lösenord",
    "losenord",
    "salasana",
    "adgangskode",
    "login",
    "log in",
    "log-in",
    "sign in",
    "sign-in",
    "credential",
    "access code",
)
#: A word for a payment card: a card number is looked for (`_cards`) only in a sentence
#: holding one.
_CARD_WORDS = (
    "card",
    "visa",
    "mastercard",
    "amex",
    "american express",
    "maestro",
    "discover",
    "diners",
    "jcb",
    "unionpay",
    "carte",
    "tarjeta",
    "karte",
    "kaart",
    "karta",
    "carta",
    "cartão",
    "kort",
)

#: How a link starts: a token in one is looked for (`_link_tokens`) only in a text holding one.
_LINK_WORDS = ("://", "www.")

#: For each of `_CHECKED_IDS`, words one of which a text must hold for it to be looked for.
_ID_GATES: tuple[tuple[str, ...], ...] = (
    ("codice fiscale", "cod.", "fiscal code", "tax code", "tessera", "c.f", "cf"),
    ("dni", "nie", "nif", "identidad"),
    ("insee", "nir", "sociale", "sécu", "secu", "vitale", "social security"),
    ("steuer", "identifikationsnummer", "idnr"),
    ("bsn", "burgerservice", "burger service", "sofi"),
    ("aadhar", "aadhaar", "uid"),
    ("pan", "permanent account"),
)
_ID_WORDS = {w for ws in _ID_GATES for w in ws}

#: The words a setting's name holds for `_settings` to look at it.
_SETTING_WORDS = ("pass", "pw", "key", "signing", "signature")

#: Every word of every gate: text without one (most text) holds no secret.
_WORDS = (
    {w for ws, _ in _GATES for w in ws}
    | set(_SETTING_WORDS)
    | set(_CREDENTIAL_WORDS)
    | set(_CARD_WORDS)
    | set(_LINK_WORDS)
    | set(_ID_WORDS)
)
_ALL_WORDS = tuple(sorted(w for w in _WORDS if not any(v != w and v in w for v in _WORDS)))
#: One Aho-Corasick automaton of them: a text is read once for all its words, some 5x faster
#: than a substring search of each (and far faster than one regular expression of them).
_ANY_WORD = AhoCorasick(list(_ALL_WORDS))


#: The same words, each found wherever it stands (overlapping matches): one read of a text
#: that passed the cheap test names every gate's words it holds, which a substring search of
#: each gate's words would find one at a time.
_EVERY_WORD = AhoCorasick(sorted(_WORDS))


def _present(low: str) -> frozenset[str]:
    """The words of the gates that `low` holds, each as a substring (what `w in low` asks)."""
    try:
        return frozenset(_EVERY_WORD.find_matches_as_strings(low, overlapping=True))
    except UnicodeEncodeError:  # a lone surrogate: no UTF-8 for the automaton to read
        return frozenset(w for w in _WORDS if w in low)


def _gated(low: str) -> bool:
    """Whether `low` holds a word of some gate (a word holding another one is left out)."""
    try:
        # without overlaps: a text holding any word has a first match, all this asks
        return bool(_ANY_WORD.find_matches_as_indexes(low))
    except UnicodeEncodeError:  # a lone surrogate: no UTF-8 for the automaton to read
        return any(w in low for w in _ALL_WORDS)


#: The most characters a word of a gate spans.
_LONGEST_WORD = max(map(len, _ALL_WORDS))


def may_hold_secret(text: str) -> bool:
    """Whether `text` holds a word that some secret needs: `find_secrets` finds nothing in
    a text that holds none (the cheap test it starts with), and `mask` returns it as it is."""
    if _gated(text.lower()):
        return True
    decoded = _quoted_printable(text)
    return decoded is not None and _gated(decoded[0].lower())


def may_hold_secret_joined(first: str, second: str) -> bool:
    """`may_hold_secret(first + " " + second)` for texts neither of which may hold one:
    only a word across the space between them is looked for (in as many characters either
    side as a word spans; each character is one or more in lower case)."""
    k = _LONGEST_WORD - 1
    return _gated(f"{first[-k:]} {second[:k]}".lower())


def _matches(
    pattern: re.Pattern[str], start: re.Pattern[str] | None, text: str, low: str
) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)`, tried only where `start` finds a keyword in `low`."""
    if start is None or len(low) != len(text):  # lower() moved an offset: search it all
        yield from pattern.finditer(text)
        return
    end = 0
    for c in start.finditer(low):
        if c.start() < end:
            continue
        m = pattern.match(text, c.start())
        if m:
            end = m.end()
            yield m


#: How far from the credential word (characters, same sentence) a token is looked at.
_NEAR = 80
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n")
_TOKEN = re.compile(r"[^\s\"'`,;=()\[\]{}<>]+")
#: Shapes with letters and digits that are not credentials: "SHA-256", "BA249", "COVID-19",
#: "v2.3.1", "Vault-1.15", "10:30am", "12-Mar-2029", "1500mg", "22nd", a UUID or a hex digest,
#: "256-bit", a name numbered as a host, a room or a model is ("node-12", "Room-101A",
#: "Windows-11"), a file or domain name ("key-379922-9d9af5.json"), a name in code
#: ("WORKER_THREADS", "retry_after_30s"; a setting's value is a token of its own).
_NOT_CREDENTIAL = re.compile(
    r"(?-i:[A-Z]{1,6})[-_]?\d+[A-Za-z]?|(?:[a-z]+[-_]?)?v?\d+(?:\.\d+)+[a-z0-9-]*"
    r"|\d{1,2}[:.h]\d{2}(?:[ap]m)?"
    r"|\d{1,4}[-/ .]?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*[-/ .]?\d{0,4}"
    r"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*[-/ .]?\d{1,4}(?:st|nd|rd|th)?"
    r"|\d+(?:st|nd|rd|th|[a-z]{1,3})|\d+[-_][a-z]+|[0-9a-f-]{8,}|[a-z]+[-_]\d{1,3}[a-z]?"
    r"|[\w-]+(?:\.[\w-]+)*\.[a-z]{2,5}"
    r"|(?-i:[A-Z0-9]+(?:_[A-Z0-9]+)+|[a-z0-9]+(?:_[a-z0-9]+)+)",
    re.I,
)


def _credential_like(token: str) -> bool:
    """A token that can only be a credential: letters and digits (two of each at least),
    and mixed case or a symbol between them, random enough, and none of the shapes above
    (nor an address, a URL or a path)."""
    if not 6 <= len(token) <= 64 or any(c in token for c in "@/\\") or "[secret:" in token:
        return False
    letters = sum(c.isalpha() for c in token)
    digits = sum(c.isdigit() for c in token)
    if letters < 2 or digits < 2 or _NOT_CREDENTIAL.fullmatch(token):
        return False
    mixed = any(c.isupper() for c in token) and any(c.islower() for c in token)
    symbol = re.search(r"[^\W_][^\w\s][^\W_]|_", token) is not None
    return (mixed or symbol) and _looks_random(token)


def _answered(text: str, word: int, token: int, spans: list[tuple[int, int]]) -> bool:
    """Whether a value found between a credential word at `word` and a token at `token` is
    the word's value, the token then being something else: three words or more lie between
    that value and the token ("the password is X if you need it for the printer, a Brother
    QL-L820NWB"). A list of values ("passwords: X and Y") is read whole."""
    lo, hi = sorted((word, token))
    for b, e in spans:
        if lo < b < hi:
            gap = text[e:token] if token > word else text[token:b]
            if len(gap.split()) >= 3:
                return True
    return False


#: What names a value as something else than the credential beside it: a network's or a
#: user's name ("network TP-Link_4F2A", "SSID: X", "the Wi-Fi name is X", "user: X").
_NAMED_OTHER = re.compile(
    r"(?<![A-Za-z])(?:network|ssid|(?:network|wi-?fi|wlan|router)\s+name|user\s?name|user|"
    r"called|named)\s*(?:is\s+|[:=]\s*|-\s+)?[\"'`]?$",
    re.I,
)
#: A network named by its own word ("Wi-Fi: X", "the wifi is X"), when the credential is
#: given apart in the sentence ("…, mot de passe: Y").
_NETWORK_SAID = re.compile(
    r"(?<![A-Za-z])(?:wi-?fi|wlan|wireless)\s*(?:is\s+|[:=]\s*|-\s+)?[\"'`]?$", re.I
)


def _named_other(text: str, lo: int, token: int, given: list[tuple[int, int]]) -> bool:
    """Whether the token at `token` is named as a thing of its own by the words just before
    it (`_NAMED_OTHER`: a network's or user's name, not a secret), or as the network by
    "Wi-Fi: …" while the sentence gives a credential elsewhere (`given`)."""
    before = text[max(lo, token - 24) : token]
    if _NAMED_OTHER.search(before):
        return True
    return _NETWORK_SAID.search(before) is not None and any(
        lo <= b and b != token for b, _ in given
    )


def _near_credentials(
    text: str, low: str, found: list[Secret] | None = None, present: frozenset[str] | None = None
) -> Iterator[tuple[int, int]]:
    """Spans of tokens that look like credentials (`_credential_like`) within `_NEAR`
    characters of a credential word in the same sentence: "I use Heron-4420 as my
    password", "the password (case sensitive) is …", "Passwort: …", "log in with …".

    A word whose value is already found ("the password is X", or a marker standing for it)
    names no token well beyond that value (`_answered`), and a word inside a marker
    ("[secret: password]") names none: "the password is X if you need it for the printer, a
    Brother QL-L820NWB" keeps the printer's model."""
    if len(low) != len(text):
        return
    held = low if present is None else present
    starts = sorted(i for w in _CREDENTIAL_WORDS if w in held for i in _find_all(low, w))
    if not starts:
        return
    bounds = [0] + [m.end() for m in _SENTENCE_END.finditer(text)] + [len(text) + 1]
    spans = [(s.start, s.end) for s in found or ()]
    given = list(spans)
    seen: set[int] = set()
    for at in starts:
        k = next(i for i in range(1, len(bounds)) if bounds[i] > at)
        lo, hi = max(bounds[k - 1], at - _NEAR), min(bounds[k], at + _NEAR)
        if any(b <= at < e for b, e in spans):
            continue
        for m in _TOKEN.finditer(text, lo, hi):
            token = m.group().rstrip(".:!?")
            if _answered(text, at, m.start(), spans):
                continue
            if m.start() not in seen and _credential_like(token):
                if _named_other(text, bounds[k - 1], m.start(), given):
                    continue  # "network TP-Link_4F2A, password …": the network's name
                seen.add(m.start())
                spans.append((m.start(), m.start() + len(token)))
                yield m.start(), m.start() + len(token)


#: 13 to 19 digits written as a card number is: in groups of four (the last one shorter or
#: longer), 4-6-5 (American Express), or unbroken.
_CARD_NUMBER = re.compile(
    r"(?<![\d.,/-])(?:\d{4}(?:([ -])\d{4}\1\d{4}\1\d{1,7}|([ -])\d{6}\2\d{4,5})|\d{13,19})"
    r"(?![\d]|[.,/-]\d)"
)
#: The first digits a card number of a network starts with (Visa 4, Mastercard 51-55 and
#: 2221-2720, American Express 34/37, Discover, Diners, JCB, Maestro, UnionPay: 3, 5, 6).
_CARD_PREFIX = re.compile(r"4|5[0-9]|2[2-7]|3[4-8]|6")


#: A column's header naming what its cells hold: a password ("password", "Wi-Fi pass",
#: "admin_pwd"), a PIN, or a key or token.
_PASSWORD_HEADER = re.compile(
    r"(?:[a-z-]+[ _-]?)?(?:password|passwd|passphrase|pass ?code|pwd|pw)", re.I
)
#: "Pass" alone names a mountain pass, a boarding pass or a mark as often: a login's only
#: ("pass", "wifi pass", "admin_pass"), and its cell has letters and figures.
_PASS_HEADER = re.compile(
    r"(?:(?:wi-?fi|admin|root|user|login|account|db|router|e-?mail|app)[ _-]?)?pass", re.I
)
_PIN_HEADER = re.compile(r"(?:[a-z-]+[ _-]?)?pin(?:[ _-]?code)?", re.I)
_KEY_HEADER = re.compile(
    r"(?:api[ _-]?key|apikey|(?:access|auth|api|bearer)[ _-]?token|token|secret(?:[ _-]?key)?|"
    r"client[ _-]?secret)",
    re.I,
)
#: What a table's line may be split at: a tab, a pipe, a semicolon, a comma (in that order).
_DELIMITERS = ("\t", "|", ";", ",")
#: A header's cell: a label of a few words, no figure in it.
_HEADER_CELL = re.compile(r"[A-Za-z][A-Za-z _./#()-]{0,30}")


def _cells(line: str, delimiter: str) -> list[tuple[str, int, int]]:
    """The cells of a table's `line` (text, start, end), each without the spaces and quotes
    around it."""
    out, pos = [], 0
    for part in line.split(delimiter):
        inner = part.strip().strip("\"'`").strip()
        at = pos + part.find(inner) if inner else pos
        out.append((inner, at, at + len(inner)))
        pos += len(part) + len(delimiter)
    return out


def _cell_secret(kind: str, value: str) -> bool:
    """Whether a cell under a column of `kind` holds one: a password with a figure or a
    symbol, or a coined word (`_coined`), never a time, date or version; a PIN of four to
    eight digits; a key or token random enough."""
    if not value or " " in value or "[secret:" in value or len(set(value)) == 1:
        return False
    if kind == "pin":
        return value.isdigit() and 4 <= len(value) <= 8
    if kind == "api-key":
        return len(value) >= 16 and _looks_random(value)
    if len(value) < 6 or _NOT_CREDENTIAL.fullmatch(value) or any(c in value for c in "/@"):
        return False
    if value.isalpha():
        return value.islower() and _coined(value)
    return not value.isdigit() or len(value) >= 6


def _columns(text: str, present: frozenset[str]) -> Iterator[tuple[int, int, str]]:
    """The cells of a table pasted as text (tab, pipe, semicolon or comma separated) under a
    header naming a password, a PIN or a key ("site<TAB>user<TAB>password", "| site | pin
    |"): each cell of that column, in the lines after the header with as many cells."""
    if present.isdisjoint(("pass", "pw", "pin", "key", "token", "secret")) or "\n" not in text:
        return
    lines, starts, pos = text.split("\n"), [], 0
    for ln in lines:
        starts.append(pos)
        pos += len(ln) + 1
    i = 0
    while i < len(lines):
        header = lines[i]
        delimiter = next((d for d in _DELIMITERS if d in header), None)
        cells = _cells(header, delimiter) if delimiter else []
        named = [c for c, _, _ in cells if c]
        if len(named) < 2 or not all(_HEADER_CELL.fullmatch(c) for c in named):
            i += 1
            continue
        kinds = {
            n: kind
            for n, (c, _, _) in enumerate(cells)
            for kind, pattern in (
                ("password", _PASSWORD_HEADER),
                ("pass", _PASS_HEADER),
                ("pin", _PIN_HEADER),
                ("api-key", _KEY_HEADER),
            )
            if c and pattern.fullmatch(c)
        }
        j = i + 1
        while kinds and j < len(lines):
            row = _cells(lines[j], delimiter or "")
            if len(row) != len(cells):
                break
            if all(re.fullmatch(r":?-{2,}:?|", c) for c, _, _ in row):
                j += 1  # a Markdown table's rule under its header
                continue
            for n, kind in kinds.items():
                value, begin, end = row[n]
                if kind == "pass" and not (
                    re.search(r"\d", value) and re.search(r"[A-Za-z]", value)
                ):
                    continue
                if _cell_secret("password" if kind == "pass" else kind, value):
                    yield starts[j] + begin, starts[j] + end, "password" if kind == "pass" else kind
            j += 1
        i = max(j, i + 1)


#: A setting whose name says it holds a password or a key, in an environment file or a
#: YAML block: "DB_PASS=…", "OPENWEATHER_KEY=…", "HOOK_SIGNING=…" (a signing secret), "
#: pass: …" (a key of its own on its line).
_SETTING = re.compile(
    r"(?<![A-Za-z0-9_])(?:(?-i:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?P<pass>PASS|PASSWD|PWD|PW)"
    r"|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?P<key>KEY|SIGNING|SIGNATURE))"
    r"|^[ \t]*(?P<yaml>pass))[ \t]*[:=][ \t]*[\"']?(?P<value>[^\s\"']{6,})[\"']?[ \t]*$",
    re.M,
)


def _settings(text: str, present: frozenset[str]) -> Iterator[tuple[int, int, str]]:
    """The values of settings named as passwords or keys (`_SETTING`), judged as a table's
    cell of that kind is (`_cell_secret`); a password with a figure or a symbol in it (a
    word alone is a placeholder in code as often: "pass: 'yourpassword'")."""
    if present.isdisjoint(_SETTING_WORDS):
        return
    for m in _SETTING.finditer(text):
        kind = "api-key" if m["key"] else "password"
        if kind == "password" and m["value"].isalpha():
            continue
        if _cell_secret(kind, m["value"]):
            yield m.start("value"), m.end("value"), kind


def _luhn(digits: str) -> bool:
    """The check digit every payment card number ends with (ISO/IEC 7812)."""
    total = 0
    for i, c in enumerate(reversed(digits)):
        d = ord(c) - 48
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


#: A card's expiry said right after its number ("exp 07/29", "expires 07/2029", "valid thru
#: 07/29"): with it, a number in a card's grouping is a card's even when a digit of it was
#: mistyped and its check digit fails.
_EXPIRY = re.compile(
    r"[\s,;(]*(?:exp(?:iry|ires|\.)?|valid\s+(?:thru|through|until|to)|good\s+thru|expiring)"
    r"\s*(?:date\s*)?[:=]?\s*(?:0[1-9]|1[0-2])\s*/\s*(?:\d{2}|20\d{2})\b",
    re.I,
)


def _cards(text: str, low: str, present: frozenset[str] | None = None) -> Iterator[tuple[int, int]]:
    """Spans of payment card numbers: 13 to 19 digits in a card's grouping, a network's
    prefix and a valid check digit (or an expiry said right after it: `_EXPIRY`), in a
    sentence that names a card ("card", "Visa",
    "carte", ...). An order or tracking number with no card word beside it stays, and so
    does "the card ending 4242"."""
    if len(low) != len(text) or not any(
        w in (low if present is None else present) for w in _CARD_WORDS
    ):
        return
    bounds = [0] + [m.end() for m in _SENTENCE_END.finditer(text)] + [len(text) + 1]
    for m in _CARD_NUMBER.finditer(text):
        digits = re.sub(r"\D", "", m.group())
        if not (13 <= len(digits) <= 19 and _CARD_PREFIX.match(digits)):
            continue
        if not _luhn(digits) and not _EXPIRY.match(text, m.end()):
            continue  # no check digit, and no expiry said with it: an order's number
        k = next(i for i in range(1, len(bounds)) if bounds[i] > m.start())
        sentence = low[bounds[k - 1] : bounds[k]]
        if any(_word_in(sentence, w) for w in _CARD_WORDS):
            yield m.start(), m.end()


#: A link, to its first space or quote: "https://…", "www.…".
_LINK = re.compile(r"(?:\b[a-z][a-z0-9+.-]*://|\bwww\.)[^\s\"'<>`]+", re.I)
#: One parameter of a link's query or fragment: "?name=value", "&name=value", "#name=value".
_LINK_PARAMETER = re.compile(r"[?&#;](?P<name>[^\s?&#;=]{1,40})=(?P<value>[^\s&#;\"'<>`]+)")
#: A parameter's name that says its value opens something: "token", "access_token", "auth",
#: "sig", "signature", "X-Amz-Signature", "api_key", "password", "otp", "secret", "jwt",
#: and the short forms of "token" ("tok", "tk", "tkn") (a word of its own in the name:
#: "monkey" is none). Not "session", "id" or "code": a
#: search's session, a page's id and a discount code are not credentials.
_LINK_SECRET_NAME = re.compile(
    r"(?:[a-z0-9]+[_.-])*(?:token|tok|tkn|tk|auth|sig|signature|credential|key|apikey|secret|"
    r"password|passwd|pwd|pass|otp|jwt)",
    re.I,
)
#: A value a credential can be: letters and digits (some of each) and eight or more, or
#: sixteen or more of a token's characters; a word or a number alone is not one.
_LINK_VALUE = re.compile(r"[A-Za-z0-9%._~+/=-]{8,}")


def _link_tokens(
    text: str, low: str, present: frozenset[str] | None = None
) -> Iterator[tuple[int, int]]:
    """Spans of credentials in links: the value of a query or fragment parameter whose name
    says it opens something ("…/login?token=Qm8v…", a signed download's "&X-Amz-Signature=…",
    "…#access_token=…"), eight characters or more with letters and digits, or sixteen or
    more. A search's words, a page's number, a video's "?t=90" and a discount code stay."""
    if not any(w in (low if present is None else present) for w in _LINK_WORDS):
        return
    for link in _LINK.finditer(text):
        for p in _LINK_PARAMETER.finditer(link.group()):
            value = p.group("value").rstrip(".,;:!?)]}")
            if not (_LINK_SECRET_NAME.fullmatch(p.group("name")) and _LINK_VALUE.fullmatch(value)):
                continue
            letters = sum(c.isalpha() for c in value)
            digits = sum(c.isdigit() for c in value)
            if _PLAIN.fullmatch(value) or not (
                (letters and digits) or len(value) >= 16 and _entropy(value) >= 3
            ):
                continue
            begin = link.start() + p.start("value")
            yield begin, begin + len(value)


# -- identity numbers with a check digit ---------------------------------------------------

_CF_ODD = dict(
    zip(
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        [1, 0, 5, 7, 9, 13, 15, 17, 19, 21] + [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20,
         11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23],
        strict=True,
    )
)  # fmt: skip


def _codice_fiscale(value: str) -> bool:
    """An Italian codice fiscale's last letter checks its first fifteen characters."""
    total = 0
    for i, c in enumerate(value[:15]):
        total += _CF_ODD[c] if i % 2 == 0 else (int(c) if c.isdigit() else ord(c) - 65)
    return chr(65 + total % 26) == value[15]


def _dni(value: str) -> bool:
    """A Spanish DNI's letter (or a NIE's, its X, Y or Z read as 0, 1 or 2) checks its number."""
    number = "XYZ".index(value[0]).__str__() + value[1:-1] if value[0] in "XYZ" else value[:-1]
    return "TRWAGMYFPDXBNJZSQVHLCKE"[int(number) % 23] == value[-1]


def _nir(value: str) -> bool:
    """A French social security number (NIR, the INSEE number): its last two digits are 97
    minus the rest modulo 97 (Corsica's 2A and 2B read as numbers)."""
    body, key = value[:13], int(value[13:])
    number = int(body.replace("2A", "19").replace("2B", "18"))
    number -= 1_000_000 if "2A" in body else 2_000_000 if "2B" in body else 0
    return 97 - number % 97 == key


def _steuer_id(value: str) -> bool:
    """A German tax identification number: its last digit checks the ten before it
    (ISO 7064, MOD 11,10); the first is never 0."""
    if value[0] == "0":
        return False
    product = 10
    for c in value[:10]:
        total = (int(c) + product) % 10 or 10
        product = total * 2 % 11
    return (11 - product) % 10 == int(value[10])


def _bsn(value: str) -> bool:
    """A Dutch citizen service number (BSN) passes the eleven test."""
    digits = [int(c) for c in value.zfill(9)]
    total = sum(d * w for d, w in zip(digits[:8], range(9, 1, -1), strict=True)) - digits[8]
    return total % 11 == 0 and any(digits)


_VERHOEFF_D = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
    [2, 3, 4, 0, 1, 7, 8, 9, 5, 6], [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
    [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
    [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
    [8, 7, 6, 5, 9, 3, 2, 1, 0, 4], [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
]  # fmt: skip
_VERHOEFF_P = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
    [5, 8, 0, 3, 7, 9, 6, 1, 4, 2], [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
    [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
    [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
]  # fmt: skip


def _aadhaar(value: str) -> bool:
    """An Indian Aadhaar number passes the Verhoeff check."""
    c = 0
    for i, d in enumerate(reversed(value)):
        c = _VERHOEFF_D[c][_VERHOEFF_P[i % 8][int(d)]]
    return c == 0


def _always(value: str) -> bool:
    return True


#: What may stand between an identity number's name and the number: "is", a colon, "number".
_ID_GAP = (
    r"(?:\s+(?:number|no\.?|#|nummer|num[ée]ro|n[°º]|card|code))?[^\S\n]*"
    r"(?:[:=#]|\b(?:is|was|ist|lautet|est|es|è)\b)?[^\S\n]*:?[^\S\n]*"
)
_DIGIT_OR_CF = "[0-9LMNPQRSTUV]"

#: Identity numbers with a check digit (or, for India's PAN, a shape only it has), each after
#: its name: (the name, the number, its check). The number is the kind's alone when its check
#: passes: a number that is not one (a random one after the word) stays.
_CHECKED_IDS: list[tuple[str, str, Callable[[str], bool]]] = [
    (
        r"codice\s+fiscale|cod\.\s*fisc(?:ale)?\.?|fiscal\s+code|tax\s+code|tessera\s+sanitaria|(?-i:C\.?F\.?)",
        rf"[A-Z]{{6}}{_DIGIT_OR_CF}{{2}}[A-EHLMPR-T]{_DIGIT_OR_CF}{{2}}[A-Z]{_DIGIT_OR_CF}{{3}}[A-Z]",
        _codice_fiscale,
    ),
    (
        r"(?-i:DNI|NIE|NIF)|documento\s+(?:nacional\s+)?de\s+identidad",
        r"(?:\d{8}|[XYZ][- ]?\d{7})[- ]?[A-Z]",
        _dni,
    ),
    (
        r"insee|(?-i:NIR)|s[ée]curit[ée]\s+sociale|s[ée]cu|carte\s+vitale|social\s+security",
        r"[12] ?\d{2} ?\d{2} ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}",
        _nir,
    ),
    (
        r"steuer-?\s?id(?:entifikationsnummer|-?nr\.?)?|steuerliche\s+identifikationsnummer|"
        r"identifikationsnummer|(?-i:IdNr)",
        r"\d{2} ?\d{3} ?\d{3} ?\d{3}",
        _steuer_id,
    ),
    (
        r"(?-i:BSN)|burger\s?service\s?nummer|sofi-?\s?nummer",
        r"\d{4}[ .]?\d{2}[ .]?\d{3}|\d{3}[ .]?\d{3}[ .]?\d{3}|\d{8}",
        _bsn,
    ),
    (r"aadhaa?r|(?-i:UIDAI|UID)", r"[2-9]\d{3}[ -]?\d{4}[ -]?\d{4}", _aadhaar),
    (
        r"(?-i:PAN)|permanent\s+account\s+number",
        r"(?-i:[A-Z]{3}[ABCFGHJLPT][A-Z]\d{4}[A-Z])",
        _always,
    ),
]


@cache
def _checked_id_patterns() -> list[tuple[re.Pattern[str], Callable[[str], bool]]]:
    return [
        (
            re.compile(
                rf"(?<![A-Za-z])(?:{name})(?![A-Za-z]){_ID_GAP}(?P<value>{value})(?![A-Za-z0-9])",
                re.I,
            ),
            check,
        )
        for name, value, check in _CHECKED_IDS
    ]


def _national_ids(text: str, present: frozenset[str] | None = None) -> Iterator[tuple[int, int]]:
    """Spans of identity numbers whose check passes, each after its name (`_CHECKED_IDS`):
    an Italian codice fiscale, a Spanish DNI or NIE, a French NIR, a German Steuer-ID, a
    Dutch BSN, an Indian Aadhaar number or PAN."""
    if present is not None and present.isdisjoint(_ID_WORDS):
        return
    for (pattern, check), words in zip(_checked_id_patterns(), _ID_GATES, strict=True):
        if present is not None and present.isdisjoint(words):
            continue
        for m in pattern.finditer(text):
            value = m.group("value")
            if check(re.sub(r"[ .-]", "", value).upper()):
                yield m.start("value"), m.end("value")


def _word_in(low: str, word: str) -> bool:
    """Whether `word` stands in `low` as a word of its own (plural too)."""
    return next(_find_all(low, word), None) is not None


def _find_all(low: str, word: str) -> Iterator[int]:
    """Where `word` stands in `low` as a word of its own (not inside another)."""
    i = low.find(word)
    while i >= 0:
        before = low[i - 1] if i else " "
        after = low[i + len(word)] if i + len(word) < len(low) else " "
        if after == "s" and word[-1] != "s":  # "passwords", "logins", "credentials"
            after = low[i + len(word) + 1] if i + len(word) + 1 < len(low) else " "
        if not before.isalpha() and not after.isalpha():
            yield i
        i = low.find(word, i + 1)


#: Quoted-printable mail source (RFC 2045): "=" ending a line is a soft line break that joins
#: it to the next, so a word or a password may be cut anywhere ("passw=" / "ord ab=").
#: An encoded byte beyond ASCII ("=E2"), an encoded "=" ("=3D"; "=30" is as likely a setting's
#: value) or the transfer encoding named: with a soft break, the mark
#: of quoted-printable rather than an assignment that ends a line ("name=" in a config).
_QP_MARK = re.compile(r"=(?:[89A-F][0-9A-F]|3D)|quoted-printable", re.I)
_QP_BYTES = re.compile(r"(?:=[0-9A-F]{2})+|=\r?\n")


def quoted_printable(text: str) -> bool:
    """Whether `text` is (or holds) mail source in quoted-printable: a soft line break, and
    an encoded byte beyond ASCII, an encoded "=" or the encoding named (`_QP_MARK`)."""
    return ("=\n" in text or "=\r\n" in text) and _QP_MARK.search(text) is not None


def _quoted_printable(text: str) -> tuple[str, list[int], list[int]] | None:
    """`text` decoded as quoted-printable (soft line breaks removed, encoded bytes read as
    UTF-8), with each decoded character's start and end in `text`; None when `text` is not
    (`quoted_printable`)."""
    if not quoted_printable(text):
        return None
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    pos = 0
    for m in _QP_BYTES.finditer(text):
        for i in range(pos, m.start()):
            out.append(text[i])
            starts.append(i)
            ends.append(i + 1)
        pos = m.end()
        if m.group().startswith("=\r") or m.group() == "=\n":
            continue
        # each character from the bytes that spell it (three characters of text per byte)
        data = bytes(int(m.group()[i + 1 : i + 3], 16) for i in range(0, len(m.group()), 3))
        at = m.start()
        for ch in data.decode("utf-8", errors="replace"):
            size = len(ch.encode("utf-8", errors="replace")) * 3 if ch != "\ufffd" else 3
            out.append(ch)
            starts.append(at)
            ends.append(min(at + size, m.end()))
            at = min(at + size, m.end())
    for i in range(pos, len(text)):
        out.append(text[i])
        starts.append(i)
        ends.append(i + 1)
    return "".join(out), starts, ends


def find_secrets(text: str) -> list[Secret]:
    """The secrets in `text`, in order, without overlaps. A marker is not a secret.

    Mail source in quoted-printable is also read decoded (`_quoted_printable`): a secret cut
    by a soft line break is found whole, and its span in `text` covers the break."""
    found = _find_secrets(text)
    decoded = _quoted_printable(text)
    if decoded is None:
        return found
    view, starts, ends = decoded
    for s in _find_secrets(view):
        begin, end = starts[s.start], ends[s.end - 1]
        if not any(f.start < end and begin < f.end for f in found):
            found.append(Secret(s.kind, begin, end))
    return sorted(found, key=lambda s: s.start)


def _find_secrets(text: str) -> list[Secret]:
    """The secrets in `text` as it stands (`find_secrets` without reading it decoded)."""
    low = text.lower()
    if not _gated(low):
        return []
    present = _present(low)
    # a marker already written stands for a secret; it is not one
    found: list[Secret] = [Secret("", m.start(), m.end()) for m in _MARKER.finditer(text)]
    for (kind, pattern), (words, start) in zip(_patterns(), _gates(), strict=True):
        if present.isdisjoint(words):
            continue
        for m in _matches(pattern, start, text, low):
            if "value" in pattern.groupindex and m.group("value") is not None:
                begin, end = m.span("value")
                if not _judged(kind, pattern, m):
                    continue
            else:
                begin, end = m.span()
            if any(s.start < end and begin < s.end for s in found):
                continue
            found.append(Secret(kind, begin, end))
    for begin, end, kind in (*_columns(text, present), *_settings(text, present)):
        if not any(s.start < end and begin < s.end for s in found):
            found.append(Secret(kind, begin, end))
    for begin, end in _cards(text, low, present):
        if not any(s.start < end and begin < s.end for s in found):
            found.append(Secret("payment-card", begin, end))
    for begin, end in _national_ids(text, present):
        if not any(s.start < end and begin < s.end for s in found):
            found.append(Secret("national-id-number", begin, end))
    for begin, end in _link_tokens(text, low, present):
        if not any(s.start < end and begin < s.end for s in found):
            found.append(Secret("link-token", begin, end))
    for begin, end in _near_credentials(text, low, list(found), present):
        if not any(s.start < end and begin < s.end for s in found):
            found.append(Secret("password", begin, end))
    return sorted((s for s in found if s.kind), key=lambda s: s.start)


def contains_secret(text: str) -> bool:
    """Whether `text` holds anything `find_secrets` finds."""
    return bool(find_secrets(text))


def marker(kind: str) -> str:
    """What stands where a secret was: `[secret: aws-access-key]`."""
    return f"[secret: {kind}]"


def slug(kind: str) -> str:
    """The marker as a path segment would spell it: `secret-aws-access-key`."""
    return f"secret-{kind}"


def markers(text: str) -> list[Secret]:
    """The markers already in `text`, as the secrets they stand for (kind and span)."""
    return [Secret(m.group(1), m.start(), m.end()) for m in _MARKER.finditer(text)]


def mask(text: str, *, replace: Any = marker) -> tuple[str, list[Secret]]:
    """`text` with every secret replaced by `replace(kind)` (its marker), and the secrets."""
    found = find_secrets(text)
    return (_spliced(text, found, replace), found) if found else (text, [])


def _spliced(text: str, found: list[Secret], replace: Any) -> str:
    """`text` with each of the secrets `found` (in order, apart) replaced by `replace(kind)`."""
    out, pos = [], 0
    for s in found:
        out.append(text[pos : s.start])
        out.append(replace(s.kind))
        pos = s.end
    out.append(text[pos:])
    return "".join(out)


def mask_text(text: str) -> str:
    """`text` with every secret replaced by its marker."""
    return mask(text)[0]


#: Words a reply may open with before its value: "it's 4471", "sure, kettle42pond".
_REPLY_OPENING = re.compile(
    r"(?:(?:it'?s|it’s|it is|it was|that'?s|that is|sure|ok(?:ay)?|yes|yeah|yep|of course|"
    r"the code is|the password is)\b[\s,:.-]*)*",
    re.I,
)
_LEAD_CHARS = 160
#: A question about something else than the value: "what year did you change the door
#: code?", "how long is the PIN?", "did you reset the password?" (its reply is no secret).
_ASKS_OTHER = re.compile(
    r"^(?:(?:and|so|ok(?:ay)?|thanks|great|right|also|then)\b[\s,.!]*)*"
    r"(?:when|why|who|whose|where|how|did|does|do|has|have|had|was|were|is|are|"
    r"should|what\s+(?:year|time|day|date|month|kind|sort|type|colou?r|happened))\b",
    re.I,
)


def asks_for_secret(lead: str) -> str | None:
    """The part of `lead` that asks for a secret or leads into one ("What's the code for the
    key safe?", "And the wifi password?", "my bank PIN is"), for `mask_answer`; None when
    it asks for none: most texts, one closed by a full stop (it states, it does not ask),
    and a question about something else than the value ("how long is the PIN?")."""
    tail = lead[-_LEAD_CHARS:].rstrip()
    if not tail or tail[-1] in ".!" or not may_hold_secret(tail):
        return None  # closed by a full stop, or no word a secret needs
    tail = _SENTENCE_END.split(tail.rstrip(" \t\n?:"))[-1].strip()
    if not may_hold_secret(tail) or (lead.rstrip().endswith("?") and _ASKS_OTHER.match(tail)):
        return None
    return tail


def mask_answer(asked: str, text: str, *, replace: Any = marker) -> tuple[str, list[Secret]]:
    """`text` with the value it gives in reply to `asked` (what `asks_for_secret` returned
    for the text before it) replaced by its marker, and those secrets: "What's the code for
    the key safe?" then "4471", "my bank PIN is" then "8823". The two are read as one ("the
    code for the key safe: 4471"), and only what falls in `text` is masked; `text`'s own
    secrets are left to `mask`."""
    more = _replied(asked, text) if text.strip() else []
    return (_spliced(text, more, replace), more) if more else (text, [])


def _replied(tail: str, text: str) -> list[Secret]:
    """The secrets `text` gives in reply to `tail` (`asks_for_secret`), by their place in
    `text`: the two read as one, only what falls in `text` kept."""
    opening = _REPLY_OPENING.match(text).end()  # type: ignore[union-attr]
    joined = f"{tail}: {text[opening:]}"
    cut = len(tail) + 2
    return [
        Secret(x.kind, max(x.start, cut) - cut + opening, x.end - cut + opening)
        for x in find_secrets(joined)
        if x.end > cut and not _MARKER.search(joined, x.start, x.end)
    ]


def mask_value(value: Any) -> Any:
    """A JSON-like value (str, list, dict, numbers) with every string in it masked, keys
    included; the same object when nothing changed."""
    if isinstance(value, str):
        return mask(value)[0]
    if isinstance(value, dict):
        items = [(mask_value(k), mask_value(v)) for k, v in value.items()]
        if all(k is k0 and v is v0 for (k, v), (k0, v0) in zip(items, value.items(), strict=True)):
            return value
        return dict(items)
    if isinstance(value, list | tuple):
        out = [mask_value(v) for v in value]
        return value if all(a is b for a, b in zip(out, value, strict=True)) else type(value)(out)
    return value


def path_secret(path: str) -> tuple[str, list[Secret]]:
    """The path with each secret in it spelled as a slug (`secret-aws-access-key`), and the
    secrets found; `(path, [])` when it holds none. Paths holding one are refused by the
    store (`doctree.store.paths.normalize_path`), and this is the name the refusal shows."""
    return mask(path, replace=slug)
