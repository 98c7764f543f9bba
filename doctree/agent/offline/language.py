"""How people say things: names, tense, person, acceptance, requests to forget, kinds of entity.

Rules of English the offline agent applies to a sentence before deciding what it is about:
who "I" and "he" are, whether "on Monday" is behind or ahead, whether a capitalised word
names a person, an organisation, a place or a pet, and how to restate a first-person
sentence as a statement about its subject ("I prefer tea" -> "The user prefers tea").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from doctree import stopwords
from doctree.agent.offline.lexicon import title_word
from doctree.agent.offline.memo import SIZE, remembered, remembered_up_to
from doctree.agent.offline.prefilter import gate_patterns

#: One capitalised name word, accents included ("Lucía", "Zoë", "O'Brien", "Anne-Marie").
_UP = "A-ZÀ-ÖØ-ÞĀĂĄĆČĎĐĒĖĘĚĞĪĮİĶĹĻĽŁŃŅŇŌŐŒŔŘŚŞŠŢŤŪŮŰŲŹŻŽ"
_LOW = "a-zß-öø-ÿā-ž"
NAME_WORD = rf"[{_UP}][{_LOW}]+(?:[-'’][{_UP}][{_LOW}]+)?"
TITLE = r"(?:Dr|Mr|Mrs|Ms|Mx|Prof|Sr|Sra|Srta|Mme|Mlle|Herr|Frau|Dott|Dra)\.?\s+"
NAME = rf"(?:{TITLE})?{NAME_WORD}(?:\s+{NAME_WORD})?"


def ascii_slug_text(name: str) -> str:
    """`Lucía` -> `Lucia`: accents dropped, for page slugs people can type."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


# -- words ----------------------------------------------------------------------------------

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)  # fmt: skip
#: A day, month and year run together, as a logbook, a ticket or a form writes them:
#: "23MAR31", "04-May-2031" (the month in capitals or capitalised, never in lower case).
COMPACT_DATE = re.compile(
    r"\d{1,2}(?P<sep>-?)(?:"
    + "|".join(f"{m[:3].upper()}|{m[:3].capitalize()}" for m in MONTHS)
    + r")(?P=sep)(?:\d{4}|\d{2})"
)
#: A day written in ISO form ("2031-06-10"), its year, month and day.
ISO_DAY = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
WEEKDAY = "(?:" + "|".join(WEEKDAYS) + ")"
#: A month, whole or by its first three letters ("Jan", "Sept" too): "jan(?:uary)?|...".
MONTH_OR_ABBREVIATION = (
    "(?:"
    + "|".join(
        m[:3] + (r"(?:t(?:ember)?)?" if m == "september" else rf"(?:{m[3:]})?") for m in MONTHS
    )
    + ")"
)
#: How people shorten a weekday when they text ("next thurs", "Sat 3rd", "Mon: gym"), by
#: index (Monday 0). Most are ordinary words too ("I sat down", "the sun", "they wed"), so
#: one is read as a day only where nothing else fits (`resolve`).
WEEKDAY_ABBREVIATIONS = {
    "mon": 0, "tue": 1, "tues": 1, "wed": 2, "weds": 2, "thu": 3, "thur": 3, "thurs": 3,
    "fri": 4, "sat": 5, "sun": 6,
}  # fmt: skip
#: A weekday, whole or shortened (a shortened one may end with its dot: "Thurs.").
WEEKDAY_OR_ABBREVIATION = (
    "(?:"
    + "|".join(WEEKDAYS)
    + "|(?:"
    + "|".join(sorted(WEEKDAY_ABBREVIATIONS, key=lambda w: (-len(w), w)))
    + r")\b\.?)"
)


def weekday_number(word: str) -> int:
    """Monday 0 ... Sunday 6, of a weekday's name whole or shortened ("Thurs." is 3)."""
    low = word.lower().rstrip(".")
    return WEEKDAYS.index(low) if low in WEEKDAYS else WEEKDAY_ABBREVIATIONS[low]


#: Month and weekday names of the languages most often mixed into English chat (Spanish,
#: French, German, Italian, Portuguese), by number (January 1) and index (Monday 0): a date
#: said in one ("el sábado 22 de abril", "le 3 mars", "am 3. März") is a date all the same.
_GERMAN_MONTHS = (
    "januar februar märz april mai juni juli august september oktober november dezember"
)
#: Month names written capitalised in their language (German nouns): "am 3. März".
CAPITALISED_MONTHS = {m.capitalize() for m in _GERMAN_MONTHS.split()}
FOREIGN_MONTHS = {
    name: i + 1
    for names in (
        "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
        "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
        _GERMAN_MONTHS,
        "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre "
        "dicembre",
        "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro",
    )
    for i, name in enumerate(names.split())
}
FOREIGN_WEEKDAYS = {
    name: i
    for names in (
        "lunes martes miércoles jueves viernes sábado domingo",
        "lundi mardi mercredi jeudi vendredi samedi dimanche",
        "montag dienstag mittwoch donnerstag freitag samstag sonntag",
        "lunedì martedì mercoledì giovedì venerdì sabato domenica",
        "segunda terça quarta quinta sexta sábado domingo",
    )
    for i, name in enumerate(names.split())
    if names.split()[0] != "segunda" or i >= 5  # "segunda", "quarta" are ordinary words too
}
#: The days of the week in those languages and Dutch, by index (Monday 0): what a day said
#: again in another language is ("training is vanaf nu dinsdag" names Tuesday). Dates are
#: not read from the Dutch ones.
WEEKDAYS_ANY_LANGUAGE = FOREIGN_WEEKDAYS | {
    name: i
    for i, name in enumerate(
        ["maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag", "zondag"]
    )
}
#: Capitalised words that name nobody: sentence openers, days, months, greetings.
NOT_NAMES = {
    *(w.capitalize() for w in WEEKDAYS), *(w.capitalize() + "s" for w in WEEKDAYS),
    *(m.capitalize() for m in MONTHS), "I", "The",
    # a month shortened ("from Feb"); not "Jan", "Mar", "Jun", "Jul", which are names too
    "Feb", "Apr", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec",
    # a weekday shortened ("Sat 3rd"); not "Sun", which is a name too
    *(w.capitalize() for w in WEEKDAY_ABBREVIATIONS if w != "sun"),
    "We", "It", "This", "That", "These", "Those", "Thanks", "Thank", "Yes", "No", "Sure",
    "Also", "And", "But", "So", "Then", "Today", "Tomorrow", "Tonight", "Yesterday", "Next",
    "Last", "OK", "Ok", "Okay", "Good", "Great", "Please", "Let", "Our", "My", "His", "Her",
    "Their", "You", "Your", "He", "She", "They", "Me", "Us", "Them", "A", "An", "In", "On",
    "At", "For", "If", "When", "Hi", "Hey", "Hello", "Morning", "Evening", "Afternoon",
    "Back", "Quick", "Note", "Notes", "Remember", "Actually", "Correction", "Team",
    "Everyone", "All",
    "Update", "Reminder", "Todo", "Status", "Agenda", "Summary", "Context", "Background",
    "Problem", "Question", "Answer", "Edit", "Rule", "Change", "Plan", "Idea", "Decision",
    "Action", "Big", "Bad", "News", "Hmm", "Aww", "Wow", "Honestly", "Before", "After",
    "Can", "Could", "Would", "Should", "Will", "What", "Why", "How", "Where", "Who", "Not",
    "Just", "Still", "Anyway", "Btw", "Fyi", "Ps", "Dear", "Cheers", "Regards", "Congrats",
    # said in "thank God", "God knows", "oh my God": an exclamation, no one to keep a page on
    "God",
}  # fmt: skip


#: The fields of a mail's header (RFC 5322): "From: Karim Haddad" names no speaker "From".
MAIL_HEADER = re.compile(r"(?:From|To|Cc|Bcc|Subject|Date|Sent|Reply-To|Received|Attachments?)")


_POSSESSIVE = re.compile(r"['\u2019]s$", re.I)


def _words(text: str) -> list[str]:
    """The words of `text` (three characters or more), a possessive's "'s" taken off:
    "Mira's pregnancy" speaks of Mira. Only a word whose next-to-last character is an
    apostrophe can end on one, and only such a word is searched: each word of a sentence
    is a text of its own, which the cheap test in front of a pattern would scan."""
    return [
        _POSSESSIVE.sub("", w) if w[-2] in "'\u2019" else w
        for w in re.findall(r"[\w'\u2019-]{3,}", text)
    ]


@remembered
def content_words(text: str) -> set[str]:
    """The words that say what `text` is about: names, and longer words that are not filler."""
    return {
        w.lower()
        for w in _words(text)
        if (len(w) >= 4 or w[:1].isupper()) and w.lower() not in stopwords.FILLER
        and w.lower() not in _GENERIC
    }  # fmt: skip


#: A thing to forget named as a value that no longer holds: "my old number", "the previous
#: address", "her former employer".
OLD_VALUE = re.compile(r"\b(?:old|previous|former|earlier)\b", re.I)


def named_words(text: str) -> set[str]:
    """The content words of `text` and its words of two letters ("GP", "ex"): what a line
    must say of the names a request to forget gives."""
    return content_words(text) | {w.lower() for w in _short_words(text)}


def forget_words(what: str) -> set[str]:
    """The words a thing to forget is said by: its content words or, when it has none (a
    short word named with its article: "the cat", "my van", "the GP"), the words that are
    not filler, so that a thing called by a short word is let go of as a longer one is."""
    if words := content_words(what):
        return words
    return {
        w.lower()
        for w in [*_words(what), *_short_words(what)]
        if w.lower() not in stopwords.FILLER
        and w.lower() not in stopwords.ENGLISH
        and w.lower() not in _GENERIC
    }


def _short_words(text: str) -> list[str]:
    """The words of two letters of `text` ("ex"), which `_words` leaves out."""
    return re.findall(r"\b[^\W\d_]{2}\b", text)


def thing_words(text: str) -> set[str]:
    """The words that name a thing said of a person ("dad" of "Priya's dad", "car" of "Sam's
    car"): its content words or, when it has none, its words of three letters or more that
    are not filler, so that the thing is told from the rest of what was said of them."""
    return content_words(text) or {
        w.lower()
        for w in [*_words(text), *_short_words(text)]
        if w.lower() not in stopwords.FILLER
        and w.lower() not in stopwords.ENGLISH
        and w.lower() not in _GENERIC
    }


_GENERIC = {
    "time", "thing", "things", "stuff", "what", "said", "about", "that", "this", "anything",
    "everything", "prefer", "prefers", "like", "likes", "rather", "want", "wants", "decided",
    "going", "instead", "anymore", "user", "team", "changed", "change", "mind", "minds", "now",
    "would", "have", "after", "last", "first", "when", "book", "flights",
}  # fmt: skip


def stem(word: str) -> str:
    """A word without the endings that inflect it, for telling that two forms say the same
    thing ("drinking", "drinks" and "drink" are "drink"; "moving" and "move" "mov"): "-ing",
    "-ed" is taken off while three letters stay, "-es" or "-s" while four do ("news" stays
    "news"), then a final "e"."""
    w = word.lower()
    for ending in ("ing", "ed", "es", "s"):
        if w.endswith(ending) and len(w) - len(ending) >= (3 if ending[0] in "ie" else 4):
            w = w[: -len(ending)]
            break
    return w[:-1] if w.endswith("e") and len(w) >= 4 else w


def mentions(text: str, words: set[str]) -> bool:
    """Whether `text` holds at least half of `words` (and one at least), in any of their
    forms ("the drinking" is said by "he drinks")."""
    have = {stem(w) for w in _words(text)} | {w.lower() for w in _short_words(text)}
    hits = len({stem(w) for w in words} & have)
    return hits >= max(1, (len({stem(w) for w in words}) + 1) // 2)


def _kindred(a: str, b: str) -> bool:
    """Whether two words of seven letters or more are forms of one ("pregnancy",
    "pregnant"): they share their first six letters and differ only after them."""
    return len(a) >= 7 and len(b) >= 7 and a[:6] == b[:6] and a[:7] == b[:7]


def concerns(text: str, words: set[str], persons: tuple[str, ...]) -> bool:
    """Whether `text` says a thing (its content `words`, in any of their forms) as it
    concerns one of `persons`: every word of the thing, or one at least beside a person's
    name ("Ravi lent dad £2,000 towards the stairlift" says "the stairlift money" of Ravi;
    "the stairlift is fitted on Monday" does not)."""
    said = {w.lower() for w in _words(text)}
    have = {stem(w) for w in said} | {w.lower() for w in _short_words(text)}
    stems = {stem(w) for w in words}
    # "pregnancy" is said by "pregnant": long words sharing their first six letters
    hits = {w for w in stems if w in have or any(_kindred(w, h) for h in have)}
    named = any(content_words(p) <= said for p in persons if content_words(p))
    if not hits and named:
        # beside the person's name, a word spelt as a child or a phone spells it ("his
        # dady" of "her dad"): a word it opens, one or two letters longer
        hits = {w for w in stems if len(w) >= 3 and any(_spelt_longer(w, h) for h in said)}
        # or cut short as notes cut it ("temp" of "temperature", "info" of "information")
        hits |= {w for w in stems if any(_clipped(w, h) for h in said)}
        return bool(hits)
    if not hits:
        return False
    # a relative of theirs ("Priya's sister") is said only beside them: "my sister" is another
    kin = all(
        (k := KIN.fullmatch(f"my {w}")) is not None and k["rel"].lower() == w.lower() for w in words
    )
    return (hits == stems and not kin) or named


def _clipped(word: str, said: str) -> bool:
    """Whether `said` is `word` cut short, as a note cuts it: its first four letters or
    more, three letters or more left off ("temp" of "temperature")."""
    return len(said) >= 4 and word.startswith(said) and len(word) - len(said) >= 3


def _spelt_longer(word: str, said: str) -> bool:
    """Whether `said` is `word` with one or two letters more at its end ("dady", "daddy")."""
    return said.startswith(word) and 0 < len(said) - len(word) <= 2


# -- tense ----------------------------------------------------------------------------------

_PAST = re.compile(
    r"\b(?:was|were|did|had|went|met|came|saw|got|told|said|left|took|made|gave|spent|found|"
    r"thought|heard|sent|bought|paid|ran|ate|knew|felt|kept|lost|won|wrote|began|became|"
    r"brought|caught|sold|sat|stood|forgot|drove|flew|fell|held|built|slept|woke|chose|broke|"
    r"spoke|grew|"
    # other irregular pasts that are no noun, name or adjective as well (not "bit", "lit",
    # "rose", "shot", "stole", "meant": "a bit", "Rose", "is meant to")
    r"rang|sang|sank|swam|drank|shrank|sprang|stung|clung|flung|swung|threw|blew|froze|"
    r"forgave|fought|taught|sought|swore|wept|crept|knelt|leapt|slid|shook|struck|swept|"
    r"strode|rode|fled|dealt|withdrew|overtook|mistook|undertook|arose|awoke|trod|spun|"
    r"shone|bled|dug|[a-z]{3,}ed)\b",
    re.I,
)
#: A verb in the past tense that a note opens on, its doer left unsaid ("Met Bridie at a
#: dance", "Moved to Leeds in 1990"): a closed list, as "-ed" alone also ends nouns ("bed").
PAST_VERB = re.compile(
    r"(?i:was|were|did|had|went|met|came|saw|got|told|said|took|made|gave|spent|found|"
    r"thought|heard|sent|bought|paid|ran|ate|knew|felt|kept|lost|won|wrote|began|became|"
    r"brought|caught|sold|sat|stood|forgot|drove|flew|fell|held|built|slept|woke|chose|broke|"
    r"spoke|grew|worked|moved|lived|started|joined|married|retired|studied|trained|served|"
    r"arrived|returned|emigrated|settled|stayed|played|taught)"
)
_NOT_PAST = re.compile(
    r"\b(?:will|shall|gonna|going\s+to|plan(?:s|ning)?\s+to|next|upcoming|let's|can\s+we|"
    r"could\s+we|should|need\s+to|want\s+to|excited|interested|tired|worried|scheduled|"
    r"planned|booked|supposed|used|based|married|needed|would|starting(?!\s+with\b)|"
    # "took the tile cutter today, due back on 10 May": what is owed is to come
    r"(?<!was\s)(?<!were\s)due)\b|'ll\b"
    r"|'d\s+(?:like|love|want|prefer|rather)\b"
    r"|\b(?:gets?|is|are|am)\s+(?:being\s+)?[a-z]{3,}ed\b"  # present passive: "gets switched off"
    # what is arranged: "I am to have the operation on the 9th", "she is to start in May"
    r"|\b(?:am|is|are)\s+(?:due\s+)?to\s+(?:have|be|start|go|see|get|come|take|begin|meet)\b"
    # a place or a ticket got for what is to come: "I got a place in the 10k on 8 June", "we
    # bought tickets for the play on 14 May", "signed up for the course on the 3rd"
    r"|\b(?:got|bought|reserved|secured|won)\s+(?:(?:a|an|the|two|three|four|\d+|our|my|some)\s+)?"
    r"(?:tickets?|place|spot|slot|seats?|booking|reservation|entry|pass|passes)\b"
    r"|\b(?:registered|signed\s+up|enrolled|entered\s+us)\s+(?:for|on|in)\b",
    re.I,
)


def names_day(phrase: str, name: str) -> bool:
    """Whether date `phrase` of a sentence is the day `name` names ("Hanukkah", "Easter
    Monday" of "Easter"): its words, an opening "on" or "the" aside, begin with the name's.
    A day counted from a person's event ("Tom's birthday") begins with the possessive, no
    word of its own."""
    words = re.sub(r"^(?:on|the|by|at|for|over)\s+", "", phrase.strip(), flags=re.I).split()
    said = name.split()
    return len(words) >= len(said) and [w.lower() for w in words[: len(said)]] == [
        w.lower() for w in said
    ]


def marked_not_past(text: str) -> bool:
    """Whether `text` holds a word that keeps it out of the past ("will", "starting", "'d
    like"), whatever verb it has or lacks."""
    return bool(_NOT_PAST.search(text))


#: "Sat" shortening a Saturday before its date ("Sat 12 Jan", "Sat. 3rd"): no verb "sat".
_SAT_DAY = re.compile(
    r"\bSat\.?(?=\s+\d{1,2}(?:st|nd|rd|th|\s*[/.-]\s*\d|\s+(?:jan|feb|mar|apr|may|jun|jul"
    r"|aug|sep|oct|nov|dec)))",
    re.I,
)


#: "left" as a side, not as a verb: "the left knee", "my left hand", "turn left".
_LEFT_SIDE = re.compile(r"\b(?:the|my|your|his|her|their|our|a|turn|keep|bear|far)\s+left\b", re.I)


#: "got" of "has got" / "'ve got" saying what one has, or must do ("he's got physio on the
#: 20th", "I've got to see the GP on Friday"): the present, no past tense; not "got" of a
#: present perfect that tells of something done ("she's got back", "we've got married").
_HAS_GOT = re.compile(
    r"(?:['’](?:s|ve)|\bha(?:s|ve))\s+got\b(?=\s+(?!(?:back|home|in|into|out|there|here|up|"
    r"off|on|over|through|away|married|engaged|divorced|lost|stuck|better|worse|ill|sick|used|"
    r"round|around|rid|caught|hurt|injured|paid|done|it)\b|[a-z]+(?:ed|en)\b)\w)",
    re.I,
)


def past_tense(sentence: str) -> bool:
    """Whether the sentence tells of something done ("I met Ana on Monday")."""
    sentence = _LEFT_SIDE.sub(" side", _SAT_DAY.sub("Saturday", sentence))
    sentence = _HAS_GOT.sub(lambda m: m.group(0)[:-3] + "has", sentence)
    return bool(_PAST.search(sentence)) and not _NOT_PAST.search(sentence)


# -- third person ---------------------------------------------------------------------------

_IRREGULAR_PAST = set(_PAST.pattern.split("(?:", 1)[1].split("|[a-z]", 1)[0].split("|")) | {
    "can", "could", "would", "should", "must", "might", "may", "will", "shall", "cannot",
    "can't", "couldn't", "wouldn't", "shouldn't", "didn't", "wasn't", "won't", "mustn't",
    "put", "let", "set", "cut", "hit", "read", "also", "really", "just", "still", "never",
    "always", "only", "finally", "actually", "usually", "often", "mostly", "now", "rather",
    "definitely", "even", "already", "recently", "probably",
    # irregular pasts the pattern above does not list ("I drew Dev" is not "drews")
    "arose", "awoke", "bent", "bit", "bled", "blew", "bred", "clung", "crept", "dealt", "dug",
    "drank", "drew", "dreamt", "fed", "fled", "fought", "flung", "forgave", "froze", "hid",
    "hung", "knelt", "laid", "led", "leapt", "learnt", "lent", "lit", "meant", "rode", "rang",
    "rose", "sang", "sank", "shook", "shone", "shot", "shrank", "slid", "smelt", "sped",
    "spelt", "spun", "spat", "sprang", "stole", "stuck", "stung", "stank", "strode", "struck",
    "swore", "swept", "swam", "swung", "taught", "tore", "threw", "trod", "understood", "wept",
    "wove", "withdrew", "overtook", "mistook", "undertook", "bought", "sought",
}  # fmt: skip
_ADVERBS = (
    "really|also|always|never|usually|still|just|actually|mostly|often|now|only|finally|"
    "definitely|even|already|recently|probably|much|strongly|sometimes|no\\s+longer|rarely|"
    "normally|generally|currently"
)


_NOT_PAST_ED = {
    "need", "feed", "seed", "speed", "bleed", "breed", "proceed", "succeed", "exceed", "heed",
    "shred", "embed", "wed", "bed",
}  # fmt: skip


def _third(verb: str) -> str:
    low = verb.lower()
    past = low.endswith("ed") and low not in _NOT_PAST_ED
    if low in _IRREGULAR_PAST or past or "'" in low or "’" in low:
        return {"don't": "doesn't", "haven't": "hasn't", "am": "is", "'m": "is"}.get(low, verb)
    if low == "have":
        return "has"
    if low in ("do", "go"):
        return verb + "es"
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ies"
    if re.search(r"(?:s|sh|ch|x|z|o)$", low):
        return verb + "es"
    return verb + "s"


#: The auxiliaries a question puts before its subject: "should I", "do I", "can I".
_INVERTING = {
    "do", "does", "did", "has", "doesn't", "hasn't", "can", "could", "should", "would", "will", "shall", "may", "might",
    "must", "have", "had", "was", "were", "don't", "didn't", "can't", "couldn't", "shouldn't",
    "wouldn't", "won't", "haven't", "wasn't", "weren't",
}  # fmt: skip

_AGREEING = {"do": "does", "have": "has", "don't": "doesn't", "haven't": "hasn't", "were": "was",
             "weren't": "wasn't"}  # fmt: skip


#: Words a question's inverted auxiliary can follow: "where do I", "so have I", "or do I".
_ASKS_BEFORE = {
    "what", "where", "when", "why", "how", "who", "whom", "which", "whose", "or", "and", "so",
    "but", "then", "if", "should", "why's",
}  # fmt: skip


def _opens_question(before: list[str]) -> bool:
    """Whether an auxiliary after the words `before` opens a question: at the start, after
    a stop or a comma, or after a question word ("where do I", "or should I")."""
    return (
        not before or bool(re.search(r"[^\w']$", before[-1])) or before[-1].lower() in _ASKS_BEFORE
    )


def _agree(m: re.Match) -> str:
    """A question's auxiliary before "I", as it reads before a third person: "do" -> "does"."""
    word = m.group()
    if not _opens_question(m.string[: m.start()].split()):
        return word  # "the things I do I love": no question
    new = _AGREEING[word.lower()]
    return new[:1].upper() + new[1:] if word[:1].isupper() else new


#: "I" as a word of its own: not the one of "co-I" or "PI-I".
_I = r"(?<![\w-])I"
#: "Jo and I", "my sister and I" opening a clause: one or two who do something with the user.
_WITH_I = (
    r"(?P<head>(?:^|(?<=[.!?;:,]\s)|"
    + "|".join(rf"(?<=\b{w}\s)" for w in ("that", "because", "so", "but", "when", "if"))
    + r")"
    r"(?:(?:[Mm]y|[Oo]ur|[Tt]he|[Hh]is|[Hh]er)\s+)?[\w'’-]+(?:\s+[A-Z][\w'’-]*)?\s+)"
    r"(?P<and>and|&)\s+" + _I
)
_WITH_I_HAVE = re.compile(_WITH_I + r"(?:'ve|’ve)\b")
_WITH_I_DOING = re.compile(_WITH_I + r"(?=\s)(?!\s+am\b)")  # "… and I am": the user alone


def third_person(text: str, subject: str = "the user") -> str:
    """`text` restated about `subject`: "I prefer tea" -> "the user prefers tea".

    First-person words (I, me, my, mine, myself) become the subject; the verb right after
    "I" (past an adverb or two) takes the third person. Quoted and code spans are left alone,
    and so is an "I" joined to a word before it ("co-I", a co-investigator).
    """
    poss = f"{subject}'s"

    def verb(m: re.Match) -> str:
        adverbs = m.group("adv") or ""
        before = m.string[: m.start()].split()
        if before and before[-1].lower().strip("(,") in _INVERTING and _opens_question(before[:-1]):
            # "should I get", "do I need", "will I": a question's inverted auxiliary keeps
            # the verb after the subject as it is ("should the user get")
            return f"{subject} {adverbs}{m.group('verb')}"
        return f"{subject} {adverbs}{_third(m.group('verb'))}"

    out = []
    for i, part in enumerate(re.split(r"(`[^`]*`|\"[^\"]*\"|“[^”]*”)", text)):
        if i % 2:
            out.append(part)
            continue
        # "Jo and I are", "I and Jo have": two who do it, the verb stays as said
        # (one who opens the clause: "I prefer tea and I go running" is two clauses)
        part = _WITH_I_HAVE.sub(rf"\g<head>\g<and> {subject} have", part)
        part = _WITH_I_DOING.sub(rf"\g<head>\g<and> {subject}", part)
        part = re.sub(_I + r"\s+and\s+(?=[A-Z]|(?:my|our|his|her|the)\s)", f"{subject} and ", part)
        part = re.sub(r"(?:^|(?<=[.!?]\s))[Mm]e\s+and\s+(?=[A-Z])", f"{subject} and ", part)
        part = re.sub(_I + r"(?:'m|’m| am)\b", f"{subject} is", part)
        part = re.sub(
            r"\b([Aa])m\s+" + _I + r"\b", lambda m: f"{'Ii'[m.group(1) == 'a']}s {subject}", part
        )
        part = re.sub(
            r"\b(?i:do|have|don't|haven't|were|weren't)(?=\s+" + _I + r"\b)", _agree, part
        )
        part = re.sub(_I + r"(?:'ve|’ve)\b", f"{subject} has", part)
        part = re.sub(_I + r"(?:'ll|’ll)\b", f"{subject} will", part)
        part = re.sub(_I + r"(?:'d|’d)\b", f"{subject} would", part)
        part = re.sub(
            _I + rf"\s+(?P<adv>(?:(?:{_ADVERBS})\s+){{0,2}})(?P<verb>[a-z][a-z'’]*)\b", verb, part
        )
        part = re.sub(_I + r"\b", subject, part)
        part = re.sub(r"\b[Mm]y\b", poss, part)
        part = re.sub(r"\bmine\b", poss, part)
        part = re.sub(r"\b(?:me|myself)\b", subject, part)
        out.append(part)
    result = "".join(out)
    return result[:1].upper() + result[1:] if result else result


# -- pronouns -------------------------------------------------------------------------------

FEMALE_RELATIONS = {
    "sister", "mum", "mom", "mother", "wife", "daughter", "aunt", "auntie", "niece", "grandma",
    "grandmother", "granny", "nana", "girlfriend",
}  # fmt: skip
MALE_RELATIONS = {
    "brother", "dad", "father", "husband", "son", "uncle", "nephew", "grandpa", "grandfather",
    "grandad", "granddad", "boyfriend",
}  # fmt: skip
PRONOUN = re.compile(r"\b(?P<p>he|she|him|his|her|hers)\b(?P<s>'s|’s)?", re.I)
_GENDER = {"he": "m", "him": "m", "his": "m", "she": "f", "her": "f", "hers": "f"}


def pronoun_gender(sentence: str) -> str | None:
    """'m' or 'f' for the first third-person pronoun of `sentence`, None without one."""
    m = PRONOUN.search(sentence)
    return _GENDER[m.group("p").casefold()] if m else None


def resolve_pronoun(sentence: str, name: str) -> str:
    """`sentence` with a leading pronoun replaced by `name`: "He's allergic" -> "Tomás is allergic"."""
    m = re.match(
        r"(?P<lead>(?:(?:and|but|so|also|oh|plus),?\s+)*)(?P<p>he|she|his|her)"
        r"(?P<s>['’]s)?(?P<will>['’]ll)?(?P<had>['’]d)?\b",
        sentence,
        re.I,
    )
    if not m:
        return sentence
    p = m.group("p").lower()
    if p in ("his", "her"):
        new = f"{name}'s"
    elif m.group("will"):
        new = f"{name} will"  # "She'll be in for three nights"
    elif m.group("had"):
        rest = sentence[m.end() :].lstrip()
        # "he'd already left", "she'd booked": had; "she'd like", "he'd rather": would
        had = re.match(r"(?:already|just|never|not|\w+ed|been|got|gone|had|done|left|made)\b", rest)
        new = f"{name} {'had' if had else 'would'}"
    elif m.group("s"):
        rest = sentence[m.end() :].lstrip()
        new = (
            f"{name} has"
            if re.match(r"(?:been|got|had|done|gone|made|left)\b", rest)
            else (f"{name} is")
        )
    else:
        new = name
    return sentence[: m.start("p")] + new + sentence[m.end() :]


# -- acceptance of what the assistant said -------------------------------------------------

_ACCEPT = re.compile(
    r"^(?:\W*(?:ah|oh|ugh|argh|damn|oof|ok|okay|right|hm+|well|great|nice|cool|perfect|yes|yeah|"
    r"yep|yup|sure),?\s*)*"
    r"(?:yes|yeah|yep|yup|sure|ok(?:ay)?|perfect|great|exactly|agreed|correct|right|nice|"
    r"makes\s+sense|that\s+makes\s+sense|that\s+works|sounds\s+good|go\s+(?:ahead|for\s+it)|"
    r"do\s+it|let's\s+do\s+(?:it|that)|good\s+(?:catch|call|idea|find|point)|that(?:'s|\s+was)\s+it|"
    r"that\s+fixed\s+it|it\s+worked|works\s+now|ship\s+it|lgtm|confirmed|"
    r"that\s+(?:worked|works|did\s+it|helped|did\s+the\s+trick)|it\s+works|thanks|thank\s+you|"
    # "Done, it's on channel 36 now", "Next.": what it found was acted on, or taken as read
    r"done|did\s+(?:it|that)|next(?=\s*[.!]?\s*$))\b",
    re.I,
)
#: A reply that opens on an emoji of approval: "👍", "👌", "✅", "🙌", "💯".
_THUMBS = re.compile(r"^\s*(?:\U0001F44D|\U0001F44C|\u2705|\U0001F64C|\U0001F4AF)")
_REJECT = re.compile(r"\b(?:no|not|but|wrong|doesn't|didn't|don't|isn't|nope|wait)\b", re.I)
FINDING = re.compile(
    r"\b(?:root\s+cause|the\s+(?:cause|culprit|issue|problem|bug)\s+(?:is|was)|caused\s+by|"
    r"because|the\s+fix\s+(?:is|was)|should\s+fix|would\s+fix|fixes\s+it|i\s+(?:suggest|recommend|"
    r"propose)|i'd\s+(?:suggest|recommend)|the\s+plan\s+is|the\s+answer\s+is|turns\s+out|"
    # "I'd also pin urllib3<3": what the assistant would do, a proposal the user may accept
    r"i(?:'d|\s+would)\s+(?:also\s+)?(?!be\b|love\b|like\b|say\b|guess\b|think\b|imagine\b)[a-z]+)\b",
    re.I,
)


OFFER = re.compile(
    r"\b(?:shall\s+i|should\s+i|want\s+me\s+to|do\s+you\s+want\s+me\s+to|would\s+you\s+like\s+me\s+to|"
    r"ok\s+to|okay\s+to|go\s+ahead|sound\s+good|does\s+that\s+work)\b[^.!]*\?$",
    re.I,
)


def rejects(reply: str) -> bool:
    """Whether a user's reply turns down what the assistant just said ("no, that's wrong")."""
    return bool(_REJECT.search(" ".join(reply.split()[:3])))


_CREDIT = re.compile(
    r"^\W*(?:(?:ah|oh|ok|okay|yes|yeah|wow|nice)\W+)*(?:good|great|nice)\s+(?:catch|find|spot|point)"
    r"|^\W*(?:(?:ah|oh|yes|yeah)\W+)*(?:you(?:'re|’re|\s+are)\s+right|that(?:'s|\s+was)\s+it|"
    r"that\s+(?:fixed|solved|sorted)\s+it|spot\s+on)\b",
    re.I,
)


#: The user telling that what the assistant found put it right: "I cleared them and it ran
#: fine", "works now", "that did the trick".
_WORKED = re.compile(
    r"\b(?:ran|runs|works|worked|went\s+through|passed)\s+(?:fine|again|ok|okay|perfectly|"
    r"without\s+(?:an?\s+)?(?:error|errors|problem|problems|issue|issues|hitch))\b|\bworks\s+now\b|\bthat\s+did\s+(?:it|the\s+trick)\b|"
    r"\bproblem\s+solved\b",
    re.I,
)


def credits(reply: str) -> bool:
    """Whether a user's reply credits the assistant with what it found ("good catch", "you're
    right", "that fixed it", "I cleared them and it ran fine"): more than thanks, it accepts
    what was said as found."""
    return (bool(_CREDIT.match(reply)) or bool(_WORKED.search(reply))) and not rejects(reply)


#: A reply that is only a "yes": "Yes.", "yep, exactly", "correct".
_CONFIRM = re.compile(
    r"\s*(?:yes|yep|yeah|yup|correct|exactly|right|that's\s+right|spot\s+on)\b[\s,.!]*"
    r"(?:exactly|correct|that's\s+right|spot\s+on)?[\s.!]*$",
    re.I,
)


def confirms(reply: str) -> bool:
    """Whether a user's sentence is only a "yes" to what the assistant just stated ("So the
    total is £8,090." / "Yes."): the statement is confirmed as said."""
    return bool(_CONFIRM.match(reply))


def accepts(reply: str) -> bool:
    """Whether a user's reply accepts what the assistant just said ("yes, go ahead")."""
    head = " ".join(reply.split()[:8])
    if _THUMBS.match(head):
        return True  # "👍", "👌 perfect"
    return bool(_ACCEPT.match(head)) and not _REJECT.search(" ".join(reply.split()[:3]))


def assistant_third_person(text: str) -> str:
    """An assistant's sentence as a statement: its "I" is the assistant, "you" the user."""
    text = re.sub(r"\byou(?:'re|’re)\b", "the user is", text, flags=re.I)
    text = re.sub(r"\byour\b", "the user's", text, flags=re.I)
    text = re.sub(r"\byou\b", "the user", text, flags=re.I)
    return third_person(text, "the assistant")


# -- forgetting -----------------------------------------------------------------------------

#: What a user calls what was just said when asking that it not be kept: "that", "it".
_IT = r"(?:that|this|it)"
#: Being kept, said of what was said: "written down", "kept", "on record", "in your notes".
_KEPT = (
    r"(?:written\s+down|written|kept|recorded|noted|saved|stored|remembered|logged|"
    r"on\s+(?:the\s+)?record|in\s+(?:your|the|my)\s+(?:notes|memory|records|files)|anywhere)"
)
#: Keeping, said of what was said: "keep", "write down", "put in your notes".
_KEEP = (
    r"(?:keep|remember|store|save|record|note|log|write\s+(?:it|that|this)\s+down|write\s+down|"
    r"put\s+(?:it|that|this)\s+(?:down|anywhere|in\s+(?:your|the)\s+notes))"
)
#: Where a request about "that" ends: the clause's end or a word that only closes it ("lol",
#: "please"), not a noun it was said of ("save that file").
_ENDS = r"(?=\s*(?:[.,;!?)…]|$|(?:lol|pls|please|thanks|ok|okay|either|too|x+)\b))"
#: Said indirectly, a request that what was just said not be kept: "I'd rather it just
#: wasn't written down", "let's keep that between us", "that's not for the record", "I don't
#: want that kept", "that shouldn't go in your notes", "no need to remember that".
_NOT_KEPT = (
    r"\bi(?:'d|’d|\s+would)\s+(?:rather|prefer)\s+(?:if\s+)?"
    # "I'd rather it just wasn't written down"
    rf"(?:{_IT}\s+(?:just\s+)?(?:wasn'?t|was\s+not|weren'?t|isn'?t|is\s+not|not|never)\s+"
    rf"(?:be\s+|get\s+|got\s+|just\s+)?{_KEPT}\b"
    # "I'd rather you didn't keep that", "I'd rather not have that written down" (never "I'd
    # rather not keep the car")
    r"|(?:you\s+)?(?:just\s+)?(?:didn'?t|did\s+not|don'?t|not|never)\s+"
    rf"(?:{_KEEP}(?:\s+{_IT})?\b{_ENDS}|(?:have|had|get|got)\s+{_IT}\s+{_KEPT}\b))"
    rf"|\b(?:let'?s|let\s+us)\s+keep\s+{_IT}\s+between\s+(?:us|ourselves|you\s+and\s+me)\b"
    rf"|\bkeep\s+{_IT}\s+(?:between\s+(?:us|ourselves|you\s+and\s+me)|to\s+yourself)\b"
    rf"|\b{_IT}(?:'s|’s|\s+is)\s+(?:just\s+)?between\s+(?:us|ourselves|you\s+and\s+me)\b"
    rf"|\b(?:can|could|would)\s+you\s+not\s+{_KEEP}\s+{_IT}\b{_ENDS}"
    rf"|\b(?:you|u)\s+(?:don'?t|do\s+not)\s+(?:need|have)\s+to\s+{_KEEP}\s+{_IT}\b{_ENDS}"
    rf"|\bdon'?t\s+(?:put|write)\s+{_IT}\s+(?:anywhere|in\s+(?:your|the)\s+notes)\b"
    r"|\bforget\s+i\s+(?:ever\s+)?(?:said|mentioned|told\s+you)\s+(?:that|it|anything)\b"
    rf"{_ENDS}"
    rf"|\b{_IT}\s+(?:stays|stay|remains|is\s+staying)\s+between\s+(?:us|ourselves|you\s+and\s+me)\b"
    rf"|\b{_IT}(?:'s|’s|s|\s+is)?\s*(?:not|n't|isn'?t)\s+for\s+(?:the\s+|your\s+)?"
    r"(?:record|notes|memory|files?|books)\b|\bnot\s+for\s+the\s+record\b"
    rf"|\bi\s+(?:don'?t|do\s+not)\s+want\s+(?:{_IT}\s+{_KEPT}|you\s+to\s+{_KEEP}\s+{_IT})\b"
    rf"|\b{_IT}\s+(?:shouldn'?t|should\s+not|mustn'?t|must\s+not|doesn'?t\s+need\s+to|"
    rf"does\s+not\s+need\s+to|needn'?t)\s+(?:be\s+|go\s+|get\s+)?{_KEPT}\b"
    rf"|\bno\s+need\s+to\s+{_KEEP}\s+{_IT}\b"
    # "don't need to remember lah", "no need to save": opening its sentence, of what was just
    # said, the object left unsaid (a short word that only closes the clause may follow)
    r"|(?:^|(?<=[,;:.!?]))\s*(?:(?:pls|please|so|oh|ah|ok|okay)\s+)*(?:you\s+|u\s+)?"
    rf"(?:don'?t|do\s+not|no)\s+need\s+(?:to\s+)?{_KEEP}(?:\s+\w{{1,3}})?\s*(?=[.,;!?…]|$)"
    # "the Kelvin thing, don't write down ah": a verb of noting down, its object unsaid
    r"|(?:^|(?<=[,;:.!?]))\s*(?:(?:pls|please|so|oh|ah|ok|okay|but)\s+)*"
    r"(?:don'?t|do\s+not|no)\s+(?:write|note|jot|put)\s+down(?:\s+\w{1,3})?\s*(?=[.,;!?…]|$)"
    rf"|\bpretend\s+i\s+(?:never\s+said|didn'?t\s+say|didn'?t\s+tell\s+you)\s+{_IT}\b"
    # "don't put any of that anywhere", "don't write any of that down", "don't keep any of
    # it": "any of" before what was just said
    r"|\bdon'?t\s+(?:put|write|keep|save|store|record|note|log|remember|jot)\s+(?:any|all)\s+of\s+"
    rf"{_IT}(?:\s+(?:anywhere|down|in\s+(?:your|the)\s+(?:notes|memory|records|files)))?\b{_ENDS}"
    # "keep that out of your notes", "keep all of this out of your memory" (of a memory's own
    # places only: "keep that out of the report" asks something else)
    r"|\bkeep\s+(?:(?:any|all)\s+of\s+)?"
    rf"{_IT}(?:\s+(?:bit|part|one))?\s+out\s+of\s+(?:your|the|my)\s+"
    r"(?:notes|memory|records?|files?|pages?)\b"
    # "none of that goes in your notes", "none of this should go anywhere"
    rf"|\bnone\s+of\s+{_IT}\s+(?:goes|should\s+go|is\s+going|can\s+go)\s+"
    r"(?:anywhere|in(?:to)?\s+(?:your|the)\s+(?:notes|memory|records|files))\b"
)
#: Requests to forget in the languages most often mixed into English chat (French, German,
#: Spanish, Dutch, Italian, Polish, Portuguese), each read the way the English ones are: a verb of
#: letting go with what was said about something ("oublie ce que je t'ai dit sur Marc",
#: "vergiss alles über Jonas", "borra todo lo que tienes sobre él", "vergeet wat ik zei over
#: Pieter", "dimentica quello che ti ho detto su Luca"), a request that nothing be kept about
#: it ("ne garde rien sur elle", "speicher nichts über ihn"), and one that what was just said
#: not be kept ("oublie ça", "das bleibt unter uns", "no lo apuntes", "sla dat niet op").
#: A negated verb ("n'oublie pas", "vergiss nicht", "no olvides") asks the opposite.
_FOREIGN_LET_GO = {
    "fr": r"(?<!n')(?<!n’)(?<!ne\s)(?:oublie[zs]?|efface[zs]?|supprime[zs]?|retire[zs]?|"
    r"enl[eè]ve[zs]?|raye[zs]?)(?!\s+(?:pas|jamais)\b)",
    "de": r"(?:vergiss|vergesst|vergessen\s+sie|lösche?|löscht|löschen\s+sie|streiche?|"
    r"entferne?)(?!\s+(?:(?:das|es|bitte)\s+)?nicht\b)",
    "es": r"(?<!no\s)(?:olvida|olvide|olvídate\s+de|olvidate\s+de|borra|borre|elimina|quita)",
    "nl": r"(?:vergeet|wis|verwijder|schrap)(?!\s+(?:(?:het|dat|dit)\s+)?niet\b)",
    "it": r"(?<!non\s)(?:dimentica|dimenticati\s+di|scorda|scordati\s+di|cancella|elimina|togli)",
    "pl": r"(?<!nie\s)(?:zapomnij|usuń|wymaż|skasuj)",
    "pt": r"(?<!não\s)(?:esquece|esqueça|esqueçe|apaga|apague|elimina|tira)",
}
#: The words that may stand between the verb and what it lets go of: "please", "everything",
#: "what I told you", "everything you have".
_FOREIGN_SAID = {
    "fr": r"(?:s'il\s+te\s+pla[iî]t\s+|stp\s+|svp\s+)?(?:tout\s+)?(?:ce\s+qu[e'’]\s*(?:je\s+(?:t['’]|vous\s+)?"
    r"\s*ai|j['’]ai|tu\s+as|tu\s+sais|vous\s+avez|vous\s+savez)(?:\s+(?:dit|écrit|raconté|noté|"
    r"mis|gardé|retenu))?\s+)?",
    "de": r",?\s*(?:bitte\s*,?\s*)?(?:(?:alles|das)\s*,?\s*)?(?:was\s+(?:ich|du|sie)\s+(?:dir\s+|ihnen\s+|mir\s+)?)?",
    "es": r"(?:por\s+favor\s+)?(?:todo\s+)?(?:(?:lo|aquello|eso|esto)\s+que\s+(?:te\s+|le\s+)?(?:dije|conté|comenté|escribí|"
    r"tienes|sabes|guardaste|apuntaste)\s+)?(?:lo\s+)?",
    "nl": r"(?:alsjeblieft\s+|aub\s+|even\s+)?(?:alles\s*,?\s*)?(?:wat\s+(?:ik|je|jij|u)\s+(?:je\s+|jou\s+|u\s+)?"
    r"(?:zei|vertelde|schreef|heb\s+gezegd|heb\s+verteld|hebt|weet)?\s*)?",
    "it": r"(?:per\s+favore\s+)?(?:tutto\s+)?(?:(?:quello|ciò|questo|quel)\s+che\s+(?:ti\s+|le\s+)?(?:ho\s+detto|"
    r"ho\s+scritto|ho\s+raccontato|sai|hai)\s+)?",
    "pl": r"(?:proszę\s+)?(?:wszystko\s+)?(?:(?:to\s*,?\s*)?co\s+(?:ci\s+)?(?:pisałam|pisałem|mówiłam|"
    r"mówiłem|powiedziałam|powiedziałem)\s+)?",
    # "o que", "aquilo que", "isso que": what was said, named by any demonstrative
    "pt": r"(?:por\s+favor\s+)?(?:tudo\s+)?(?:(?:o|aquilo|isso|isto)\s+que\s+(?:eu\s+)?(?:te\s+|lhe\s+|vos\s+)?"
    r"(?:disse|contei|falei|escrevi|mencionei|tens|sabes)\s+)?",
}
#: "About": what a request lets go of follows it.
_FOREIGN_ABOUT = {
    "fr": r"(?:sur|à\s+propos\s+d[e'’]|au\s+sujet\s+d[e'’]|concernant)",
    "de": r"(?:über|von|zu)",
    "es": r"(?:sobre|de|acerca\s+de|respecto\s+a)",
    "nl": r"(?:over|van)",
    "it": r"(?:su\s+di|su|sul|sulla|sui|sulle|di|riguardo\s+a|a\s+proposito\s+di)",
    "pl": r"(?:o)",
    "pt": r"(?:sobre|acerca\s+d[eoa]|d[eoa])",
}
#: What was said, named as a thing, and what joins it to its subject: "le truc de Hugo",
#: "die Sache mit Jonas", "lo de Marta", "dat verhaal over Pim", "la storia di Luca".
_FOREIGN_THING = {
    "fr": r"(?:le|la|les|l['’]|ce|cette|ces)\s*(?:truc|trucs|histoire|histoires|partie|passage|infos?|"
    r"bout|détails?)\s+(?:de|du|des|d['’]|sur|avec|concernant)",
    "de": r"(?:das|die|den|dem)\s+(?:ding|sache|teil|geschichte|zeug|infos?)\s+(?:mit|über|von|zu)",
    "es": r"(?:lo|la|el|eso|esa|ese)\s+(?:de|del|cosa\s+de|historia\s+de|tema\s+de|parte\s+de)",
    "nl": r"(?:dat|het|die|de)\s+(?:ding|verhaal|stuk|gedoe|gedeelte|info)\s+(?:over|van|met)",
    "it": r"(?:la|quella|quel|il|lo)\s+(?:cosa|storia|parte|faccenda)\s+(?:su|di|del|della|con)",
    "pl": r"(?:to|tę|ten)\s+(?:sprawę|historię|rzecz)\s+(?:o|z)",
    "pt": r"(?:a|o|aquela|aquele|essa|esse)\s+(?:coisa|história|parte|assunto)\s+(?:de|do|da|sobre|com)",
}
#: "Keep nothing about it": a keeping verb and "nothing" with what is not to be kept.
_FOREIGN_KEEP_NOTHING = {
    "fr": r"\bne\s+(?:garde|gardez|note|notez|retiens|retenez|enregistre|enregistrez|conserve|"
    r"conservez|mets|mettez)\s+rien",
    "de": r"\b(?:speicher|speichere|speichern\s+sie|behalte|behalten\s+sie|notier|notiere|"
    r"merk\s+dir|schreib)\s+(?:bitte\s+)?nichts",
    "es": r"\bno\s+(?:guardes|guarde|apuntes|apunte|anotes|anote|registres|recuerdes)\s+nada",
    "nl": r"\b(?:bewaar|onthoud|noteer|sla|schrijf)\s+(?:alsjeblieft\s+)?niets",
    "it": r"\bnon\s+(?:salvare|tenere|annotare|segnare|registrare|ricordare)\s+niente",
    "pl": r"\bnie\s+(?:zapisuj|zapamiętuj|trzymaj)\s+nic",
    "pt": r"\bnão\s+(?:guardes|guarde|anotes|anote|registes|registe|salves|salve)\s+nada",
}
#: What was just said, not to be kept: "oublie ça", "ne le note pas", "que ça reste entre nous".
_FOREIGN_NOT_KEPT = {
    "fr": r"\b(?:oublie[zs]?|efface[zs]?|supprime[zs]?)\s+(?:ça|cela|ceci)\b|\boublie[zs]?[- ]le\b|"
    r"\boublie[zs]?\s+que\s+je\s+(?:te|vous)\s+l['’]ai\s+(?:dit|écrit)\b|"
    r"\bne\s+(?:le|la|l['’])\s*(?:garde|note|retiens|enregistre|mets)z?\s+pas\b|"
    r"\bne\s+(?:garde|note|retiens|enregistre)z?\s+pas\s+(?:ça|cela)\b|"
    r"\bgarde[zs]?[- ](?:le|la|ça)\s+pour\s+(?:toi|vous)\b|\breste\s+entre\s+nous\b|"
    r"\bc['’]est\s+entre\s+nous\b|\bn['’](?:enregistre|écris)[sz]?\s+pas\s+(?:ça|cela)\b",
    "de": r"\b(?:vergiss|lösche?|streiche?)\s+(?:das|es|dies)\b(?!\s+(?:bitte\s+)?nicht)|"
    r"\b(?:speicher|speichere|behalte|notier|notiere|merk\s+dir|schreib)\w*\s+(?:das|es|dies)\s+"
    r"(?:bitte\s+)?nicht\b|\b(?:bitte\s+)?nicht\s+(?:aufschreiben|speichern|notieren|merken)\b|"
    r"\bbleibt\s+unter\s+uns\b|\bbehalte\s+(?:das|es)\s+für\s+dich\b|\bist\s+unter\s+uns\b",
    "es": r"\b(?:olvida|borra)\s+(?:eso|esto)\b|\b(?:olvídalo|olvidalo|bórralo|borralo)\b|"
    r"\bolvida\s+que\s+te\s+lo\s+(?:dije|he\s+dicho|conté)\b|"
    r"\bno\s+(?:lo|la)\s+(?:guardes|apuntes|anotes|registres)\b|"
    r"\bno\s+(?:guardes|apuntes|anotes|registres)\s+(?:eso|esto)\b|\bquede\s+entre\s+nosotros\b|"
    r"\bolv[ií]date\s+de\s+(?:eso|esto)\b|\bes\s+entre\s+nosotros\b",
    "nl": r"\b(?:vergeet|wis)\s+(?:dat|dit)\b(?!\s+niet)|"
    r"\b(?:bewaar|onthoud|noteer|sla|schrijf)\s+(?:dat|dit|het)\s+(?:alsjeblieft\s+|maar\s+)?niet\b|"
    r"\b(?:blijft|is)\s+(?:tussen|onder)\s+ons\b|\bhou(?:d)?\s+(?:dat|het)\s+voor\s+je(?:zelf)?\b",
    "it": r"\b(?:dimentica|cancella)\s+(?:questo|quello|ciò)\b|\b(?:dimenticalo|cancellalo)\b|"
    # "forget I told you": "dimentica che te l'ho detto", "scordati che te l'ho detto"
    r"(?<!non\s)\b(?:dimentica|dimenticati|scorda|scordati)\s+che\s+te\s+l['’]ho\s+(?:detto|scritto)\b|"
    r"\bnon\s+(?:salvare|annotare|segnare|registrare|tenere)\s+(?:questo|quello|ciò)\b|"
    r"\bnon\s+(?:lo|la)\s+(?:salvare|annotare|segnare|registrare)\b|\bnon\s+salvarlo\b|"
    r"\brest[ia]\s+tra\s+(?:noi|di\s+noi)\b",
    "pl": r"\b(?:zapomnij|usuń)\s+(?:to|o\s+tym)\b|\bnie\s+(?:zapisuj|notuj)\s+tego\b|"
    r"\bzostanie\s+między\s+nami\b",
    "pt": r"\b(?:esquece|esqueça|apaga|apague)\s+(?:isso|isto)\b|"
    r"\b(?:esquece|esqueça)\s+que\s+(?:eu\s+)?(?:te|lhe)\s+(?:disse|contei)\b|"
    r"\bnão\s+(?:guardes|guarde|anotes|anote|salves|salve)\s+(?:isso|isto)\b|"
    r"\bnão\s+(?:o|a)\s+(?:guardes|anotes|salves)\b|\bfica\s+entre\s+nós\b",
    # Afrikaans: "moenie dit neerskryf nie", "vergeet daarvan", "hou dit tussen ons"
    "af": r"\bmoenie\s+(?:dit|daardie|hierdie|daarvan|hiervan)\s+(?:\w+\s+)?"
    r"(?:neerskryf|opskryf|skryf|onthou|stoor|hou|bewaar|noteer|aanteken)\b|"
    r"\b(?:skryf|stoor|onthou|bewaar)\s+dit\s+(?:asseblief\s+)?nie\b|"
    r"\bvergeet\s+daarvan\b|\b(?:bly|hou\s+dit)\s+tussen\s+ons\b",
}
#: Where what a foreign request lets go of ends: a verb of saying or having after it ("…
#: über Jonas gesagt habe", "… over hem hebt"), "please", a new clause.
_FOREIGN_END = (
    r"(?=\s+(?:gesagt|erzählt|geschrieben|hast|habe|hab|weißt|weisst|wissen|haben|hebt|heb|weet|"
    r"gezegd|verteld|stp|svp|s'il|bitte|por\s+favor|porfa|alsjeblieft|aub|per\s+favore|proszę|"
    r"please|pls|parce|car|mais|alors|weil|denn|aber|porque|pero|omdat|want|maar|perché|poiché|"
    r"ma|dus|also|bo|ale)\b|\s*[.,;!?:)]|\s*$)"
)
FOREIGN_FORGET_ABOUT = re.compile(
    "|".join(
        rf"\b{_FOREIGN_LET_GO[lang]}\s*{_FOREIGN_SAID[lang]}"
        rf"(?:{_FOREIGN_THING[lang]}|{_FOREIGN_ABOUT[lang]})\s*(?P<what_{lang}>[^.,;!?:]+?){_FOREIGN_END}"
        rf"|{_FOREIGN_KEEP_NOTHING[lang]}\s+{_FOREIGN_ABOUT[lang]}\s+"
        rf"(?P<nothing_{lang}>[^.,;!?:]+?){_FOREIGN_END}"
        for lang in _FOREIGN_LET_GO
    ),
    re.I,
)
_FOREIGN_THAT = "|".join(_FOREIGN_NOT_KEPT.values())
#: "And" in those languages: "Pieter en zijn vrouw" is Pieter and his wife.
_FOREIGN_AND = re.compile(r"\s+(?:et|und|y|en|e|i)\s+", re.I)
#: "The", "my", "his" in those languages, before what a request names.
FOREIGN_DETERMINER = re.compile(
    r"^(?:l['’]|(?:le|la|les|mon|ma|mes|son|sa|ses|der|die|das|den|dem|mein|meine|meinen|sein|"
    r"seine|el|los|las|mi|mis|su|sus|het|mijn|zijn|haar|il|lo|gli|mio|mia|miei|suo|sua|o|a|os|as|"
    r"meu|minha)\s+)",
    re.I,
)


#: What was just said, taken back as untrue: "that was a joke", "I was only kidding", "that's
#: not true, ignore it" (not "that was a joke of a meeting", nor a question).
UNTRUE = re.compile(
    r"(?:^|(?<=[,;:.!—–-])\s*|\b(?:oh|ok|okay|lol|haha|sorry|but|and|no|nah|actually)[,\s]+)"
    r"(?:(?:that|it|this)(?:'s|’s|\s+was|\s+is)\s+(?:just\s+|only\s+)?"
    r"(?:a\s+joke(?!\s+of)|a\s+wind-?up|made\s+up|not\s+true|untrue|a\s+lie|a\s+prank)"
    r"|i\s+was\s+(?:just\s+|only\s+)?(?:joking|kidding|winding\s+you\s+up|making\s+(?:it|that)\s+up))"
    r"\b(?![^.!]*\?)",
    re.I,
)
FORGET_THAT = re.compile(
    r"\b(?:forget|scratch|disregard|delete|remove|erase|drop|strike)\s+(?:about\s+)?"
    r"(?:that|this|it|what\s+i\s+(?:just\s+)?said)\b(?!\s+about)"
    # (also in the progressive imperative: "don't be keeping that", "don't be putting that
    # down")
    r"|\bdon'?t\s+(?:keep|remember|store|save|record|note|write\s+down|hang\s+on\s*to|"
    r"hold\s+on\s*to|hold\s+onto|be\s+(?:keeping|remembering|storing|saving|recording|"
    r"noting|writing\s+down))\s+(?:that|this|it)\b"
    r"|\bdon'?t\s+(?:write|put|note|jot|be\s+(?:writing|putting|noting|jotting))\s+"
    r"(?:that|this|it)\s+down\b"
    r"|\bnever\s*mind\s+(?:that|what\s+i\s+said)\b|\boff\s+the\s+record\b"
    # "don't you keep that either", "don't make a note of that", "don't log that", "leave that
    # out of your notes" (not "don't you remember that?", nor "leave that out of the report")
    rf"|\bdon'?t\s+you\s+(?:keep|store|save|record|note|log)\s+{_IT}\b{_ENDS}(?![^.!]*\?)"
    rf"|\bdon'?t\s+(?:make|take)\s+(?:a\s+)?note\s+of\s+{_IT}\b{_ENDS}"
    rf"|\bdon'?t\s+log\s+{_IT}\b{_ENDS}"
    r"|\bleave\s+(?:that|this)(?:\s+(?:bit|part|one))?\s+out\b(?:\s+of\s+(?:your|the|my)\s+"
    rf"(?:notes|memory|records?|files?))?{_ENDS}"
    # "wipe that", "bin that lol": other verbs of letting go, of "that" alone
    r"|(?:^|(?<=[,;:.!?—–-])\s*|\b(?:pls|please|just|and|so|ok|okay|now|yeah|actually)\s+"
    r"|\b(?:can|could|would)\s+you\s+)"
    rf"(?:wipe|scrap|ditch|bin|lose|scrub|nuke|unsave)\s+(?:all\s+(?:of\s+)?)?{_IT}\b{_ENDS}"
    # "forget all of that", "delete all that": all of what was just said
    rf"|\b(?:forget|scratch|disregard|delete|remove|erase|drop|strike)\s+all\s+(?:of\s+)?{_IT}\b{_ENDS}"
    rf"|{_NOT_KEPT}|{_FOREIGN_THAT}|{UNTRUE.pattern}",
    re.I,
)
#: A sentence's words before "forget that" that only speak of having said it ("I shouldn't
#: have said that, forget it", "ugh, too much information, don't keep that", "sorry, I
#: didn't mean to tell you that"): they say nothing of their own, and "that" is what was
#: said before them.
REGRETS_SAYING = re.compile(
    r"^\W*(?:(?:oh|ugh|argh|hmm|sorry|oops|actually|wait|god|jeez|ok|okay|no|honestly|"
    r"and|but|so|look)[,.!\s]+)*"
    r"(?:i\s+(?:really\s+)?(?:shouldn'?t|should\s+not|should\s+never)\s+have\s+"
    r"(?:said|told\s+you|mentioned|shared|written|typed)"
    r"|i\s+(?:didn'?t|did\s+not|never)\s+mean\s+to\s+(?:say|tell\s+you|share|mention|type)"
    r"|i\s+(?:regret|take\s+back)\s+(?:saying|telling\s+you|sharing|mentioning)"
    r"|(?:that(?:'s|’s|\s+was|\s+is)\s+)?(?:(?:way\s+)?too\s+much\s+info(?:rmation)?|tmi|"
    r"(?:an?\s+|my\s+)?overshar(?:e|ing))"
    r"|(?:that\s+)?(?:wasn'?t|was\s+not|isn'?t|is\s+not)\s+(?:mine|my\s+(?:news|story|secret))"
    r"\s+to\s+(?:tell|share))"
    r"(?:\s+(?:that|this|it|all\s+that|any\s+of\s+(?:that|it)))?"
    r"(?:\s+(?:sorry|lol|tbh|honestly))?[\s,.;:!—–-]*"
    r"(?:(?:so|and|please|pls|just|(?:can|could)\s+you|you\s+can)\s*)*$",
    re.I,
)
#: Words a sentence may open on before an aside: "ok so, off the record: …".
_ASIDE_OPENERS = (
    r"^\W*(?:(?:ok(?:ay)?|so|and|but|also|btw|oh|right|now|anyway|well|look|listen|just|one\s+more"
    r"\s+thing)[,\s]+)*"
)
#: Saying that what is said is not for keeping: "off the record", "between us", "in
#: confidence", "not for your notes" (with "this is", "strictly", "totally" before it).
_ASIDE = (
    r"(?:(?:this\s+is|this\s+bit\s+is|this\s+part\s+is|strictly|totally|completely|purely|just)"
    r"\s+)*(?:off\s+the\s+record|between\s+(?:us|ourselves|you\s+and\s+me)|in\s+confidence|"
    r"confidentially|for\s+your\s+ears\s+only|not\s+for\s+(?:the|your)\s+(?:notes|record|memory|"
    r"files))"
)
#: What follows is not to be kept, said before it: the aside opens the sentence and what it
#: covers comes after a colon, comma or dash ("off the record: …", "between us, …",
#: "confidentially — …"), or the aside is a sentence of its own ending on a colon, or it names
#: what follows ("don't save this next bit", "don't write down the following", "what I'm
#: about to tell you stays between us").
_AHEAD = re.compile(
    rf"{_ASIDE_OPENERS}(?:{_ASIDE}\s*(?:[:,—–]|\s-\s|\.\.\.|…)"
    # said without a stop before what it covers, in words that are only ever an aside:
    # "Between you and me she's cutting her hours" (not "between us we spent £40")
    r"|(?:(?:this\s+is\s+)?(?:strictly|just|totally)\s+)?(?:between\s+you\s+and\s+me|"
    r"off\s+the\s+record|confidentially|in\s+confidence|(?:strictly|just)\s+between\s+"
    r"(?:us|ourselves))\s(?=(?:i|i'm|i've|we|we're|he|he's|she|she's|they|they're|my|our|"
    r"his|her|their)\b))\s*(?P<rest>.*)$"
    r"|\b(?:please\s+)?(?:don'?t|do\s+not|no\s+need\s+to|you\s+(?:don'?t|do\s+not)\s+need\s+to)"
    r"\s+(?:save|keep|store|record|note|log|remember|write\s+down|jot\s+down)\s+"
    r"(?:this\s+next\s+(?:bit|part|thing|one)|the\s+next\s+(?:bit|part|thing|one|few\s+\w+)|"
    r"the\s+following|what\s+follows|what\s+i'?m\s+(?:about|going)\s+to\s+(?:say|tell\s+you|"
    r"write))\b\s*[:,.!—–-]*\s*(?P<rest2>.*)$"
    r"|\bwhat\s+i'?m\s+(?:about|going)\s+to\s+(?:say|tell\s+you)\s+(?:is|stays|should\s+stay)\s+"
    rf"{_ASIDE}\s*[:,.!—–-]*\s*(?P<rest3>.*)$"
    # "keep this between us: …", "this stays between you and me — …": "this" names what the
    # colon or dash opens (said without one, "keep this between us" is about what came before)
    rf"|{_ASIDE_OPENERS}(?:(?:(?:let'?s|let\s+us|please|pls)\s+)?keep\s+this(?:\s+(?:bit|part|one))?"
    r"|this(?:\s+(?:bit|part|one))?\s+(?:stays|should\s+stay|remains|has\s+to\s+stay))\s+"
    r"(?:between\s+(?:us|ourselves|you\s+and\s+me)|to\s+yourself)\s*(?:[:—–]|\s-\s)\s*"
    r"(?P<rest4>\S.*)$"
    # "don't write this down: …", "please don't save this — …": "this" names what the colon,
    # dash or dots open (said without one, "don't save this" is about what came before)
    r"|\b(?:please\s+)?(?:don'?t|don’t|do\s+not|no\s+need\s+to)\s+(?:save|keep|store|record|"
    r"note|log|remember|write|jot|put)\s+(?:this|this\s+(?:bit|part|one))(?:\s+down)?"
    r"(?:\s+(?:please|pls))?\s*(?:[:—–]|\s-\s|\.\.\.|…)\s*(?P<rest5>.*)$",
    re.I,
)
#: An aside said alone as the message's first sentence ("Off the record." / "Between us:").
_AHEAD_ALONE = re.compile(rf"{_ASIDE_OPENERS}{_ASIDE}\s*[.!:]?\s*$", re.I)
#: Back on the record: "back on the record", "you can save this again", "anyway, for the
#: notes: …" — what follows it is kept again.
_ASIDE_ENDS = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|right|anyway|so)[,\s]+)*(?:back\s+on\s+the\s+record|on\s+the\s+record"
    r"\s+(?:again|now)|end\s+of\s+(?:the\s+)?aside|(?:you\s+)?can\s+(?:save|keep|note|remember|"
    r"write\s+down)\s+(?:(?:this|that|the\s+rest|from\s+here(?:\s+on)?)(?:\s+again)?|again)|"
    r"for\s+the\s+(?:notes|record))"
    r"\b\s*[:,.!—–-]*\s*",
    re.I,
)


def aside_ahead(sentence: str, first: bool) -> str | None:
    """What of `sentence` a request said before it keeps out of memory, when the sentence
    opens such a request ("Off the record: I'm looking for another job" -> "I'm looking for
    another job"; "" when the request is all of it and what it covers is the sentences after
    it). An aside said alone ("Off the record.") looks ahead only as the message's `first`
    sentence: after something said, "this is between us" is about what came before. None
    when the sentence opens no aside."""
    if (m := _AHEAD.search(sentence)) is not None:
        rests = (m["rest"], m["rest2"], m["rest3"], m["rest4"], m["rest5"])
        return next((g for g in rests if g is not None), "")
    if _AHEAD_ALONE.match(sentence) and (first or sentence.rstrip().endswith(":")):
        return ""
    return None


def aside_ends(sentence: str) -> str | None:
    """What a sentence that ends an aside says after its words ("Back on the record: the
    party is at 7" -> "the party is at 7"), or None when it ends none."""
    m = _ASIDE_ENDS.match(sentence)
    return None if m is None else sentence[m.end() :]


#: What a request to forget is said of: "what I told you", "everything I said".
_SAID = (
    # (one group: what follows it follows each way of saying it)
    r"(?:(?:(?:what|that|(?:the|that|this)\s+(?:thing|stuff|bit|story|business|news)"
    r"(?:\s+(?:that|which))?)\s+)?i(?:'ve)?\s+(?:said|told\s+you|mentioned|shared|wrote|written)\s+"
    r"(?:(?:earlier|before|yesterday|last\s+time|the\s+other\s+day)\s+)?"
    # "that thing wey I tell you about …": a demonstrative, a noun and any word joining the
    # clause, the verb of telling unmarked for the past as many Englishes leave it
    r"|(?:that|this)\s+(?-i:[a-z]+)\s+(?:(?-i:[a-z]+)\s+)?i\s+(?:said|told\s+you|tell\s+you|"
    r"mentioned)\s+"
    # what someone else said, told or wrote: "what Ria said about …", "what my sister sent
    # about …" (not "what you said": the assistant's own words are no line of the user's)
    r"|(?:what|whatever|everything|anything)\s+(?:(?-i:[A-Z])[\w'’-]*|he|she|they|"
    r"(?:my|our)\s+[\w'’-]+)\s+(?:said|told\s+(?:you|me|us)|mentioned|shared|wrote|posted|"
    r"sent|texted|messaged)\s+)"
)
#: Verbs that ask for memory to be cleared only with an object such as "everything": "clear
#: out everything about him", not "I'm not clear about the dates".
_CLEAR = r"(?:wipe|clear(?:\s+out)?|scrub|purge|get\s+rid\s+of)"
#: Where a user says memory is: "from whatever you've got", "out of your notes".
_MEMORY = (
    r"(?:from|out\s+of)\s+(?:your\s+|the\s+|my\s+)?(?:memory|notes|records|files|pages|"
    r"whatever\s+you(?:'ve|\s+have)?\s+(?:got|have|keep|know)|"
    r"(?:everything|anything|wherever|anywhere)\s+you(?:'ve|\s+have)?\s+(?:got|have|keep|know))"
)
FORGET_ABOUT = re.compile(
    r"\b(?:forget|delete|erase|remove|drop|scratch|scrap)\s+(?:everything\s+|anything\s+|all\s+)?"
    rf"(?:{_SAID})?(?:anything\s+|everything\s+|that\s+(?=about\b))?"
    # "forget the bit about Fen", "delete that part about the move"
    r"(?:(?:the|that|this)\s+(?:bits?|parts?|stuff|things?|story|news|details?|info|mention)\s+)?"
    r"(?:about|abt|bout)\s+(?P<what>(?:[^.,;!?]|,\s*(?=(?-i:[A-Z])|(?:and|or)\s))+)"
    r"|\bdon'?t\s+(?:keep|remember|store)\s+(?:anything\s+)?about\s+(?P<what2>[^.,;!?]+)"
    r"|\b(?:forget|delete|erase|remove|drop|scratch)\s+(?:all\s+)?(?:the|my|our|that)\s+"
    r"(?P<what3>[^.,;!?]+?)\s+(?:stuff|things?|bits?|business|details|part|story)\b"
    # "Forget INV-2027-034 completely" (only "forget": "delete the old branch completely" is
    # about files, not memory)
    r"|(?<!n't\s)(?<!not\s)\bforget\s+(?!about\b|that\b|this\b|it\b)"
    r"(?P<what4>[^.,;!?]+?)\s+(?:completely|entirely|altogether|for\s+good|from\s+(?:your\s+)?memory)\b"
    # "clear out everything I told you about him"
    # "wipe whatever you've got on him"
    rf"|\b{_CLEAR}\s+(?:everything|anything|all|whatever)\s+(?:{_SAID})?"
    r"(?:you(?:'ve|\s+have)?\s+(?:have|know|keep|got)\s+)?"
    r"(?:about|on)\s+(?P<what5>[^.,;!?]+)"
    # "wipe him from whatever you've got", "delete Tobias from your notes"
    rf"|\b(?:{_CLEAR}|forget|delete|erase|remove|drop)\s+(?P<what6>[^.,;!?]+?)\s+{_MEMORY}"
    # "take the Whitby trip out altogether"
    r"|\b(?:take|leave|cut)\s+(?P<what7>[^.,;!?]+?)\s+out\s+altogether\b"
    # "I was only kidding about the Lisbon move": what was said of it, taken back as untrue
    r"|\bi\s+was\s+(?:just\s+|only\s+)?(?:joking|kidding)\s+about\s+(?P<what9>[^.,;!?]+)"
    # "I take back what I said about the move": what was said of it, taken back
    r"|\b(?:i\s+)?take\s+back\s+(?:what|everything|anything|all)\s+(?:that\s+)?i\s+(?:said|told\s+you|"
    r"mentioned|wrote)\s+(?:earlier\s+|before\s+)?(?:about|on|regarding)\s+(?P<what16>[^.,;!?]+)"
    # "never mind what I said about the move", "please ignore what I told you about it": what
    # was said of it, let go of (the words said, not the thing: "ignore the noise" asks none)
    r"|\b(?:never\s+mind|ignore|disregard)\s+(?:what|everything|anything|all)\s+(?:that\s+)?"
    r"i(?:'ve)?\s+(?:said|told\s+you|mentioned|wrote)\s+(?:earlier\s+|before\s+)?"
    r"(?:about|on|regarding)\s+(?P<what17>[^.,;!?]+)",
    re.I,
)
#: What is said about something, as a thing to keep or let go of: "the stuff about Ravi",
#: "the bit on the loan", "any mention of the move" (not a document's "section" or
#: "paragraph", which a user edits with the assistant).
_INFO = (
    r"(?:bits?|parts?|stuff|things?|story|news|details?|info(?:rmation)?|mentions?|business|"
    r"talk|notes?|lines?|entry|entries)"
)
#: Verbs that ask for something to be let go of ("scrub", "lose", "strike"), and those that
#: do so with "out" or "off" ("take … out", "leave … out", "keep … out of it").
_LET_GO = (
    r"(?:forget|delete|erase|remove|drop|scratch|scrap|scrub|wipe|strike|purge|lose|ditch|bin|"
    r"unlearn|get\s+rid\s+of|clear\s+out|clear)"
)
_LET_GO_OUT = r"(?:take|leave|keep|cut|cross|rub|strike|scratch)"
#: The object of such a verb when it is what was said, not a thing in the world: "the stuff
#: about X", "everything on X", "any mention of X" (-> X); "the X stuff" (-> X).
_SAID_OF = (
    r"(?:(?:everything|anything|all|whatever)\s+(?:else\s+)?"
    r"(?:you(?:'ve|\s+have)?\s+(?:got|have|know|keep)\s+)?"
    rf"|(?:all\s+)?(?:the|that|this|those|these|any|my|our)\s+"
    rf"(?:(?:last|first|whole|earlier|other|old)\s+)?{_INFO}\s+|{_INFO}\s+"
    # "all mention of the lawsuit", "any record of my therapy"
    r"|(?:all|any|every)\s+(?:records?|traces?|mentions?)\s+)"
    r"(?:about|on|of|regarding|concerning|re)\s+(?P<what>[^.,;!?]+?)"
    rf"|(?:all\s+)?(?:the|that|this|those|these|any|my|our)\s+(?P<what2>(?:[^\s.,;!?]+\s+){{1,4}}?){_INFO}"
    # "take out what I told you about X": what was said, named as said
    rf"|{_SAID}(?:about|on|of|regarding|concerning)\s+(?P<what8>[^.,;!?]+?)"
    # "delete the part where I mentioned my debt"
    r"|(?:the|that)\s+(?:part|bit)\s+where\s+i\s+(?:mentioned|said|told\s+you\s+about|"
    r"talked\s+about|brought\s+up)\s+(?P<what11>[^.,;!?]+?)"
)
#: Where memory is, named before what is let go of: "strike from your record what I wrote of
#: the new post", "take out of your notes the bit about the loan".
_FROM_MEMORY = r"(?:from|out\s+of|off)\s+(?:your|the|my)\s+(?:memory|notes|records?|files|pages)\s+"
#: The kinds of a person's details: what "wipe my old address" names.
_PERSONAL_DATUM = (
    r"(?:address|addresses|(?:phone|mobile|cell|landline|home|work|contact)\s+numbers?|"
    r"e-?mail\s+address(?:es)?|e-?mails?\s+addresses|postcode|zip\s*code|date\s+of\s+birth|"
    r"birthday|surname|maiden\s+name|username|contact\s+details|details)"
)
_OUT = r"(?:out|off)(?:\s+of\b|\s*(?=[.,;!?]|$)|\s+(?:altogether|completely|entirely|please)\b)"
#: Where such a request ends: "… out", "… from your notes", "… please", the clause's end.
_ASKED_END = (
    # a word that ends it starts a word of its own ("the tattoo" does not end on "too")
    rf"(?=\s*(?:\b(?:{_OUT}|from\s+(?:your|the|my|memory|there|it|everything|whatever|all)\b|"
    r"altogether|completely|entirely|for\s+good|too|as\s+well|either|anywhere|please|thanks|"
    r"if\s+you\s+(?:can|could|would|don't\s+mind))|[.,;!?)]|$)|\s+(?:pls|plz|ta)\b)"
)
#: Keeping asked against, before its verb: "don't", "I'd rather you didn't", "no need to",
#: "I don't want you (to)".
_KEEPING_ASKED_AGAINST = (
    r"(?:\b(?:please\s+)?(?:don'?t|do\s+not)|\bi'?d\s+rather\s+you\s+(?:didn'?t|did\s+not)|"
    r"\bi'?d\s+prefer\s+(?:it\s+if\s+)?you\s+(?:didn'?t|did\s+not)|"
    r"\bi'?d\s+prefer\s+you\s+not\s+to|"
    r"\bno\s+need\s+(?:for\s+you\s+)?to|\bi\s+don'?t\s+want\s+you(?:\s+to)?|"
    r"\byou\s+(?:don'?t|do\s+not)\s+need\s+to)\s+"
)
#: A request to let go of what was said about something, in any of the ways people ask it:
#: "scrub the stuff about Ravi and the stairlift money", "can you lose the bit about the
#: loan", "take the Lisbon stuff out", "strike everything on the move", "don't keep anything
#: on Tom", "nothing about the divorce in there please". Only as a request to the assistant
#: (`_ASKING` before it): "I have to drop the stuff about pricing" is the user's own task.
FORGET_ASKED = tuple(
    re.compile(pattern, re.I)
    for pattern in (
        rf"(?P<verb>{_LET_GO})\s+(?:{_SAID_OF}){_ASKED_END}",
        rf"(?P<verb>{_LET_GO_OUT})\s+(?:out\s+|off\s+)(?:{_SAID_OF}){_ASKED_END}",
        rf"(?P<verb>{_LET_GO_OUT})\s+(?:{_SAID_OF})\s+(?={_OUT})",
        rf"(?P<verb>{_LET_GO_OUT}|{_LET_GO})\s+{_FROM_MEMORY}(?:{_SAID_OF}){_ASKED_END}",
        rf"(?P<dont>{_KEEPING_ASKED_AGAINST}(?:keep|remember|store|save|record|note|log|"
        r"hold\s+on\s*to|hang\s+on\s*to|hold\s+onto|write\s+down|put\s+down|note\s+down)"
        rf"(?:ing)?\s+)(?:{_SAID_OF}){_ASKED_END}",
        # "take him off everything", "keep Ana out of your notes": a person or thing taken
        # out of what memory holds
        rf"(?P<verb>{_LET_GO_OUT}|{_LET_GO})\s+(?P<what4>[^.,;!?]{{1,40}}?)\s+(?:off|out\s+of|from)\s+"
        r"(?:everything|all\s+of\s+(?:it|that)|(?:your|the|my)\s+(?:notes|memory|records|files|"
        # "take Dario off your list": the assistant's own list is what memory holds (not
        # "the list" or "my list", a guest list or a rota the user keeps)
        r"pages)|your\s+lists?|memory|whatever\s+you(?:'ve|\s+have)?\s+(?:got|have|keep))\b",
        # "wipe the old address", "forget my work number": a piece of what a person told about
        # themselves or someone, named by its kind (not "wipe the staging disk", a thing in
        # the world; not "delete" or "drop", which edit a draft or a plan)
        r"(?P<verb>wipe|scrub|purge|erase|forget)\s+(?P<what10>(?:my|our|the|(?-i:[A-Z])[\w-]*['’]s)\s+"
        rf"(?:[\w'’-]+\s+){{0,3}}?{_PERSONAL_DATUM}){_ASKED_END}",
        # "Forget my salary.", "Please wipe my gym locker.": a thing of the user's let go of,
        # the request the whole sentence (not "forget my salary, the bonus is what counts",
        # which sets it aside in talk; not "did you forget my …?", a question)
        r"(?P<verb>wipe|scrub|purge|erase|forget)\s+(?P<what15>(?:my|our)\s+(?:[\w'’-]+\s+){0,2}?[\w'’-]+)"
        r"(?=\s*(?:,?\s*(?:please|thanks|thank\s+you))?\s*[.!]*\s*$)",
        # "please don't remember my weight", "I'd rather you didn't keep my salary": keeping
        # asked against, of a thing of the user's ("save" aside: "don't save my seat")
        rf"(?P<dont>{_KEEPING_ASKED_AGAINST}(?:keep|remember|store|record|hold\s+on\s*to|"
        r"hold\s+onto|hang\s+on\s*to|write\s+down|note\s+down)(?:ing)?\s+)"
        r"(?P<what12>(?:my|our)\s+(?:[\w'’-]+\s+){0,2}?[\w'’-]+)"
        rf"{_ASKED_END}",
        # "don't keep the keypad code", "don't store that PIN": a code or a key of anything
        rf"(?P<dont>{_KEEPING_ASKED_AGAINST}(?:keep|remember|store|save|record|hold\s+on\s*to|"
        r"hold\s+onto|hang\s+on\s*to|write\s+down|note\s+down)(?:ing)?\s+)"
        r"(?P<what15>(?:the|that|this|those|these)\s+(?:[\w'’-]+\s+){0,2}?"
        r"(?:codes?|pins?|passwords?|passcodes?|combinations?|tokens?|keys?|logins?)|"
        rf"(?:the|that|this)\s+(?:[\w'’-]+\s+){{0,2}}?{_PERSONAL_DATUM}){_ASKED_END}",
        # "don't keep his name", "please don't store their names": a person said before,
        # by a pronoun, kept out by name (the caller finds whom; "his" and "their" are read as
        # "him" and "them")
        rf"(?P<dont>{_KEEPING_ASKED_AGAINST}(?:keep|remember|store|save|record|write\s+down|"
        r"note\s+down)(?:ing)?\s+)(?P<what16>her|his|their)\s+(?:full\s+)?names?"
        rf"(?:(?=\s+or\s+any(?:thing|\s+\w+)\b)|{_ASKED_END})",
        # "forget I ever mentioned the interview", "pretend I never told you about the move"
        r"(?P<verb>forget|pretend)\s+(?:that\s+)?i\s+(?:ever\s+|even\s+|never\s+)?"
        r"(?:said|mentioned|told\s+you|brought\s+up|talked)\s+(?:anything\s+)?"
        rf"(?:about\s+|of\s+)?(?P<what13>[^.,;!?]+?){_ASKED_END}",
        # "I don't want her number or anything else about her kept": keeping asked against
        # in the passive, of what was said about someone or something
        r"(?P<dont>\bi\s+(?:don'?t|do\s+not)\s+want\s+(?:[^.;!?]*?\s)?)"
        rf"(?:{_SAID_OF})(?=\s+(?:kept|stored|saved|remembered|recorded|written\s+down|"
        r"noted(?:\s+down)?|on\s+(?:file|record))\b)",
        # "the loan thing with my brother is between him and me": a thing named as private
        # (what is said of it: "the choice is between him and me" is no secret)
        r"(?P<verb>)\b(?:the|that|this|my|our)\s+"
        r"(?=[^.,;!?]{0,60}?\b(?:stuff|things?|business|bits?|news|story|matter|situation)\b)"
        r"(?P<what14>[^.,;!?]{2,60}?)\s+(?:is|'s|stays?)\s+"
        r"(?:just\s+|strictly\s+|only\s+)?between\s+(?:him|her|them|you|us|[A-Z]\w+)"
        r"(?:\s+and\s+me)?(?=\s*(?:[.,;!?]|$|\s+(?:so|please|ok|okay)\b))",
        r"(?P<verb>(?:nothing|no\s+(?:mention|record|notes?|trace|lines?))\s+)"
        r"(?:about|on|of|regarding)\s+(?P<what3>[^.,;!?]+?)\s+"
        r"(?=(?:in\s+(?:there|here|it|memory|writing|(?:your|the|my)\s+(?:notes|memory|pages|"
        r"records|files))|please|thanks)\b)",
    )
)
_ASKED_GROUPS = (
    "what",
    "what11",
    "what2",
    "what3",
    "what4",
    "what8",
    "what10",
    "what12",
    "what13",
    "what14",
    "what15",
    "what16",
)
#: What comes just before a request addressed to the assistant: nothing, a clause's end, or
#: the words that ask ("please", "can you", "and", "just", "I'd like you to").
_ASKING = re.compile(
    r"(?:^|[,;:(—–-]|\b(?:please|kindly|pls|plz|and|so|also|just|then|oh|ok|okay|now|but|"
    r"actually|"
    r"yeah|yes|right|maybe|(?:can|could|would|will)\s+you|you\s+(?:can|could|should|might)|"
    r"(?:want|need|like)\s+you\s+to|go\s+ahead\s+and))\s*$",
    re.I,
)
#: After a request: the thing it names is in a document being edited, not in memory ("cut
#: the bit about pricing from the email").
_ELSEWHERE = re.compile(
    r"\s*(?:from|in|out\s+of|off)\s+(?:the|my|this|that|our|his|her)\s+"
    r"(?!notes\b|memory\b|records?\b|pages?\b|files\b|list\s+you)\w+",
    re.I,
)

#: A forget request's target that is a pronoun: whom it means is found in what came before.
PRONOUN_TARGET = re.compile(
    r"(?:him|her|them|he|she|they|lui|elle|eux|elles|ihn|ihm|sie|ihr|él|ella|ellos|ellas|hem|"
    r"haar|hen|lei|loro|niej|niego|nim|ele|dele|dela)",
    re.I,
)
#: Whom such a pronoun can mean, by gender: "elle", "haar", "ella" are a woman.
PRONOUN_TARGET_GENDER = {
    **dict.fromkeys(("him", "he", "lui", "ihn", "ihm", "él", "hem", "niego", "nim", "ele"), "m"),
    **dict.fromkeys(("her", "she", "elle", "sie", "ihr", "ella", "haar", "lei", "niej"), "f"),
}


WITHDRAWN = re.compile(
    r"\b(?:just\s+kidding|kidding|jk|don't\s+forget|actually\s+keep|no\s+wait)\b"
    # ("never mind what I said about …" is the request itself)
    r"|\bnever\s*mind\b(?!\s+(?:what|everything|anything|all)\s+(?:that\s+)?i(?:'ve)?\s)"
    # "keep it" that ends its clause ("keep it.", "keep it after all"), not "keep it to
    # myself" or "keep it quiet", which ask the opposite
    r"|(?<!n't\s)(?<!n’t\s)(?<!not\s)\bkeep\s+it\b"
    r"(?=\s*(?:[.,;!?)]|$|(?:then|after\s+all|actually|please|instead)\b))",
    re.I,
)
_KEEP_AFTER_ALL = (
    r"(?:(?:keep|leave|remember|save)\s+(?:it|that|this|them|those)"
    r"|(?:don'?t|don’t|do\s+not)(?:\s+(?:forget|delete|remove|erase|drop|wipe|scrap)"
    r"(?:\s+(?:it|that|this|them|those))?)?"
    r"|undo\s+(?:it|that|this)|cancel\s+that)"
)
#: A message that opens by taking back the request to forget just made ("Actually, keep
#: that.", "No wait, leave it.", "On second thought, remember it.", "Hmm, don't delete it
#: after all."): the whole sentence is the take-back, nothing else said in it ("keep it
#: short" or "leave it with me" ask something else).
TAKEN_BACK = re.compile(
    r"(?:(?:actually|no|nope|nah|wait|hang\s+on|hold\s+on|hmm+|oh|oops|sorry|ok(?:ay)?|um+|"
    r"on\s+(?:second|further)\s+thoughts?|second\s+thoughts?|thinking\s+about\s+it|"
    r"(?:i(?:'ve|\s+have)?\s+)?changed\s+my\s+mind|never\s*mind|scratch\s+that)"
    r"(?:\s*[,.!—–-]+\s*|\s+))*(?:please\s+)?"
    rf"{_KEEP_AFTER_ALL}(?:\s*,\s*{_KEEP_AFTER_ALL})*"
    r"(?:\s*,?\s+(?:then|after\s+all|actually|please|instead|in|there|as\s+it\s+was|"
    r"as\s+is|where\s+it\s+is|for\s+now|thanks|thank\s+you))*\s*[.!]*",
    re.I,
)
#: A sentence that is only an interjection before a take-back said in the next: "Wait, no."
#: then "Keep it."
TAKING_BACK = re.compile(
    r"(?:(?:actually|no|nope|nah|wait|hang\s+on|hold\s+on|hmm+|oh|oops|sorry|um+|"
    r"on\s+(?:second|further)\s+thoughts?|second\s+thoughts?|"
    r"(?:i(?:'ve|\s+have)?\s+)?changed\s+my\s+mind)(?:\s*[,.!—–-]+\s*|\s+|$))+",
    re.I,
)


def takes_back(opening: list[str]) -> bool:
    """Whether a message opening with these sentences takes back the request to forget made
    just before it: its first sentence is a take-back ("Actually, keep that."), or an
    interjection ("Wait, no.") and then one."""
    for i, sentence in enumerate(opening[:2]):
        if TAKEN_BACK.fullmatch(sentence.strip()):
            return True
        if i == 1 or not TAKING_BACK.fullmatch(sentence.strip()):
            return False
    return False


#: Where the thing to forget ends: a new clause ("... and delete his page", "..., he asked").
_CLAUSE_END = re.compile(
    r"\s+(?:but|so|because|since|as|he|she|they|it|too|as\s+well|either|also|please|now|"
    r"anymore|for\s+good|pls|plz|thx|thanks|ta|going\s+forward|from\s+now\s+on|in\s+future)\b.*$|\s+and\s+(?!(?-i:[A-Z])|(?:the|my|our|his|her|their)\s).*$",
    re.I,
)


_TARGET_GROUPS = (
    "what",
    "what2",
    "what3",
    "what4",
    "what5",
    "what6",
    "what7",
    "what9",
    "what16",
    "what17",
)


#: "Forget that she sleepwalks": "that" opens what is to be forgotten, a clause of its own (a
#: subject and what it does), not "that" of what was just said ("forget that, it's fine").
_FORGET_THAT_CLAUSE = re.compile(
    r"(?<!n't\s)(?<!not\s)\b(?:forget|scratch|delete|erase|remove|drop|strike|"
    # "please don't remember that my sister is pregnant": keeping asked against, of a clause
    r"(?:don'?t|do\s+not)\s+(?:remember|keep|note|store|record|save))\s+(?:the\s+fact\s+)?"
    r"that\s+(?P<what>(?:he|she|they|we|i|(?:my|his|her|their|our)\s+\w+|(?-i:[A-Z])\w+)"
    r"\s+(?!(?:said|told|mentioned|just|wrote|asked)\b)[a-z][^.,;!?]*)",
    re.I,
)


def forgets_clause(sentence: str) -> tuple[str, str] | None:
    """What "forget that she sleepwalks" asks to forget, as (subject, what is said of it):
    ("she", "sleepwalks"); None when the sentence asks no such thing."""
    m = _FORGET_THAT_CLAUSE.search(sentence)
    if m is None or not _ASKING.search(sentence[: m.start()]):
        return None
    what = _CLAUSE_END.sub("", m.group("what").strip()).strip()
    subject = re.match(r"(?:(?:my|his|her|their|our)\s+)?\w+", what, re.I)
    assert subject is not None  # the pattern opens with one
    said = what[subject.end() :].strip()
    return (subject.group(0), said) if said else None


#: A verb of letting go said negated: "don't forget …", "I can't forget …", "never delete …".
_NEGATED = re.compile(
    r"(?:\b(?:don'?t|don’t|do\s+not|can'?t|can’t|cannot|never|won'?t|won’t|didn'?t|"
    r"did\s+not|shouldn'?t|mustn'?t|not)\s+(?:ever\s+|just\s+|please\s+)?)$",
    re.I,
)


#: A forgetting said of someone, not asked of the assistant: "if I forget it", "I always
#: forget that", "in case we forget it" ("you can forget that" asks it of the assistant).
_SAID_OF_ONESELF = re.compile(
    r"\b(?:i|we|he|she|they)(?:'ll|’ll|'d|’d|\s+(?:will|would|might|may|could|can|"
    r"always|never|often|sometimes|usually|tend\s+to|keep|just|probably|definitely|won't|"
    r"wouldn't|can't|don't|didn't|do|did))*\s*$",
    re.I,
)

#: A question whether someone forgot, not a request: "did you forget about …", "have you
#: ever forgotten what …" ("can you forget …" asks it).
_ASKED_WHETHER = re.compile(
    r"\b(?:did|do|does|have|has|had)\s+(?:you|i|we|he|she|they)\s+(?:ever\s+|already\s+|just\s+)?$",
    re.I,
)


#: What follows a comma in a list of names: names only ("Ravi, Priya and the money"), up
#: to the next comma or "and"/"or".
_NAMES_ONLY = re.compile(r"(?-i:[A-Z])[\w'’.-]*(?:\s+(?-i:[A-Z])[\w'’.-]*)*", re.I)


def _list_end(what: str) -> str:
    """What a request names, up to where its list ends: after a comma the list goes on only
    with names ("about Ravi, Priya and the money"); a name that opens a clause of its own ends
    it there ("about Marcus, Jo says they split up" -> "Marcus")."""
    parts = what.split(",")
    for i, part in enumerate(parts[1:], start=1):
        if re.match(r"\s*(?:and|or)\s", part, re.I):
            break  # ", and the house sale": the list's last thing, whatever it is
        head = re.split(r"\s+(?:and|or|&)\s+", part.strip(), maxsplit=1)[0]
        if not _NAMES_ONLY.fullmatch(head):
            return ",".join(parts[:i])
    return what


#: Whose words a request takes back when they are someone else's: "what Ria said about".
_SAID_BY = re.compile(
    r"\b(?:what|whatever|everything|anything)\s+(?!I\s)(?P<name>(?-i:[A-Z])[\w'’-]*)\s+"
    r"(?:said|told\s+(?:you|me|us)|mentioned|shared|wrote|posted|sent|texted|messaged)\s",
    re.I,
)
#: What a "forget about …" names when it names what was just said: "forget about that",
#: "forget about all that", "forget about that bit", "forget about it (all)" — "it" is no
#: one's name — with a word that only closes the request after it ("… lol", "… please").
_JUST_SAID = re.compile(
    r"(?:all\s+)?(?:(?:that|this)(?:\s+(?:bit|part|one|stuff))?|it(?:\s+all)?)"
    r"(?:\s+(?:lol|haha|pls|plz|please|then|ok|okay|x+))*",
    re.I,
)


#: Someone before "don't …": what follows tells of them ("I don't remember that", "we
#: really don't keep it"), not of what the assistant is asked to do.
_SOMEONES_MEMORY = re.compile(
    r"\b(?:i|we|they|you)\s+(?:\w+ly\s+|just\s+|still\s+|even\s+)?$",
    re.I,
)


#: "to" before the verb, of anyone but the assistant: "she told me to forget it", "I tried to
#: forget about it", "he said to drop it" tell of what someone did or said (not "I want you
#: to forget that", "can you try to forget it").
_SOMEONE_ELSES_TO = re.compile(
    r"^(?!.*\b(?:can|could|would|will)\s+you\b)"
    # ("feel free to …", "make sure to …", "be sure to …" ask it)
    r".*\b(?<!you\s)(?<!free\s)(?<!sure\s)to\s+(?:just\s+|simply\s+)?$",
    re.I,
)


#: "Forget it" of a task the user gives up on or takes on themselves, not of what was said:
#: "forget it, I'll book it myself", "oh forget it, I'll ask someone else", "forget it, not
#: worth the hassle". Only "it" dismisses so ("forget that" names what was said).
_DISMISSING = re.compile(
    r"\b(?:forget|drop)\s+(?:about\s+)?it(?:\s+(?:then|lol|haha|ok|okay))?(?=\s*(?:[.,;:!…—–-]|$))",
    re.I,
)
#: What tells a dismissal from a request, said after "forget it": the user doing the task
#: themselves or having someone else do it ("I'll book it myself", "I'll ask someone else",
#: "I'll sort it tomorrow", "I'll figure it out"), or giving it up ("not worth the hassle",
#: "doesn't matter", "too expensive anyway", "no point", "I give up").
_DISMISSED = re.compile(
    r"^\W*(?:(?:oh|ah|ugh|nah|no|ok|okay|well|honestly|seriously|never\s*mind|nvm|it'?s|"
    r"that'?s|it\s+is|that\s+is|just|so|and|but|then)[,.!\s]+)*"
    r"(?:(?:i(?:'ll|’ll|\s+will|'m\s+going\s+to|\s+am\s+going\s+to|'d\s+better|\s+can|\s+guess\s+i'?ll)|"
    r"let\s+me|we(?:'ll|’ll|\s+will))\s+(?:just\s+|probably\s+|simply\s+)?"
    r"(?!tell|say|explain|mention)\w+"
    r"[^.;!?]*?\b(?:myself|ourselves|on\s+my\s+own|someone\s+else|somebody\s+else|"
    r"elsewhere|another\s+(?:time|day|way)|tomorrow|later|(?:figure|sort|work)\s+it\s+out)\b"
    r"|(?:i(?:'ll|’ll|\s+will)\s+(?:just\s+)?(?:manage|cope|live|figure\s+it\s+out|sort\s+it(?:\s+out)?))\b"
    r"|(?:(?:it'?s|that'?s|it\s+is|that\s+is|is)\s+)?not\s+worth\b"
    r"|(?:it\s+|that\s+)?(?:doesn'?t|does\s+not)\s+matter\b"
    r"|(?:(?:it'?s|that'?s|it\s+is|that\s+is|way)\s+)?too\s+(?:\w+)\b"
    r"|no\s+point\b|(?:what\s+a\s+)?waste\s+of\s+(?:time|money)\b|i\s+give\s+up\b"
    r"|(?:i\s+)?can'?t\s+be\s+bothered\b)",
    re.I,
)


#: The assistant offering to do something or asking whether to: "Shall I book somewhere?",
#: "Do you want me to find a hotel?", "Would you like some ideas?", "Want me to draft it?".
_OFFERS = re.compile(
    r"\b(?:(?:shall|should|can|could|may)\s+(?:i|we)|(?:do\s+you\s+)?want\s+me\s+to|"
    r"(?:would|do)\s+you\s+(?:like|want|need|prefer)|how\s+about|what\s+about|need\s+me\s+to|"
    r"would\s+it\s+help|(?:would|will)\s+that\s+help|is\s+it\s+worth|"
    r"(?:i|we)\s+(?:can|could)\b[^?]*\bif\s+you\s+(?:like|want))\b",
    re.I,
)
#: An offer about keeping what was said ("Shall I save that to your notes?", "Want me to
#: remember that?"): a "forget it" declining it asks that it not be kept.
_OFFERS_TO_KEEP = re.compile(
    r"\b(?:note|notes|noted|save|saved|keep|kept|remember|store|record|log|write|jot|add|"
    r"memory|memori[sz]e|forget|delete|remove|erase|drop)\b",
    re.I,
)
#: What may follow a "forget it" in its message without saying anything of its own: thanks,
#: an apology, "never mind", "all good".
_ONLY_CLOSES = re.compile(
    r"\W*(?:(?:thanks|thank\s+you|thx|ty|cheers|anyway|anyways|though|no\s+worries|never\s*mind|"
    r"nvm|all\s+good|it'?s\s+fine|that'?s\s+fine|fine|sorry|lol|haha|ok|okay|then|for\s+now|"
    r"all\s+the\s+same|just\s+a\s+thought|no\s+need|not\s+needed)[\s,.!…]*)*",
    re.I,
)


#: The assistant suggesting what the user might do: "You could ask for another instructor.",
#: "Maybe try the earlier train.", "How about the Thai place?", "I'd suggest calling ahead."
_SUGGESTS = re.compile(
    r"\W*(?:(?:ok(?:ay)?|well|so|hmm|oh|ah|sure|great|right)[,!.\s]+)*"
    r"(?:you\s+(?:could|might|should|can|may\s+want\s+to|might\s+want\s+to)|maybe|perhaps|"
    r"how\s+about|what\s+about|why\s+not|try\b|consider\b|i['’]?d\s+(?:suggest|recommend)|"
    r"i\s+(?:suggest|recommend)|it\s+might\s+(?:help|be\s+worth)|one\s+option)",
    re.I,
)
#: "Forget that", "scratch that idea", "nah, drop it": a request naming nothing but "that"
#: (not "forget I said that", "forget what I told you", "don't keep that").
_BARE_FORGET = re.compile(
    r"\W*(?:(?:oh|ah|ugh|nah|no|nope|ok|okay|well|honestly|lol|haha|yeah|hmm)[,.!…\s]+)*"
    r"(?:forget|scratch|drop|skip)\s+(?:about\s+)?(?:that|this|it)"
    r"(?:\s+(?:idea|one|suggestion|plan|option))?(?=\W|$)",
    re.I,
)
#: Words that make a request about what was said or kept ("…, don't keep it", "…, I
#: shouldn't have said it").
_OF_SAYING = re.compile(
    r"\b(?:keep|kept|save|saved|note|noted|notes|write|written|remember|record|store|log|memory|"
    r"said|say|told|tell|telling|mention|mentioned|shared|private|secret|confidential)\b",
    re.I,
)


def rejects_suggestion(sentence: str, rest: list[str], suggested: str) -> bool:
    """Whether a message whose first sentence is `sentence` ("forget that, he'd never
    listen", "Scratch that idea.") and whose other sentences are `rest` turns down the
    suggestion or offer that ends the assistant's message just before (`suggested`: "You
    could ask for another instructor.", "Would it help to book a lesson?") rather than asks
    that what the user said be forgotten: the request names nothing but "that", and nothing
    in the message speaks of saying or keeping ("forget that, I shouldn't have told you",
    "forget that, don't keep it" still ask)."""
    m = _BARE_FORGET.match(sentence)
    if m is None or _OF_SAYING.search(" ".join([sentence[m.end() :], *rest])):
        return False
    if FORGET_THAT.search(sentence[m.end() :]) or any(forget_request(r) for r in rest):
        return False
    if _SUGGESTS.match(suggested):
        return True
    o = _OFFERS.search(suggested)
    return (
        o is not None
        and suggested.rstrip().endswith("?")
        and not _OFFERS_TO_KEEP.search(suggested[o.start() :])
    )


def declines_offer(sentence: str, rest: list[str], offered: str) -> bool:
    """Whether a message whose first sentence is `sentence` ("Forget it.", "nah forget it",
    "ok forget it then") and whose other sentences are `rest` declines the assistant's offer
    or question `offered` (the last sentence of its message just before) rather than asks
    that what was said be forgotten: the "forget it" is all the sentence says, the rest says
    nothing of its own ("Thanks anyway."), and the assistant asked whether to do something
    other than keep or drop what was said ("Shall I book somewhere for dinner?"). "I told
    you my salary. Forget it." (a statement before it) and "forget it, please don't keep
    that" (a request after it) are requests."""
    m = _DISMISSING.search(sentence)
    if m is None or not _ONLY_OPENS.fullmatch(sentence[: m.start()]):
        return False
    if not _ONLY_CLOSES.fullmatch(sentence[m.end() :]):
        return False
    if not all(_ONLY_CLOSES.fullmatch(r) for r in rest):
        return False
    o = _OFFERS.search(offered)
    return (
        o is not None
        and offered.rstrip().endswith("?")
        and not _OFFERS_TO_KEEP.search(offered[o.start() :])
    )


#: Words that only open a sentence, saying nothing of their own: "oh", "ah never mind", "ok so".
_ONLY_OPENS = re.compile(
    r"\W*(?:(?:oh|ah|ugh|argh|meh|eh|hmm|nah|no|ok|okay|well|honestly|actually|look|right|"
    r"sorry|never\s*mind|nvm|just|so|and|but|then|god|jeez)[,.!…\s]*)*",
    re.I,
)


def dismisses(sentence: str, after: str = "") -> bool:
    """Whether the sentence's "forget it" gives up a task rather than asks that what was said
    be forgotten: what follows it in the sentence, or else the sentence `after` it, takes the
    task on or gives it up, and nothing there asks for anything to be kept out ("forget it,
    I'll book it myself" dismisses; "forget it, I'd rather you didn't keep that" asks)."""
    m = _DISMISSING.search(sentence)
    if m is None or not _ONLY_OPENS.fullmatch(sentence[: m.start()]):
        return False  # "My sister is pregnant, forget it, …": the sentence said something
    rest = sentence[m.end() :].lstrip(" ,.;:!…—–-")
    follow = rest or after
    if not follow or FORGET_THAT.search(follow) or FORGET_ABOUT.search(follow):
        return False
    return _DISMISSED.match(follow) is not None


#: Before a request's words, what makes them no request of the user's: someone else saying
#: them ("he said 'forget it' and left"), a condition on saying them ("if I ever say forget
#: that, …"), a request said not to be made ("I'm not asking you to forget that").
_NOT_ASKED_BEFORE = re.compile(
    r"(?:\b(?:he|she|they|someone|somebody|everyone|(?-i:[A-Z])[a-z]+|(?:my|his|her|their)\s+\w+)"
    r"\s+(?:just\s+|then\s+)?(?:said|says|told\s+\w+|replied|yelled|shouted|texted|wrote|"
    r"snapped|goes)"
    r"|\b(?:if|when|whenever|unless|once)\s+(?:i|you|we)\s+(?:ever\s+|later\s+)?"
    r"(?:say|said|type|typed|write|wrote|tell\s+you|ask\s+you)"
    r"|\bnot\s+(?:asking|telling)\s+you\s+to)\s*[:,]?\s*[\"“'‘]?\s*$",
    re.I,
)
#: "That" or "this" before a noun is no pronoun ("forget that restaurant you suggested",
#: "scratch this idea"): what was said is named only by a noun of saying or a word that
#: closes the request ("forget that bit", "forget that too", "forget this whole thing",
#: "scratch that sentence", "forget that last line"; not "that line of credit").
_THAT_NOUN = re.compile(
    r"(?:forget|scratch|disregard|delete|remove|erase|drop|strike)\s+(?:about\s+)?(?:that|this)"
    r"\s+(?!(?:too|also|as|please|pls|plz|entirely|completely|altogether|for|now|then|ok|okay|"
    r"lol|one|bit|part|last|whole|entire|stuff|thing|things|story|news|conversation|message|"
    # (a noun of saying said of something is a thing: "that line of credit")
    r"(?:line|lines|sentence|sentences|paragraph|paragraphs|passage|remark|comment)(?!\w)"
    r"(?!\s+of\b)|"
    r"chat|info|detail|details|either|asap|i|bit|immediately|right|straight|already|and|or|"
    r"but|so|you|yourself|from|out|off|too)\b)(?-i:[a-zß-ÿ])[\w'-]*",
    re.I,
)
#: After a request: a setting aside for a while, not a letting go ("let's forget about the
#: budget for now", "forget about work for a minute").
_FOR_A_WHILE = re.compile(
    r"\bfor\s+(?:now|today|tonight|a\s+(?:minute|moment|sec(?:ond)?|bit|while|second)|"
    r"the\s+(?:moment|time\s+being|rest\s+of\s+the\s+\w+))\b",
    re.I,
)


#: A when and nothing else: "Tuesday", "next Friday", "the 14th", "3pm", "tomorrow morning".
#: A request to forget only a when ("forget about Tuesday, Wednesday works better") names no
#: thing: it moves a plan, and every line that says the day is about something else too.
_WHEN_ONLY = re.compile(
    r"(?:(?:on|at|the|this|next|last|that|coming)\s+)*"
    rf"(?:{WEEKDAY}|tomorrow|today|tonight|yesterday|the\s+weekend|weekend|"
    rf"{MONTH_OR_ABBREVIATION}(?:\s+\d{{1,2}}(?:st|nd|rd|th)?)?|"
    rf"\d{{1,2}}(?:st|nd|rd|th)?(?:\s+(?:of\s+)?{MONTH_OR_ABBREVIATION})?|"
    r"\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)|\d{1,2}[:.]\d\d|noon|midday)"
    r"(?:\s+(?:morning|afternoon|evening|night|lunchtime))?",
    re.I,
)


#: The words a request to forget is said in, by the consonants they are written with when
#: their vowels are dropped ("pls dnt sv tht": "don't save that").
_REQUEST_WORDS = [
    "that",
    "this",
    "them",
    "don't",
    "dont",
    "not",
    "save",
    "keep",
    "remember",
    "forget",
    "write",
    "note",
    "store",
    "record",
    "log",
    "anything",
    "anywhere",
    "down",
    "please",
    "you",
    "your",
    "notes",
]


_APOSTROPHES = re.compile(r"['’]")
_VOWELS = re.compile(r"[aeiou]")
_DOUBLED = re.compile(r"(.)\1+")


def _consonants(word: str) -> str:
    """A word as written without its vowels after the first letter, doubled letters once
    ("remember" -> "rmbr", "that" -> "tht", "don't" -> "dnt")."""
    w = _APOSTROPHES.sub("", word.lower())
    w = w[:1] + _VOWELS.sub("", w[1:])
    return _DOUBLED.sub(r"\1", w)


_BY_CONSONANTS = {_consonants(w): w for w in _REQUEST_WORDS if _consonants(w) != w}
#: A verb of keeping or letting go, before the object pronoun it takes.
_KEEP_OR_LET_GO = r"(?:forget|delete|erase|keep|remember|save|store|record|note|write|log)"


_LETTERS = re.compile(r"[A-Za-z'’]+")
#: "am" as the object of a verb of keeping or letting go, in pidgins ("forget am").
_AM_OBJECT = re.compile(rf"\b({_KEEP_OR_LET_GO})\s+am\b", re.I)
#: "no" before a bare verb of keeping or letting go, for "don't" ("no write am anywhere").
_NO_FOR_DONT = re.compile(rf"(?:^|(?<=[,;:.!?]))(\s*)no\s+(?={_KEEP_OR_LET_GO}\b)", re.I)


@remembered_up_to(SIZE, shared=True)
def _respelled(w: str) -> str:
    """One word of `standard_spelling` as the standard word (itself when it is one)."""
    if w.lower() in ("dat", "dis", "dem"):
        return "th" + w[1:].lower()
    if w == _consonants(w).lower() and len(w) >= 2:
        return _BY_CONSONANTS.get(w.lower(), w)
    return w


def standard_spelling(sentence: str) -> str:
    """The sentence with the ways a request to forget is written outside standard English
    spelling read as the standard words: vowels dropped ("dnt sv tht"), "th" said as "d"
    ("dat", "dis"), "am" as the object of a verb in pidgins ("forget am"), "no" before a
    bare verb for "don't" ("no write am anywhere"). A word with a vowel of its own is never
    changed, nor a word no request is made of."""

    text = _LETTERS.sub(lambda m: _respelled(m.group(0)), sentence)
    text = _AM_OBJECT.sub(r"\1 it", text)
    return _NO_FOR_DONT.sub(r"\1don't ", text)


class Span:
    """Where a match was found in a sentence: `start()` and `end()`, as a match's."""

    def __init__(self, start: int, end: int) -> None:
        self._start, self._end = start, end

    def start(self) -> int:
        return self._start

    def end(self) -> int:
        return self._end


def forget_that_at(sentence: str) -> Span | None:
    """Where "forget that" (FORGET_THAT) is said in the sentence, also when it is spelled
    outside standard English ("abeg forget am"): found in `standard_spelling`, which
    respells word for word, and placed on the same words of the sentence."""
    if (m := FORGET_THAT.search(sentence)) is not None:
        return Span(m.start(), m.end())
    standard = standard_spelling(sentence)
    if standard == sentence or (m := FORGET_THAT.search(standard)) is None:
        return None
    words = [w.start() for w in re.finditer(r"\S+", sentence)] + [len(sentence)]
    before = len(standard[: m.start()].split())
    through = len(standard[: m.end()].split())
    start = words[min(before, len(words) - 1)]
    end = words[min(through, len(words) - 1)]
    return Span(start, max(start, len(sentence[:end].rstrip())))


@remembered_up_to(SIZE, shared=True)
def forget_request(sentence: str) -> tuple[bool, str | None] | None:
    """(True, None) for "forget that", (True, "the standup time") for "forget about ...",
    (True, "she sleepwalks") for "forget that she sleepwalks", None when the sentence asks nothing
    to be forgotten. A sentence spelled outside standard English ("pls dnt save tht", "abeg
    forget am") is read as spelled in it (`standard_spelling`)."""
    asked = _forget_request(sentence)
    if asked is None and (standard := standard_spelling(sentence)) != sentence:
        return _forget_request(standard)
    return asked


#: A request that a person's name not be kept, the person said by "his", "her" or "their":
#: "forget his name", "don't keep her name", "I don't want his name kept", "keep their name
#: out of your notes". It asks what "forget about him" asks: the person's page goes, and
#: every line naming them (a line cannot stand without the one it is about).
NAME_NOT_KEPT = re.compile(
    # (a verb of letting go as a request: opening its clause, or after "please", "just", "can
    # you": "I forget his name" says what happened)
    r"(?:^|(?<=[,;:.!?—–-])\s*|\b(?:pls|please|just|and|so|ok|okay|now|also|oh|actually)\s+"
    r"|\b(?:can|could|would)\s+you\s+)"
    r"(?:forget|delete|erase|remove|drop|scrub|wipe)\s+(?P<a>his|her|their)\s+names?\b"
    r"|\bdon'?t\s+(?:keep|save|store|record|note|log|remember|write\s+down|put\s+down|jot\s+down)\s+"
    # the name kept at all, not on something ("don't keep her name on the rota": an edit)
    r"(?P<b>his|her|their)\s+names?\b(?=\s*(?:[.,;:!?)—–]|$)|\s+(?:or\s+anything|anywhere|"
    r"at\s+all|either|in\s+(?:your|the)\s+(?:notes|memory|records|files)|please)\b)"
    r"|\bi\s+(?:don'?t|do\s+not)\s+want\s+(?P<c>his|her|their)\s+names?\s+(?:kept|written(?:\s+down)?|"
    r"saved|stored|recorded|noted|logged|anywhere|in\s+(?:your|the)\s+(?:notes|memory|records|files)|"
    r"on\s+(?:record|file))\b"
    r"|\b(?P<d>his|her|their)\s+names?\s+(?:shouldn'?t|should\s+not|mustn'?t|must\s+not|can'?t|"
    r"cannot)\s+(?:be\s+|go\s+)?(?:kept|written(?:\s+down)?|saved|stored|recorded|anywhere|"
    r"in\s+(?:your|the)\s+(?:notes|memory|records|files))\b"
    r"|\bkeep\s+(?P<e>his|her|their)\s+names?\s+out\s+of\s+(?:your|the|my)\s+"
    r"(?:notes|memory|records?|files?|pages?)\b",
    re.I,
)
_OBJECT = {"his": "him", "her": "her", "their": "them"}

#: A request that the names of people said by their part not be kept: "don't keep the
#: patient's name", "please don't store the client's or the witness's names anywhere",
#: "I don't want the child's name kept", "keep the tenant's name out of your notes".
_ROLE_NAMES_NOT_KEPT = re.compile(
    r"\b(?:(?:don'?t|do\s+not|never)\s+(?:keep|save|store|record|note|log|remember|"
    r"(?:write|put|jot)\s+down)|i\s+(?:don'?t|do\s+not)\s+want|keep)\s+"
    r"(?P<roles>(?:the|any)\s+[a-z-]+['’]s?(?:(?:\s*,\s*|\s+(?:or|and|nor)\s+)(?:the\s+)?"
    r"[a-z-]+['’]s?){0,3})\s+(?:full\s+)?names?\b(?!\s+(?:on|in\s+the\s+(?!notes|memory)|as)\b)",
    re.I,
)
_ROLE = re.compile(r"([a-z-]+)['’]s?(?=\s|$)", re.I)
#: Those whose names are said by another's: a person's kin or the user's own.
_NO_ROLE = frozenset({"his", "her", "their", "my", "your", "our", "its"})


def role_names_not_kept(sentence: str) -> list[str]:
    """The parts ("patient", "defendant") whose holders' names a request asks not to be kept
    ("please don't keep the patient's or the defendant's names"), as said; [] when the
    sentence asks no such thing. Whose name each is, the conversation says (`named_as`)."""
    m = _ROLE_NAMES_NOT_KEPT.search(sentence)
    if m is None or _NEGATED.search(sentence[: m.start()]):
        return []
    roles = [r.group(1).lower() for r in _ROLE.finditer(m.group("roles"))]
    return [r for r in roles if r not in _NO_ROLE and KIN.fullmatch(r) is None]


def named_as(role: str, text: str) -> list[str]:
    """The names `text` (sentences a line each) gives the part `role`: as a label's value
    ("Defendant: Mr Ivo Sand", "Client ....... Mrs Ada Quist", "the tenant, Lou Brand") or
    after the name in brackets ("Ada Quist (client)"), without a title."""
    label = (
        rf"(?<![\w'’])(?i:(?:the\s+)?{re.escape(role)})[ \t]*(?:[.:…=—–-][ \t.:…=—–-]*\n?[ \t]*|,[ \t]*)"
        rf"(?:{TITLE})?(?P<a>{NAME_WORD}(?:[ \t]+{NAME_WORD}){{0,2}})"
    )
    after = rf"(?:{TITLE})?(?P<b>{NAME_WORD}(?:[ \t]+{NAME_WORD})?)[ \t]*\((?i:(?:the\s+)?{re.escape(role)})\)"
    found = [m.group("a") or m.group("b") for m in re.finditer(f"{label}|{after}", text)]
    return list(dict.fromkeys(found))


def _forget_request(sentence: str) -> tuple[bool, str | None] | None:
    if (foreign := _foreign(sentence)) is not None:
        return True, foreign
    if (named := NAME_NOT_KEPT.search(sentence)) is not None and not (
        named.group("a") and _NEGATED.search(sentence[: named.start()])
    ):
        # "don't forget his name" asks the opposite
        said = next(g for g in named.groups() if g)
        return True, _OBJECT[said.lower()]
    if (clause := forgets_clause(sentence)) is not None:
        return True, " ".join(clause)  # the caller finds whom "she" means (forgets_clause)
    m = FORGET_ABOUT.search(sentence)
    if m and _NEGATED.search(sentence[: m.start()]):
        return None  # "don't forget what I told you about the dog" asks the opposite
    if m and (_NOT_ASKED_BEFORE.search(sentence[: m.start()]) or _FOR_A_WHILE.search(m.group(0))):
        return None  # "she said to forget about it", "let's forget about work for now"
    if m and (
        _SAID_OF_ONESELF.search(sentence[: m.start()])
        or _ASKED_WHETHER.search(sentence[: m.start()])
        or _SOMEONE_ELSES_TO.search(sentence[: m.start()])
    ):
        return None  # "I always forget what I said about the loan", "did you forget …?"
    if m:
        what = _list_end(next(m.group(g) for g in _TARGET_GROUPS if m.group(g)).strip())
        # "and" goes on the target only before a name or a noun ("Jonas and Elif"),
        # not before a verb ("Bob and delete his page")
        what = _CLAUSE_END.sub("", what).strip().rstrip(",").strip()
        if _JUST_SAID.fullmatch(what):
            return True, None  # "forget about that": what was just said, as "forget that"
        if (
            (kin := KIN.match(what)) is not None
            and kin["name"]
            and kin["whose"].lower()
            in (
                "my",
                "our",
            )
        ):
            # "forget about my cousin Dara": Dara, the kin word only saying who she is (her
            # page is named by her name)
            rest = what[kin.start("name") :]
            if re.fullmatch(rf"{NAME_WORD}(?:\s+{NAME_WORD})?", rest):
                what = rest
        if _WHEN_ONLY.fullmatch(what):
            return None  # "forget about Tuesday, Wednesday works better": a plan moved
        if (
            what
            and not re.fullmatch(r"it|that|this|them|those", what, re.I)
            and (by := _SAID_BY.search(m.group(0))) is not None
        ):
            # "forget what Ria said about the party": the party, as Ria said it (her lines
            # on it, not the user's own)
            return True, f"{by['name']}'s {what}"
        return (True, what) if what else (True, None)
    if (asked := _asked(sentence)) is not None:
        return None if _WHEN_ONLY.fullmatch(asked) else (True, asked)
    if (m := FORGET_THAT.search(sentence)) is None:
        return None
    verb = re.match(
        r"(?:forget|scratch|disregard|delete|remove|erase|drop|strike|wipe|scrap|ditch|bin|"
        r"lose|scrub|nuke)\b",
        sentence[m.start() :],
        re.I,
    )
    if verb and (
        _NEGATED.search(sentence[: m.start()])
        or _ELSEWHERE.match(sentence, m.end())
        or _THAT_NOUN.match(sentence, m.start())
    ):
        # "never delete that", "delete it from my calendar", "forget that restaurant you
        # suggested": the opposite asked, a document's text, a thing named (no request of
        # what was just said)
        return None
    if (verb or re.match(r"don|never", sentence[m.start() :], re.I)) and _NOT_ASKED_BEFORE.search(
        sentence[: m.start()]
    ):
        # "he said 'forget it' and walked off", "if I ever say forget that, …" (not "Tomasz
        # told me off the record …": a confidence however it came)
        return None
    if re.match(r"don", sentence[m.start() :], re.I) and _SOMEONES_MEMORY.search(
        sentence[: m.start()]
    ):
        return None  # "I don't remember that", "we don't keep that at home": no request
    if _SOMEONE_ELSES_TO.search(sentence[: m.start()]):
        return None  # "she told me to forget it", "I tried to forget it": no request
    if dismisses(sentence):
        return None  # "forget it, I'll book it myself": a task given up, no request
    if _SAID_OF_ONESELF.search(sentence[: m.start()]) and re.match(
        r"forget\b", sentence[m.start() :], re.I
    ):
        return None  # "… if I forget it again", "I'll forget it otherwise": no request
    if not _ASKING.search(sentence[: m.start()]) and re.match(
        r"forget\s+that\s+(?!i\s+said)\w", sentence[m.start() :], re.I
    ):
        return None  # "I always forget that she sleepwalks", "don't forget that …": no request
    return True, None


#: Where two requests said in one sentence meet: "forget the loan stuff and don't keep
#: anything about Noor", "forget that; also wipe what I said about the flat".
_REQUESTS_JOIN = re.compile(
    r"\s*[,;]?\s+(?:and|also|plus|then)(?:\s+(?:also|then|please|pls))?\s+|\s*[;,]\s+", re.I
)


def split_requests(sentence: str) -> list[str]:
    """A sentence holding two requests to forget as the two ("Forget the rehab stuff and
    don't keep anything about Noor." -> ["Forget the rehab stuff.", "Don't keep anything
    about Noor."]): each asks on its own, and one read as the whole sentence would lose the
    other. The second must name what it lets go of ("…, and delete his page" is no request;
    "about Ravi, Priya and the money" is one list). The sentence itself otherwise."""
    if forget_request(sentence) is None:
        return [sentence]
    for m in _REQUESTS_JOIN.finditer(sentence):
        first, second = sentence[: m.start()].strip(), sentence[m.end() :].strip()
        if len(first.split()) < 2 or forget_request(first) is None:
            continue
        asked = forget_request(second)
        if asked is None or asked[1] is None or PRONOUN_TARGET.fullmatch(asked[1]):
            continue
        end = "" if first[-1:] in ".!?" else "."
        return [first + end, *split_requests(second[:1].upper() + second[1:])]
    return [sentence]


#: A request to forget said in Turkish, whose verb comes last and whose "about" follows what
#: it is about: "Tom Reyes hakkında her şeyi unut", "Ana ile ilgili ne varsa sil", "Ana'yı
#: unut" (a name's case ending after its apostrophe: the name). "unutma" is "don't forget".
_TURKISH_FORGET = re.compile(
    r"(?:^|[,;:]\s*|\bve\s+)(?:lütfen\s+)?(?P<what>(?:[\w’'-]+\s+){0,3}?[\w’'-]+?)"
    r"(?:\s+(?:hakkında(?:ki)?|ile\s+ilgili|konusunda|hakkında\s+ne\s+varsa)\s+"
    r"(?:(?:her\s+şeyi|ne\s+varsa|tüm\s+bilgileri|söylediklerimi|yazdıklarımı|anlattıklarımı|"
    r"bildiklerini|notları)\s+)?"
    r"|['’](?:y?[ıiuü]|n[ıiuü])\s+(?:tamamen\s+)?)"
    r"(?:lütfen\s+)?(?:unut|sil)(?:un|in|abilir\s+misin|ebilir\s+misin)?(?=\s*(?:[.!]|$|,|\s+lütfen))",
    re.I,
)


def _foreign(sentence: str) -> str | None:
    """The target of a request to forget said in another language (FOREIGN_FORGET_ABOUT,
    `_TURKISH_FORGET`), its "and" read as "and" ("Pieter en zijn vrouw" -> "Pieter and zijn
    vrouw")."""
    low = sentence.lower()
    if ("unut" in low or "sil" in low) and (tr := _TURKISH_FORGET.search(sentence)) is not None:
        what = re.sub(r"\s+ve\s+", " and ", tr["what"]).strip()
        return what or None
    m = FOREIGN_FORGET_ABOUT.search(sentence)
    if m is None:
        return None
    what = next(v for v in m.groupdict().values() if v).strip()
    return _FOREIGN_AND.sub(" and ", what) or None


#: A sentence that names what was said as a thing ("the bit about Nina and the overdraft",
#: "what I told you about the loan", "the Hugo thing"), closing its clause.
#: What is said of such a thing to let it go, closing its clause: "the bit about the loan has
#: to go", "the Hugo part can come out", "that stuff is out".
_GOES = (
    r"(?:\s+(?:has|have|needs?|must|should|can|could|will|is\s+going|has\s+got|['’]s\s+got)"
    r"\s+(?:to\s+)?(?:go|come\s+out|be\s+(?:cut|dropped|removed|deleted|taken\s+out))"
    r"|\s+(?:goes|is\s+out))(?:\s+(?:though|then|too|as\s+well|now))?"
)
#: When and by whom it was said, after the thing named: "the Kelvin thing (that) I told you
#: (just now)", "the loan bit just now I tell you", tense as said.
_TOLD_AFTER = (
    r"(?:\s+(?:that\s+)?(?:(?:just\s+now|earlier|before|yesterday)\s+)?i\s+"
    r"(?:tell|told|said|say|mentioned|mention)(?:\s+(?:to\s+)?you)?"
    r"(?:\s+(?:just\s+now|earlier|before|yesterday|last\s+time))?)"
)
_POINTS_AT = re.compile(
    rf"(?:^|[\s:,;(—–-])(?:{_SAID_OF}|{_SAID}(?:about|on|regarding)\s+(?P<what5>[^.,;!?]+?))"
    rf"(?={_TOLD_AFTER}?(?:{_GOES})?\s*(?:from\s+\w+(?:\s+\w+)?)?\s*(?:[.,;!?)]|$))",
    re.I,
)


def said_of(sentence: str) -> str | None:
    """What a sentence points to as something said ("One thing from Friday: the bit about
    Nina and the overdraft." -> "Nina and the overdraft"), None when it points to nothing: what
    a following "I'd rather it wasn't written down" means."""
    for m in _POINTS_AT.finditer(sentence):
        what = next(
            (m.group(g) for g in ("what", "what2", "what5", "what8", "what11") if m.group(g)), None
        )
        if what and re.match(r"(?:is|was|were|are|has|had|have|will|would|did|does)\b", what, re.I):
            continue  # "the thing I told you about was great": no thing named
        if what and (what := _CLAUSE_END.sub("", what.strip()).strip()) and content_words(what):
            return what
    return None


def _asked(sentence: str) -> str | None:
    """The target of a request, in any wording, to let go of what was said about something
    (FORGET_ASKED), None when the sentence holds none."""
    matches = [m for pattern in FORGET_ASKED for m in pattern.finditer(sentence)]
    for m in sorted(matches, key=lambda m: m.start()):
        groups = m.groupdict()
        what = next((groups[g] for g in _ASKED_GROUPS if groups.get(g)), None)
        if what is None:
            continue
        asks = groups.get("dont") or _ASKING.search(sentence[: m.start()])
        if not asks or _ELSEWHERE.match(sentence, m.end()):
            continue
        if groups.get("dont") and _SOMEONES_MEMORY.search(sentence[: m.start()]):
            continue  # "I don't write down my dreams": a habit told, no request
        what = re.sub(r"\s+(?:out|off)$", "", what.strip(), flags=re.I)
        what = _CLAUSE_END.sub("", what).strip()
        what = {"his": "him", "their": "them"}.get(what.lower(), what)
        if content_words(what) or PRONOUN_TARGET.fullmatch(what):
            return what  # a pronoun ("take him off everything"): the caller finds whom
    return None


#: A name let go of whole: "Delete Ines completely, please", "erase Marco entirely". Only the
#: caller knows whether the name is a person's ("remove Node completely" uninstalls a program).
_NAME_LET_GO = re.compile(
    rf"(?i:delete|erase|remove|wipe|scrub|purge)\s+(?P<name>{NAME})\s+"
    r"(?i:completely|entirely|altogether|for\s+good)\b"
)


def name_let_go(sentence: str) -> str | None:
    """The name a request asks to be let go of whole ("Delete Ines completely, please" ->
    "Ines"), None when the sentence holds no such request or it is not asked of the
    assistant ("I had to remove Node completely")."""
    m = _NAME_LET_GO.search(sentence)
    if m is None or not _ASKING.search(sentence[: m.start()]):
        return None
    return m["name"] if m["name"] not in NOT_NAMES else None


#: A detail of the user's own let go of with a verb that also edits documents: "Delete my
#: address.", "remove my work number please", "clear my date of birth". Only the caller knows
#: whether a document is being edited in the conversation ("delete my address" from a CV).
_DATUM_LET_GO = re.compile(
    r"(?P<verb>delete|remove|drop|clear|erase)\s+"
    rf"(?P<what>(?:my|our)\s+(?:[\w'’-]+\s+){{0,2}}?{_PERSONAL_DATUM}){_ASKED_END}",
    re.I,
)


def datum_let_go(sentence: str) -> str | None:
    """The detail of the user's own a request asks to be let go of ("Delete my address." ->
    "my address"), None when the sentence holds no such request: it is not asked of the
    assistant ("I deleted my old address"), it is negated ("don't delete my number"), or
    the detail is taken out of a thing named after it ("remove my number from the flyer")."""
    m = _DATUM_LET_GO.search(sentence)
    if m is None or not _ASKING.search(sentence[: m.start()]):
        return None
    if _NEGATED.search(sentence[: m.start()]) or _ELSEWHERE.match(sentence, m.end()):
        return None
    return m["what"]


#: A request, the rest of its sentence, that names only the thing to let go of: "Forget the
#: plumber.", "drop the allotment, please", "you can forget Bea now", "never mind the boiler,
#: don't keep it", "no need to remember my shoe size". Only a whole clause to the sentence's
#: end: "forget the plumber, we'll fix it ourselves" says why a plan changed, not what to
#: forget. The caller checks that it answers no question of the assistant's.
#: One thing such a request names: "the allotment plot", "my shoe size", "Bea's flat", "Bea".
_ONE_THING = (
    r"(?:(?:(?:the|my|our)\s+|(?-i:[A-Z])[\w-]*['’]s\s+)(?:(?!and\b)[\w'’-]+\s+){0,2}?"
    rf"(?!and\b)[\w'’-]+|(?-i:{NAME_WORD}))"
)
_NAMES_ONLY_THING = re.compile(
    r"(?:^|(?<=[,;:—–])\s*|(?<=\s)(?=(?:but|and|then|so|just)\s))"
    r"(?:(?:but|and|then|so|just|please|pls|actually|oh|ok(?:ay)?|now|yeah|also|"
    r"you\s+can|(?:can|could|would)\s+you)[\s,]+)*"
    r"(?P<verb>forget|drop|let\s+go\s+of|never\s*mind|stop\s+remembering|"
    r"(?:there(?:'s|\s+is)\s+)?no\s+need\s+to\s+(?:remember|keep)|"
    r"(?:you\s+)?(?:don'?t|do\s+not)\s+need\s+to\s+(?:remember|keep))\s+"
    rf"(?P<what>{_ONE_THING}(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+){_ONE_THING}){{0,3}})"
    r"(?:\s*,?\s+(?:please|pls|now|thanks|thank\s+you|too|as\s+well|then|either|anymore|"
    r"any\s+more))*"
    r"(?:\s*[,;—–-]\s*(?:just\s+|please\s+)?(?:forget|delete|drop|scrap|remove|"
    r"(?:don'?t|do\s+not)\s+(?:keep|remember|store|save))\s+(?:it|that|them)"
    r"(?:\s+(?:please|too|then))?)?"
    r"\s*[.!]*\s*$",
    re.I,
)
#: The words one of which such a request holds.
_NAMES_ONLY_VERBS = ("forget", "drop", "let go", "mind", "remember", "need to keep")
#: What such a request may not name: a word of time ("forget the weekend") or of the talk
#: itself ("never mind the rest", "forget the question"), which name no thing told.
_BARE_NOT_A_THING = re.compile(
    r"(?:the|my|our)\s+(?:rest|question|idea|plan|others?|whole\s+thing|thing|"
    r"details?|last\s+\w+|first\s+\w+|above|below|previous\s+\w+|formatting|typos?|"
    r"spelling|grammar|weather|cost|costs|price|money|time|timing|hassle|fuss|mess|rush|"
    r"delay|wait|noise|traffic|weekend|morning|evening|night|day|week|month|year)",
    re.I,
)


#: The verbs that tell who said a sentence: "…, the guide said", "…, Mum says".
_SAYING = frozenset({"said", "says", "say", "told", "tells", "asked", "asks", "reckons", "thinks"})
_SPEAKER_AFTER = re.compile(r"(?:the|my|our)\s+\w+\s+(?:said|says|told|tells|reckons)", re.I)
_CLAUSE_OR_MOVE = re.compile(
    r"\b(?:is|are|was|were|has|have|had|will|would|can|could|should|does|did)\b"
    r"|\b(?:to|by|from|into|at)\s+[£$€]?\d",
    re.I,
)


def bare_forget(sentence: str) -> tuple[str, int] | None:
    """The thing a request names when it names nothing else ("Forget the plumber." ->
    "the plumber"; "Don't forget the rota, but forget the plumber." -> "the plumber") and
    where the request starts in the sentence (what is said before it is read as said); None
    when the sentence holds no such request."""
    low = sentence.lower()
    if not any(w in low for w in _NAMES_ONLY_VERBS):
        return None  # (most sentences: no word of the request, no search)
    m = _NAMES_ONLY_THING.search(sentence)
    if m is None:
        return None
    what = m["what"].strip()
    for one in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", what):
        if _BARE_NOT_A_THING.fullmatch(one) or _WHEN_ONLY.fullmatch(one):
            return None
        if one.lower() in ("it", "that", "this", "them", "those", "everything", "all"):
            return None
        last = one.split()[-1].lower()
        if last.endswith("ly") or last in _SAYING or _SPEAKER_AFTER.fullmatch(one):
            # "Let go of the rope slowly, the guide said.": a manner or a speaker is no thing
            return None
        if _CLAUSE_OR_MOVE.search(one):
            # "Forget the old route, the bridge is closed.": a clause of its own, no thing;
            # "Drop the price to 300.": a value moved, no request
            return None
        if " " not in one and (one in NOT_NAMES or not re.fullmatch(NAME_WORD, one)):
            return None
    what = re.sub(r"\s+(?:stuff|things?|bits?|business|details|part|story)$", "", what, flags=re.I)
    before = sentence[: m.start()]
    if (
        _NEGATED.search(before)
        or _NOT_ASKED_BEFORE.search(before)
        or _SAID_OF_ONESELF.search(before)
    ):
        return None
    if before.strip() and not re.search(r"[,;:—–]\s*$|\s(?:but|and|then|so|just)\s*$", before):
        return None
    return what, m.start()


def forget_targets(what: str) -> list[str]:
    """The things one request names: "Jonas and Elif" -> ["Jonas", "Elif"]; a name joined
    by "&" ("Hoffmann & Söhne") stays one."""
    parts = re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", what)
    out = []
    for part in parts:
        if _OWN_DATUM.fullmatch(part.strip()) is None:  # "my address" is the user's own
            part = re.sub(r"^(?:(?:the|my|our)\s+)", "", part.strip(), flags=re.I)
        # "clear my memory of the divorce": what memory holds of it is the thing
        part = re.sub(
            r"^(?:memory|memories|records?|notes)\s+(?:of|about|on)\s+(?:(?:the|my|our)\s+)?",
            "",
            part,
            flags=re.I,
        )
        part = FOREIGN_DETERMINER.sub("", part)
        if part and part.lower() not in ("everything", "anything", "all", "that", "it"):
            out.append(part)
    return out


# -- kinds of statement ---------------------------------------------------------------------

RULE = re.compile(
    r"\b(?:rule|policy|constraint|convention|guideline|requirement)s?\b[^.]*?[:,]"
    r"|\b(?:never|must|mustn't|must\s+not|may\s+not|not\s+allowed|no\s+one\s+(?:may|should|can)|"
    r"nobody\s+(?:may|should|can)|only\s+(?:ever\s+)?(?:go|goes|deploy|merge|release|ship|use|run))\b",
    re.I,
)
HEALTH = re.compile(
    r"\b(?:allergic|allergy|allergies|intolerant|intolerance|can't\s+eat|cannot\s+eat|"
    r"doesn't\s+eat|don't\s+eat|vegetarian|vegan|pescatarian|celiac|coeliac|diabetic|"
    r"gluten[- ]free|lactose|kosher|halal|medication|wheelchair|hurts|injur\w*|physio\w*|"
    r"surgery|sprain\w*|broke\s+(?:my|his|her)|pregnan\w*|diagnos\w*|therapy|migraines?|"
    r"blood\s+pressure|prescri\w+|\d+\s*mg|dose|tonsils|asthma|insulin)\b",
    re.I,
)
#: A word that says a sentence gives a thing's value anew or puts one right: "the check-up is
#: on the 9th now", "moved to Friday", "rebooked for the 12th", "sorry, at 4", "I meant 10".
RESTATED = re.compile(
    r"\b(?:now|instead|anymore|any\s+more|no\s+longer|moved|moving|rescheduled|re-?booked|"
    r"re-?arranged|changed?|updated?|postponed|pushed|brought\s+forward|put\s+back|new|"
    r"actually|correction|rather|switched|swapped|not|no|sorry|oops|wait|hang\s+on|mean|meant|"
    r"make\s+that|scratch\s+that|typo|mistake|my\s+bad|wrong|earlier|before|said)\b",
    re.I,
)
CHANGE = re.compile(
    r"\b(?:instead|anymore|any\s+more|no\s+longer|switch(?:ed|ing)?\s+to|changed\s+(?:my|our)\s+"
    r"minds?|change\s+of\s+plan|rather|now\s+(?:prefer|like|use|want)|these\s+days|revers(?:e|ed|ing)|"
    r"scrap(?:ped)?|go(?:ing)?\s+back\s+to|not\s+going\s+with|drop(?:ped)?\s+the\s+idea|now)\b",
    re.I,
)
_ROLE_WORD = (
    r"(?:lead|manager|designer|engineer|developer|owner|architect|director|ceo|cto|cfo|coo|pm|"
    r"head\s+of\s+\w+|intern|contractor|consultant|recruiter|analyst|scientist|reviewer|admin|"
    r"founder|coordinator|contact|mentor|coach|advisor|adviser|lawyer|accountant|doctor|dentist|"
    r"teacher|tester|qa|sre|on-?call|point\s+person|product\s+owner|scrum\s+master|plumber|"
    r"electrician|builder|landlord|landlady|therapist|vet|nanny|cleaner|mechanic|trainer|"
    r"tutor|agent|midwife|surgeon|nurse|surveyor|solicitor|caterer|photographer|florist|"
    r"gardener|childminder|babysitter|carer|decorator|roofer|locksmith|optician|pharmacist|"
    r"physio(?:therapist)?|registrar|officiant|chiropractor|osteopath|clerk|secretary|"
    r"receptionist|treasurer|caretaker|administrator|supervisor|headteacher|"
    # who serves a place or a congregation: "our councillor is …", "the vicar, Ann Lowe"
    r"councillor|vicar|priest|rabbi|imam|mayor|gp|health\s+visitor|social\s+worker)"
)
#: A role and the name set beside it: "The plumber, Gareth, comes Friday", "our vet Dr. Lin",
#: "My accountant is Dev Malhotra" (said with "is", a full name or a title and a surname: a
#: single word there may be a firm, "our contractor is Bauhaus").
ROLE_APPOSITIVE = re.compile(
    rf"\b(?i:the|our|my|their)\s+(?P<role>(?i:{_ROLE_WORD}))(?:,\s*|\s+|\s+(?:is|was)\s+"
    rf"(?=(?:{TITLE}|{NAME_WORD}\s+){NAME_WORD}\b))"
    rf"(?P<name>{NAME})\b"
    r"(?!\s*(?:&|and)\s)"
)
#: A full name and the role set after it: "Gwen Polzeath, our office manager", "Raj Patel,
#: twelve years as the school's caretaker" (a single word there may be a firm or a place).
NAME_THEN_ROLE = re.compile(
    rf"(?P<name>{NAME_WORD}\s+{NAME_WORD}),\s+(?:(?:\d+|[a-z]+)\s+years?\s+as\s+)?"
    rf"(?:our|the|my|their|[{_UP}][{_LOW}]+['’]s)\s+(?P<role>(?:[a-z][\w-]*\s+){{0,2}}?"
    rf"(?i:{_ROLE_WORD}))\b"
)
#: Someone's role or kin and the name of who holds it, opening a sentence on "his" or
#: "her": "Her guitar teacher is Mr Varga", "His new boss, Dana, starts Monday". The
#: pronoun is the owner, the name another person.
OWNED_ROLE = re.compile(
    rf"\W*(?:(?:and|but|so|also|oh|plus),?\s+)*(?P<whose>[Hh]is|[Hh]er)\s+"
    rf"(?P<rel>(?:[a-z][a-z-]+\s+){{0,2}}?(?i:{_ROLE_WORD}|sister|brother|mum|mom|mother|father|"
    rf"dad|wife|husband|partner|son|daughter|aunt|uncle|niece|nephew|cousin|friend|boss|"
    rf"colleague|neighbour|neighbor|girlfriend|boyfriend))"
    rf"(?:\s+(?:is|was|will\s+be)\s+|\s*,\s*|\s+)(?P<name>{NAME})"
)
ROLE_IS = re.compile(
    rf"(?P<name>{NAME})\s+(?:is|'s|will\s+be|becomes|became|joins\s+as|joined\s+as|as)\s+"
    rf"(?P<role>(?:(?:our|the|my|their|his|her|a|an|new|acting|interim)\s+)*"
    rf"(?:[\w-]+\s+){{0,2}}?{_ROLE_WORD}s?(?:\s+(?:on|for|of)\s+[\w-]+(?:\s+[\w-]+)?)?)\b"
)
ROLE_DOES = re.compile(
    rf"(?P<name>{NAME})\s+(?P<role>(?:handles|owns|leads|runs|manages|maintains|covers|"
    rf"looks\s+after|takes\s+care\s+of|is\s+in\s+charge\s+of|is\s+responsible\s+for)\s+[^,.;]+)"
)
LEAVING = re.compile(
    r"\b(?:is\s+leaving|leaves\s+(?:the|us|at|on|in)|has\s+left|left\s+the\s+(?:company|team)|"
    r"is\s+quitting|quit|last\s+day|is\s+moving\s+on|resigned|handed\s+in\s+(?:his|her|their)\s+notice|"
    r"is\s+joining|joins\s+(?:the|us|on|in)|starts\s+on|new\s+hire)\b",
    re.I,
)
#: What comes from someone rather than being someone: "Contract from Hallworth is attached",
#: "Invoice from Acme": the word before "from" in such a line names a thing, not a person.
SENT_THING = re.compile(
    r"(?:offer|job|role|position|interview|internship|contract|invoice|quote|letter|email|"
    r"e-mail|mail|message|note|reply|answer|feedback|update|order|parcel|package|delivery|"
    r"bill|statement|receipt|proposal|report|request|notice|reminder|call|text|news)s?",
    re.I,
)
#: The group or place a person is said to be "from" when it is no name: a part of an
#: organisation ("Priya from finance") or a circle of everyday life ("Jo from work").
_FROM_GROUP = (
    r"(?:[a-z]+\s+(?:team|department|dept|office|desk|group|club)\b|"
    r"finance|accounts|accounting|payroll|legal|marketing|sales|support|engineering|design|"
    r"product|ops|operations|procurement|purchasing|compliance|security|research|admin|"
    r"reception|facilities|logistics|recruiting|recruitment|management|"
    r"work|school|uni|university|college|church|the\s+gym|gym|nursery|next\s+door|"
    r"upstairs|downstairs|across\s+the\s+(?:road|street|hall)|down\s+the\s+(?:road|street)|"
    r"the\s+office|choir|yoga|class|the\s+pub)(?![\w-])"
)
#: "Sam from Acme Corp", "Ines from the data team", "Priya from finance": a person and
#: where they are from.
FROM = re.compile(
    rf"(?:^|[,;:]\s*|\b(?:and|met|with|to|ask|asked|tell|told|call|called)\s+)(?P<name>{NAME})\s+"
    rf"from\s+(?:the\s+|our\s+|their\s+)?(?:[{_UP}]|(?P<group>{_FROM_GROUP})"
    # the group ends what is said of the person ("Priya from finance is leaving"), not a
    # word naming a thing of it ("we deploy it with Ansible from the ops repo")
    r"(?=\s*(?:$|[.,;:!?)—–-])|\s+(?:is|was|are|were|has|had|have|said|says|told|asked|will|"
    r"would|can|could|and|or|but|who|to|at|in|on|for|with|about|came|comes|called|emailed|"
    r"messaged|texted|sent|wants|needs|thinks|just|also|too|again|never|always)\b|['’]s\b))"
)
#: Words that open a sentence before "from work", "from school" and are no one: "Home from
#: work by six", "Kids from school are off", "Straight from the office".
NOT_FROM_GROUP = frozenset({
    "home", "straight", "fresh", "back", "away", "someone", "somebody", "anyone", "anybody",
    "nobody", "everyone", "everybody", "people", "kids", "children", "friends", "parents",
    "colleagues", "folks", "guys", "lunch", "dinner", "pickup", "stuff", "things", "news",
    "time", "days", "leave", "holiday", "off", "free", "one", "two", "three",
})  # fmt: skip
SUBJECT = re.compile(
    rf"(?:^|[,;:]\s*(?:and\s+|but\s+|so\s+)?|\b(?:and|but|so|that|because|think|guess|heard|"
    rf"know|says|said|(?i:remember))\s+)(?P<name>{NAME})"
    r"(?:\s+(?:prefers|likes|loves|hates|dislikes|wants|needs|lives|lived|moved|works|worked|"
    r"said|says|thinks|thought|got\s+(?:a|the|married|engaged|promoted)|started|joined|left|"
    r"can't|doesn't|didn't|won't|finished|asked|wrote|sent|called|told|bought|adopted|drinks|"
    r"eats|plays|studies|teaches|speaks|graduated|retired|married|celebrates|visited|met|"
    r"is\s+(?:allergic|vegetarian|vegan|pregnant|sick|ill|married|engaged|leaving|moving|"
    r"getting|starting|joining|retiring|visiting|coming|away|out|off|back|in\s+charge)|"
    r"has\s+(?:a|an|two|three|been|just|already|never|always))"
    r"|(?:'s|’s)\s+(?:birthday|wife|husband|partner|kids|children|son|daughter|dog|cat|"
    r"favou?rite|new|flat|house|team|mum|mom|dad|sister|brother|parents|phone|email|address|"
    r"leaving|retirement|funeral|wedding|christening|graduation|surgery|operation|"
    # what only a person has or is, said with "'s": "Sofia's gluten free", "Zara's moving"
    r"boyfriend|girlfriend|fianc[eé]e?|baby|grandma|grandad|nan|granny|"
    r"allergic|vegetarian|vegan|pregnant|coeliac|diabetic|gluten|lactose|dairy|"
    r"retiring|moving|visiting|coming|"
    # a body's, a birth's, a patient's and a pupil's things: "Fatima's waters broke", "Ade's
    # knee is worse", "Mia's scan is on Friday" (no word a firm or a town has too: "Canada's
    # visa rules", "Hamilton's cast")
    r"(?P<body>waters|contractions|due\s+date|scan|bloods|diagnosis|meds|medication|inhaler|"
    r"allergy|knee|hip|ankle|wrist|shoulder|elbow|teeth|tooth|stitches|fever|GP|midwife|"
    r"physio|therapist|teacher|homework|exams?|hen\s+do|stag\s+do)))\b"
)
_ORG_SUFFIX = (
    r"(?:Inc|Ltd|GmbH|LLC|AG|SA|Corp|Corporation|Labs|Bank|University|College|Group|Systems|"
    r"Technologies|Capital|Health|Foundation|Agency|Studios?|Partners|Ventures|Consulting|"
    # what a trade or a charity calls itself: "Mallory Roofing", "Hollis Removals"
    r"Heating|Plumbing|Electrical|Electrics|Roofing|Builders|Construction|Motors|Lettings|"
    r"Estates|Removals|Logistics|Services|Solutions|Supplies|Rescue|Trust|Society|Pharmacy|"
    r"Dental|Veterinary|Vets|Insurance|Housing|Landscaping|Cleaning|Catering|Bakery|Kitchens|"
    # what a firm of a line of business calls itself: "Brightwater Analytics", "Harlow Digital"
    r"Analytics|Digital|Media|Software|Networks|Robotics|Industries|Holdings|Enterprises|"
    r"Associates|Architects|Engineering|Pharma|Pharmaceuticals|Therapeutics|Biotech|Airlines|"
    r"Airways|Telecom|Energy|Consultants|Accountants|Solicitors|Legal|Realty|Properties|"
    r"Interiors|Recruitment|Logistik|Technik|Verlag|Press|Books|Records|Foods|Brewery|Travel|"
    r"Tours|Cycles|Autos|Tyres|Glazing|Joinery|Decorators|Homes|Developments|Accountancy|"
    r"Opticians|Physiotherapy|Fitness|Kennels|Cattery|Grooming|Hospice)"
    # the point of "Inc.", "Ltd.", "Corp." is the name's; a sentence's full stop is not
    r"\b(?:(?<=Inc)\.|(?<=Ltd)\.|(?<=Corp)\.)?"
)
#: What names a business or institution when set before its name: "the company Feitoria".
_ORG_NOUN_WORDS = (
    r"company|firm|agency|startup|start-up|bank|shop|store|brand|restaurant|caf[eé]|hotel|"
    r"clinic|hospital|school|studio|charity|supplier|vendor|airline|carrier|provider|insurer|"
    r"publisher|label|platform|app|service|retailer|chain|consultancy|manufacturer|maker|"
    r"employer"
)
_ORG_NOUN = rf"(?:{_ORG_NOUN_WORDS})"
#: More such nouns, read only where the noun ends what is said of a name ("Bramble is the
#: bakery"): before a name they are places as often ("the venue Kate booked").
_ORG_NOUN_SAID = (
    rf"(?:{_ORG_NOUN_WORDS}|bakery|pub|garage|salon|gym|nursery|pharmacy|florist|caterers?|"
    r"venue|dealership)"
)
#: A word that opens a sentence and is no name, capitalised as it stands first.
_SENTENCE_ADVERB = r"(?:[A-Z][a-z]+ly|Overall|However|Yes|No|Also|Still|Then|Now|So|Well)\b"
#: A word that opens a sentence and is set off by a comma, no name: "Sorry, …", "Actually, …".
_DISCOURSE_MARKER = (
    r"(?:Sorry|Actually|Oops|Well|Yes|Yeah|No|Nope|Okay|OK|Ok|Right|So|Anyway|Also|Oh|Hi|Hello|"
    r"Thanks|Sadly|Luckily|Apparently|Basically|Honestly|Then|Now|Wait|Update|Correction|Still|"
    r"However|Besides|Meanwhile|Otherwise|Instead|Later|Today|Tomorrow|Yesterday)"
)
ORGS = (
    re.compile(rf"\b(?P<name>{NAME_WORD}(?:\s+{NAME_WORD})?\s+{_ORG_SUFFIX})"),
    # "Kessler & Haas", "Hargreaves and Lowe Ltd": names joined by "&" are a firm
    re.compile(rf"\b(?P<name>{NAME_WORD}\s+&\s+{NAME_WORD})(?![\w-])"),
    # "Pryce and Sons", "Hale & Co": a family firm, never a person called "Son"
    re.compile(
        rf"\b(?P<name>{NAME_WORD}(?:\s+{NAME_WORD})?\s+(?:&|and)\s+"
        r"(?:Sons?|Daughters?|Co|Company|Partners|Associates|Brothers|Bros)\b\.?)"
    ),
    re.compile(
        rf"\b(?i:the|a|an|our|my|their|this)\s+(?i:{_ORG_NOUN})\s+(?:(?i:called|named|call|name|is\s+called)\s+)?"
        rf"(?P<name>{NAME_WORD}(?:\s+{NAME_WORD})?)"
    ),
    # "Tessaly's CFO", "Ormond's board": what only an organisation has
    re.compile(
        rf"\b(?P<name>{NAME_WORD}(?:\s+{NAME_WORD})?)(?:'s|’s)\s+(?:CEO|CFO|CTO|COO|CMO|board\s+of|"
        r"board\b|shareholders|employees|headquarters|HQ|head\s+office|website|HR\s+(?:team|department)|"
        r"(?:legal|finance|sales|support|accounts|procurement)\s+(?:team|department))"
    ),
    # "Marlow Fenwick are sending the contract": a two-word name that takes a plural verb is
    # a firm (a person's full name never does), unless it is one of names joined by "and"
    re.compile(
        rf"(?<!\band\s)(?<!&\s)(?<!,\s)(?<![\w-])(?P<name>{NAME_WORD}\s+{NAME_WORD})\s+"
        r"(?:are|were|have\s+(?:been|sent|said|confirmed|agreed|asked|offered|replied|come|got)|"
        r"say|want|need|think|reckon)\b"
    ),
    re.compile(
        # (not a word that opens a sentence before its comma: "Sorry, the school trip …")
        rf"\b(?!{_DISCOURSE_MARKER}\b)(?P<name>{NAME_WORD}(?:\s+{NAME_WORD})?),\s+"
        rf"(?i:our|the|their|my|a|an)\s+(?:[\w-]+\s+)?(?i:{_ORG_NOUN})\b"
    ),
    # "Fitzroy Lane, the letting agents", "Okoro Reid, our solicitors": one name said to be
    # people of a trade, plural, is their firm (a person is never "the builders")
    re.compile(
        rf"(?<!\band\s)(?<!&\s)(?<!,\s)(?<![\w-])(?!{_SENTENCE_ADVERB})"
        rf"(?P<name>{NAME_WORD}(?:\s+{NAME_WORD})?),\s+"
        r"(?:our|the|their|my)\s+(?:[a-z-]+\s+)?"
        r"(?!(?:neighbou?rs|parents|grandparents|sponsors|visitors|supporters|characters|"
        r"inhabitants|residents|tenants|occupants|headquarters)\b)"
        r"[a-z]{2,}(?:ers|ors|ists|ants|ents|ians)(?=\s*(?:[,.;:)!?]|$))"
    ),
    # "Tallis is the agency, nobody's called Tallis", "Bramble is the bakery on Mill Road":
    # the noun ends its phrase ("Tom is a service engineer" names a job, not a firm)
    re.compile(
        rf"\b(?P<name>{NAME_WORD}(?:\s+{NAME_WORD})?)\s+(?i:is|are|was|were)\s+"
        rf"(?i:our|the|their|my|a|an)\s+(?:[\w-]+\s+)?(?i:{_ORG_NOUN_SAID})"
        r"(?=\s*(?:[.,;:!?)]|$)|\s+(?i:on|in|at|near|by|from|that|which|we|I|they|and|but|so)\b)"
    ),
    re.compile(
        rf"\b(?:offer|job|role|position|interview|internship|contract|job\s+offer)\s+"
        rf"(?:from|at|with)\s+(?P<name>{NAME_WORD}(?:\s+{NAME_WORD})?)"
    ),
    re.compile(
        rf"\b(?:work|works|worked|working|employed|hired)\s+(?:at|for|by)\s+"
        rf"(?P<name>{NAME_WORD}(?:\s+(?:&\s+)?{NAME_WORD})?)"
    ),
    re.compile(
        rf"\bthe\s+(?P<name>{NAME_WORD})\s+(?:job|office|offer|account|contract|interview|"
        r"headquarters|HQ|deal|client)\b"
    ),
)
#: Someone's liking, said of them ("Alice prefers green tea"): a preference, as "I prefer" is.
THIRD_PREFERENCE = re.compile(
    r"\b(?:prefers|likes|loves|hates|dislikes|enjoys|doesn't\s+like|does\s+not\s+like|"
    r"can't\s+stand)\b",
    re.I,
)
#: The verb of a liking, for telling which earlier liking a change replaces when they share no
#: word: "The user prefers green tea" -> "The user prefers coffee now".
LIKING_VERB = re.compile(
    r"\b(?P<verb>prefer|like|love|hate|dislike|enjoy|drink|eat|use|want|play|read|watch|"
    r"listen\s+to|wear|drive|take)(?:s|es|ed|d)?\b",
    re.I,
)


def liking_frame(text: str) -> tuple[str, str] | None:
    """(who, verb) of a liking: the word before its verb (adverbs aside; "user" in "the
    user prefers", "alice"), lowercased, and the verb's base form; None when `text` has no
    liking verb."""
    m = LIKING_VERB.search(text)
    if not m:
        return None
    who = re.findall(r"[\w'’-]+", text[: m.start()].lower())
    who = [w for w in who if w not in _NOT_WHO]
    return (who[-1] if who else ""), m.group("verb").lower()


_NOT_WHO = {
    "now", "really", "actually", "also", "still", "these", "days", "nowadays", "honestly",
    "mostly", "usually", "always", "much", "would", "rather", "instead", "lately", "anymore",
    "and", "but", "so", "oh", "well", "hmm",
}  # fmt: skip


#: A name used the way a service or brand is used: "booked it through Expedia", "good
#: experiences with Expedia and Booking", "Expedia's app". Such a name is an organisation.
SERVICE = (
    # what is kept, tracked or sent somewhere: "passwords in Bitwarden", "tickets in Linear",
    # "invoices go out through Stripe"
    re.compile(
        rf"\b(?:keep|keeps|kept|store|stores|stored|save|saves|saved|track|tracks|tracked|"
        rf"log|logs|logged|manage|manages|managed|host|hosts|hosted|sync|synced|back\s+up|"
        rf"passwords?|tickets?|tasks?|issues?|notes?|docs?|invoices?|payments?|files?|secrets?)"
        rf"\b[^.;!?\n]{{0,40}}?\b(?:in|on|into|with)\s+(?P<names>{NAME_WORD})(?![\w-])"
    ),
    re.compile(
        rf"\b(?:go|goes|went|sent|send|sends|paid|pay|pays|billed|bill|processed|run|runs)"
        rf"(?:\s+out)?\s+(?:through|via)\s+(?P<names>{NAME_WORD})(?![\w-])"
    ),
    re.compile(
        rf"\b(?:experiences?|luck|account|subscription|membership|deals?|booking|reservation|"
        rf"order)\s+(?:with|on|at|from|through|via)\s+"
        rf"(?P<names>{NAME_WORD}(?:(?:,\s*|\s+(?:and|or)\s+){NAME_WORD})*)"
    ),
    re.compile(
        rf"\b(?:booked|book|booking|bought|buy|buying|ordered|order|ordering|paid|pay|paying|"
        rf"reserved|reserve|shopped|shopping|purchased|sold|sell|selling|listed|streamed|"
        rf"streaming|subscribed|rented|renting)\b[^.;!?\n]{{0,30}}?\b(?:through|via|on|from|at)\s+"
        rf"(?P<names>{NAME_WORD})(?![\w-])"
    ),
    re.compile(
        rf"\b(?P<names>{NAME_WORD})['’]s\s+(?:app|website|site|platform|customer\s+service|"
        rf"support\s+team|loyalty\s+program(?:me)?|rewards)\b"
    ),
)
#: A name spoken of as no person is: believed in, prayed to, the existence of ("the
#: existence of God", "trusting in God's goodness", "ask God for strength"). Not a person,
#: and no page of its own.
NOT_PERSON = (
    re.compile(
        rf"\b(?:existence|belief|faith|grace|presence|likeness|glory)\s+of\s+(?P<name>{NAME_WORD})"
    ),
    re.compile(
        rf"\b(?:pray|prays|prayed|praying|prayers?)\s+(?:to|for|with)\s+(?P<name>{NAME_WORD})"
    ),
    re.compile(
        rf"\b(?:believe|believes|believed|believing|trust|trusts|trusted|trusting|faith)\s+in\s+"
        rf"(?P<name>{NAME_WORD})"
    ),
    re.compile(
        rf"\bask(?:s|ed|ing)?\s+(?P<name>{NAME_WORD})\s+for\s+(?:strength|protection|guidance|"
        rf"forgiveness|mercy|blessings?|wisdom)\b"
    ),
    re.compile(
        rf"(?P<name>{NAME_WORD})['’]s\s+(?:goodness|grace|mercy|will|plan|creation|blessings?|glory)\b"
    ),
)
PLACES = (
    re.compile(
        rf"\b(?:in|near|around|across|outside|via)\s+(?P<name>{NAME_WORD}(?:\s+{NAME_WORD})?)(?!['’]s)"
    ),
    re.compile(
        rf"\b(?:moved|move|moving|fly|flew|flying|flight|travel\w*|trip|holiday|vacation|went|go|"
        rf"going|drive|drove|driving|back|return\w*|relocat\w*|commut\w*|train|visit\w*|"
        rf"live|lives|lived|living|based|born|grew\s+up)\s+(?:to|in|from|at|back\s+to)?\s*"
        rf"(?P<name>{NAME_WORD}(?:\s+{NAME_WORD})?)(?!['’]s)"
    ),
)
_PET_NOUN = (
    r"(?:dog|cat|puppy|kitten|rabbit|bunny|hamster|parrot|horse|pony|pet|tortoise|turtle|"
    r"guinea\s+pig|budgie|goldfish|ferret)"
)
PET_NOUN = re.compile(rf"\b{_PET_NOUN}s?\b", re.I)
#: An animal by its kind or breed: a pet noun, or a breed of dog or cat said of one.
_ANIMAL = (
    rf"(?i:{_PET_NOUN}|greyhound|labrador|spaniel|terrier|collie|poodle|beagle|dachshund|"
    r"whippet|lurcher|retriever|shepherd|husky|pug|corgi|tabby|siamese|moggy|budgerigar|"
    r"cockatiel|gecko|snake|lizard|chicken|hen|goat|lamb)"
)
PETS = (
    re.compile(
        rf"\b(?:[Mm]y|[Oo]ur|[Tt]he|[Hh]is|[Hh]er|[Tt]heir)\s+(?:[a-z]+\s+)?{_ANIMAL}\s*,?\s+"
        rf"(?P<name>{NAME_WORD})"
    ),
    re.compile(
        rf"(?P<name>{NAME_WORD})(?:,?\s+|\s*\(\s*)(?:my|our|the|his|her|their)\s+(?:[a-z]+\s+)?"
        rf"{_ANIMAL}\b"
    ),  # "Biscuit, our rabbit", "Biscuit (the rabbit)", "Biscuit, my spaniel"
    # "has a greyhound called Biscuit": an animal named as it is introduced
    re.compile(rf"\b{_ANIMAL}\s+(?i:called|named)\s+(?P<name>{NAME_WORD})"),
)
PET_NAMED = re.compile(rf"\b(?:his|her|its|their)\s+name\s+is\s+(?P<name>{NAME_WORD})")

#: Words that make a capitalised word after "to" a person, not a place ("talked to Bob").
PERSON_TO = re.compile(
    r"\b(?:talk\w*|spoke|speak\w*|said|say|says|wrote|write|writes|sent|send|gave|give|reply|"
    r"replied|introduc\w*|married|listen\w*|explain\w*|report\w*|belongs|next|thanks|hello|hi)\s+"
    r"(?:\w+\s+)?to\s*$",
    re.I,
)

FIRST_PERSON = re.compile(r"\b(?:I|me|my|mine|myself)\b|\bI(?:'m|'ve|'ll|'d)")

#: Sentences that carry nothing to keep on their own ("Priya didn't mind.", "Big week.").
_CONTENT = re.compile(r"[A-Za-zÀ-ÿ]{4,}|\d")
FILLER_WORDS = {
    "didn't", "mind", "thanks", "thank", "great", "cool", "nice", "okay", "sure", "that's",
    "amazing", "awesome", "please", "sounds", "good", "week", "yeah", "wow", "honestly", "haha",
    "anyway", "well", "just", "really", "that", "this", "what", "there", "here", "with",
}  # fmt: skip


def filler(sentence: str) -> bool:
    """A sentence too thin to be a fact: a few words, none of them carrying content."""
    words = re.findall(r"[\w'’]+", sentence)
    if len(words) >= 6:
        return False
    content = [w for w in words if _CONTENT.fullmatch(w) or len(w) >= 4 or w.isdigit()]
    content = [w for w in content if w.lower() not in FILLER_WORDS and not w[:1].isupper()]
    return len(content) < 2


# -- nicknames and kin ----------------------------------------------------------------------

#: A nickname introduced for a name: "Theodore — we all call him Teddy", "Alexandra (Sasha
#: for short)", "Robert, who goes by Bob", "Elizabeth aka Liz".
NICKNAME = (
    re.compile(
        rf"(?P<full>{NAME})\s*(?:[—–,(-]\s*)?(?:who\s+)?(?:we\s+(?:all\s+)?|everyone\s+|they\s+|"
        rf"people\s+)?call(?:s|ed)?\s+(?:him|her|them)\s+(?P<nick>{NAME_WORD})"
    ),
    re.compile(rf"(?P<full>{NAME})\s*[(,]\s*(?P<nick>{NAME_WORD})\s+for\s+short"),
    # "Theodore, Teddy to everyone", "Margaret (Peg to the family)"
    re.compile(
        rf"(?P<full>{NAME})\s*[(,]\s*(?P<nick>{NAME_WORD})\s+to\s+(?:everyone|everybody|all|"
        r"(?:(?:his|her|their)\s+)?friends|us|the\s+family|family)\b"
    ),
    re.compile(rf"(?P<full>{NAME}),?\s+(?:who\s+)?(?:goes|went)\s+by\s+(?P<nick>{NAME_WORD})"),
    re.compile(rf"(?P<full>{NAME}),?\s+(?:aka|a\.k\.a\.)\s+(?P<nick>{NAME_WORD})"),
    # "Ah Ma (my grandmother, Wong Siu-Fong)", "Gigi (my aunt, Georgina Hale)": what the
    # user calls them, who they are to the user and their name, in brackets
    re.compile(
        rf"(?P<nick>{NAME})\s*\(\s*(?:my|our)\s+[a-z-]+(?:\s+[a-z-]+)?,\s*"
        rf"(?P<full>{NAME})[^()\n]{{0,30}}\)"
    ),
    # "Grandad (Tomás Ó Briain)", "Mum (Helen)": the family word the user calls them by,
    # and their name in brackets
    re.compile(
        r"\b(?P<nick>Mum|Mom|Mam|Mummy|Mother|Dad|Daddy|Father|Nan|Nana|Nanna|Gran|Granny|"
        r"Grandma|Grandpa|Grandad|Granddad|Grandmother|Grandfather|Auntie|Aunty)\s*\(\s*"
        rf"(?P<full>{NAME})[^()\n]{{0,30}}\)"
    ),
)
#: A nickname in quotes between a first and a last name, as squad and class lists write
#: them: `Ellis "Boots" Morgan`, `Jayden 'JJ' Joseph`.
QUOTED_NICKNAME = re.compile(
    rf"\b(?P<first>{NAME_WORD})\s+[\"“‘'](?P<nick>{NAME_WORD}|[{_UP}]{{2,4}})[\"”’']\s+"
    rf"(?P<last>{NAME_WORD})\b"
)
#: What a kin word may carry before and after it, and keeps as part of the relation:
#: "step-", "half-", "ex-", "great-" and "-in-law" ("brother-in-law" is no brother).
_KIN_PREFIX = r"(?:(?:step|half|ex|great)-?)?"
_KIN_SUFFIX = r"(?:-in-law)?"


def kin_word(words: str) -> str:
    """A pattern for the kin words `words` ("sister|brother"), with their affixes, ending
    where the word does: "my brother-in-law" is never "my brother"."""
    return rf"(?i:{_KIN_PREFIX}(?:{words}){_KIN_SUFFIX})(?![\w-])"


#: A kin or role word after a possessive, with the name that may follow it: "my brother",
#: "her son Theodore".
KIN = re.compile(
    r"\b(?P<whose>[Mm]y|[Hh]is|[Hh]er|[Tt]heir|[Oo]ur|[Yy]our)\s+(?P<rel>"
    + kin_word(
        "sister|brother|mum|mom|mother|father|dad|wife|husband|partner|son|daughter|aunt|uncle|"
        "niece|nephew|grandma|grandpa|grandmother|grandfather|girlfriend|boyfriend|cousin|friend|"
        "boss|manager|colleague|neighbour|neighbor"
    )
    + rf")(?:\s+(?P<name>{NAME_WORD}))?"
)


#: A kin word after a name's possessive, with the name that may follow it: "Priya's dad",
#: "Tom's sister Ana". Without a name after it, the kin is someone of their own, whom a
#: later "he" or "she" may mean (never the name before the possessive).
NAMES_KIN = re.compile(
    rf"\b(?P<holder>{NAME_WORD})['’]s\s+(?P<rel>"
    + kin_word(
        "sister|brother|mum|mom|mother|father|dad|wife|husband|son|daughter|aunt|uncle|"
        "niece|nephew|grandma|grandpa|grandmother|grandfather|girlfriend|boyfriend"
    )
    + rf")(?:\s+(?P<name>{NAME_WORD}))?"
)

_WEEKDAY_ABBR = {short: WEEKDAYS[i].capitalize() for short, i in WEEKDAY_ABBREVIATIONS.items()}
#: Abbreviations that are words too ("I sat down", "in the sun", "they wed in June", "mon
#: ami"): a day only after a word that introduces a day ("on sat", "coming over sat", "till
#: sun") and before nothing it could qualify, with a day of the month ("sat 28th", "Sat 3"),
#: or capitalised in a list or a schedule line ("Sat: football", "Mon/Wed", "Sun 10am").
_WORD_ABBR = {"sat", "sun", "wed", "mon"}
_BEFORE_DAY = {
    "on", "this", "next", "last", "by", "until", "till", "til", "from", "before", "after",
    "over", "since", "due",
}  # fmt: skip
_ABBR_DAY = re.compile(
    r"(?:(?<=[\s/,&+(])|^)(?:(?P<prev>[A-Za-z']+)\s+)?(?P<abbr>(?i:mon|tues?|weds?|thu(?:rs?)?|fri|sat|sun))"
    r"(?![\w'’-])(?P<dom>\s+\d{1,2}(?:st|nd|rd|th)\b|\s+\d{1,2}(?![\w:.,/%]|\s*(?:am|pm|-\s*\d)\b)"
    r"(?=\s*(?:$|[,;.!?)]|at\b|@|-|–|—|\()))?(?P<dir>(?=\s+(?:before|after)\b))?"
)
_DAY_PARTS = {"morning", "afternoon", "evening", "night", "eve", "lunchtime", "noon"}


def qualifies_nothing(after: str) -> bool:
    """Whether the text `after` a word that may name a day ("sun", "Christmas") leaves it a
    day: the end of the clause, a number, a part of the day, a short chat word ("sat w her
    kid"), a function word or a verb ("on sat we went", "Halloween starts at dusk"); never
    a noun it would qualify ("on sun loungers", "the Christmas party")."""
    nxt = re.match(r"\s*([a-z][a-z'’-]*)", after)
    if nxt is None:
        # "the Christmas Jumbo", "the Easter Fair": a title's word, not a name ("Christmas
        # Tom came round")
        cap = re.match(r"[ \t]*([A-Z][a-z]+)\b", after)
        return not (
            cap and cap.group(1).lower() not in stopwords.ENGLISH and title_word(cap.group(1))
        )
    word = nxt.group(1)
    return len(word) < 3 or word in stopwords.ENGLISH or word in _DAY_PARTS or has_verb(word)


_ANY_ABBR = r"(?:mon|tues?|weds?|thu(?:rs?)?|fri|sat|sun)(?:day)?"
#: A day named in a list of days ("Tue/Thu", "Sat and Sun", "Mon-Fri").
_LISTED = r"\s*(?:[,/&+]|-|–|and|or|to)\s*"


def _in_a_list_of_days(sentence: str, m: re.Match) -> bool:
    """Whether the capitalised abbreviation of `m` is one of a list or schedule of days:
    "Tue/Sat", "Sat and Sun", or a line that starts with it before a colon, dash or time."""
    before, after = sentence[: m.start("abbr")], sentence[m.end("abbr") :]
    return bool(
        re.match(rf"{_LISTED}{_ANY_ABBR}\b", after, re.I)
        or re.search(rf"\b{_ANY_ABBR}{_LISTED}$", before, re.I)
        or (
            re.search(r"(?:^|\n)\s*(?:[-*•]\s*)?$", before)
            and re.match(
                r"\s*(?:[:\-–—]|\d{1,2}(?::\d\d)?\s*(?:am|pm)\b|\d{1,2}:\d\d)", after, re.I
            )
        )
    )


#: Chat's shorthand for a time word: "tmrw", "b4", "2moro", "nxt wk".
_CHAT_TIME = {
    "tmrw": "tomorrow", "tmw": "tomorrow", "tmoz": "tomorrow", "2moro": "tomorrow",
    "2morrow": "tomorrow", "tomoz": "tomorrow", "2day": "today", "2nite": "tonight",
    "tonite": "tonight", "b4": "before", "wk": "week", "nxt": "next", "appt": "appointment",
}  # fmt: skip
_CHAT_WORD = re.compile(r"(?<![\w'’-])(?:" + "|".join(_CHAT_TIME) + r")(?![\w'’-])", re.I)


def weekdays_spelled(sentence: str) -> str:
    """Chat's abbreviated days written out ("coming over sat" -> "coming over Saturday",
    "call fri" -> "call Friday", "sat 28th" -> "Saturday 28th"), so that they resolve like
    any day: an abbreviation that is an English word too only after a word that introduces a
    day or before a day of the month; and chat's shorthand for time words ("tmrw", "b4")."""

    def spell(m: re.Match) -> str:
        abbr = m.group("abbr")
        prev = m.group("prev")
        if (
            abbr.lower() in _WORD_ABBR
            and not (
                prev is not None
                and prev.lower() in _BEFORE_DAY
                and qualifies_nothing(sentence[m.end("abbr") :])
            )  # "on sat we went", never "on sun loungers"
            and not m.group("dom")  # "sat 28th", "Sat 3": a day with its day of the month
            and not (
                m.group("dir") is not None and (prev or "").lower() == "the"
            )  # "the wed before"
            and not (abbr[0].isupper() and _in_a_list_of_days(sentence, m))  # "Sat: football"
        ):
            return m.group(0)
        if abbr != abbr.lower() and abbr != abbr.capitalize():
            return m.group(0)  # "SAT", "SUN": an acronym
        day = _WEEKDAY_ABBR[abbr.lower()]
        return m.group(0)[: m.start("abbr") - m.start()] + day + (m.group("dom") or "")

    sentence = _CHAT_WORD.sub(
        # a label ("B4: 134", a spreadsheet's cell; "wk: 12") stays as written
        lambda m: (
            m.group(0)
            if re.match(r"\s*[:=]", sentence[m.end() :])
            else _CHAT_TIME[m.group(0).lower()]
        ),
        sentence,
    )
    return _ABBR_DAY.sub(spell, sentence)


def names_capitalised(sentence: str, known: set[str]) -> str:
    """A sentence written all in lower case ("my sister dani is coming sat") with the names
    in it capitalised, as a careful reader would: the word right after a kin or role word
    ("my sister dani"), unless it is a function word, an adverb or a verb or starts a phrase
    ("our neighbour next door"), every name `known` already, and the days of the week. A
    sentence with any capital letter is returned as it is."""
    if sentence != sentence.lower():
        return sentence
    lowered = {k.lower(): k for k in known if " " not in k}

    def after_kin(m: re.Match) -> str:
        word = m.group("name")
        if not word or word in lowered or word in stopwords.ENGLISH or word in _GENERIC:
            return m.group(0)
        if has_verb(word) or word in stopwords.FILLER:
            return m.group(0)
        if re.fullmatch(rf"(?:{_ADVERBS}|[a-z]+(?:ing|ly))", word):
            return m.group(0)
        following = re.match(r"\s*([a-z'-]+)?", sentence[m.end() :])
        nxt = following.group(1) if following else None
        if nxt in ("i", "that"):
            return m.group(0)  # "my mum sed i can": a verb however spelled, saying what
        if (
            nxt
            and not nxt.startswith("'")
            and nxt not in stopwords.ENGLISH
            and not has_verb(nxt)
            and not nxt.endswith("ing")
        ):
            return m.group(0)  # "our neighbour next door": a phrase, not a name
        return m.group(0)[: m.start("name") - m.start()] + word[:1].upper() + word[1:]

    out = _KIN_LOWER.sub(after_kin, sentence)
    out = _WEEKDAY_LOWER.sub(lambda m: m.group(0).capitalize(), out)  # a day, not code
    if lowered:
        pattern = (
            r"\b(" + "|".join(re.escape(k) for k in sorted(lowered, key=len, reverse=True)) + r")\b"
        )
        out = re.sub(pattern, lambda m: lowered[m.group(1)], out)
    return out


_KIN_LOWER = re.compile(
    r"\b(?:my|his|her|their|our)\s+(?:sister|brother|mum|mom|mother|father|dad|wife|husband|"
    r"partner|son|daughter|aunt|uncle|niece|nephew|grandma|grandpa|grandmother|grandfather|"
    r"girlfriend|boyfriend|cousin|friend|boss|manager|colleague|neighbour|neighbor|kid|"
    r"child)\s+(?P<name>[a-z][a-z-]+)"
)
_WEEKDAY_LOWER = re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b")


#: A kin word used as a title before a name: "Uncle Desmond", "Grandma Ruth", "Aunt May".
KIN_TITLE = re.compile(
    rf"\b(?P<rel>Uncle|Aunt|Auntie|Grandma|Grandpa|Granny|Grandad|Granddad|Nana|Cousin)\s+"
    rf"(?P<name>{NAME_WORD})"
)


def kin_gender(rel: str) -> str | None:
    """'f' or 'm' for a kin word that tells it ("sister", "ex-wife", "brother-in-law")."""
    rel = re.sub(rf"^{_KIN_PREFIX}|{_KIN_SUFFIX}$", "", rel.lower())
    return "f" if rel in FEMALE_RELATIONS else "m" if rel in MALE_RELATIONS else None


# -- statements worth keeping ---------------------------------------------------------------

_NOT_STATEMENT = re.compile(
    r"^(?:(?:so|and|but|ok|okay|oh|well|hmm|also),?\s+)*(?:can|could|would|will|do|does|did|is|"
    r"are|should|shall|may|might|what|why|how|where|when|who|which|whose|please|help|let's|"
    r"let\s+me|tell\s+me|show\s+me|give\s+me|find\s+me|check|look|try|thanks|thank|hi|hello|hey|"
    r"good\s+(?:morning|night|evening)|bye|sure|great|cool|nice|perfect|lol|haha|i\s+wonder|"
    r"i\s+(?:need|want)\s+(?:you|to\s+know)|any\s+(?:idea|ideas|tips|thoughts))\b",
    re.I,
)
#: The greeting and sign-off of a letter: "Dear all", "Best regards", "Cheers".
_SIGN_OFF = re.compile(
    r"^(?:dear\b|(?:best|kind|warm|many)\s+(?:regards|wishes|thanks)\b|regards\b|cheers\b|"
    r"sincerely\b|yours\b|all\s+the\s+best\b|hi\s+all\b|hello\s+all\b)",
    re.I,
)
_VERB = re.compile(
    r"\b(?:is|are|was|were|am|be|been|has|have|had|do|does|did|can|can't|cannot|could|will|"
    r"won't|would|should|must|need|needs|go|goes|went|get|gets|got|take|takes|took|make|makes|"
    r"made|eat|eats|drink|drinks|use|uses|used|run|runs|ran|live|lives|work|works|start|starts|"
    r"owns?|keeps?|comes?|came|moved?|moves|found|finds?|pays?|paid|costs?|owes?|prefers?|"
    r"likes?|loves?|hates?|wants?|leaves?|left|arrives?|ends?|opens?|closes?|begins?|"
    # what a group, a class or a round does on its days: "Book club meets at the library"
    r"meets?|met|visits?|restarts?|returns?|happens?|trains?|plays?|collects?|delivers?|"
    # the past tenses and participles no "-ed" ending finds: "Dev lent me his drill"
    r"lent|sent|bought|sold|told|gave|given|brought|caught|taught|thought|spent|built|lost|won|"
    r"kept|slept|felt|broke|broken|wrote|written|drove|driven|flew|flown|fell|fallen|forgot|"
    r"forgotten|said|heard|held|stood|grew|grown|knew|known|threw|thrown|wore|worn|chose|"
    r"chosen|shook|fought|hung|stuck|swam|sang|began|begun|drank|ate|eaten|rang|rung|spoke|"
    r"spoken|woke|stole|stolen|hid|hidden|hurt|quit|shut|"
    # the short forms of "is", "are", "am", "have", "had/would" and "not", typed with either
    # apostrophe ("I've sent the deposit", "we’re in"); "'ll" alone says a plan, not a fact
    r"[a-z]{2,}(?:ed|es))\b|['’](?:s|re|m|ve|d)\b|n['’]t\b"
    # a word after a subject pronoun is its verb: "we roll back", "she fails"
    rf"|\b(?:i|we|they)\s+(?:(?:{_ADVERBS})\s+)?[a-z]{{3,}}\b|\b(?:he|she|it)\s+[a-z]{{2,}}s\b",
    re.I,
)
SPECIFIC = re.compile(
    rf"\d|(?<=\s)[{_UP}][{_LOW}]|(?<=\s)[{_UP}]{{2,}}\b|\b[a-z]+-\d"
    # a name of code: "DATABASE_URL", "staging.env", "/volume1/@snapshots", "max_retries"
    r"|\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\b|\b[\w-]+\.(?:env|conf|cfg|ini|ya?ml|json|toml|"
    r"py|js|ts|sh|log|txt|sql|csv)\b|(?<![\w/])/[\w@.-]+/[\w@./-]*"
    # an e-mail address or a web address: "ola@example.org", "https://example.org/x"
    r"|\b[\w.+-]+@[\w-]+\.[\w.-]*[A-Za-z]|\bhttps?://\S"
)


_GREETING = re.compile(
    r"^(?:hi|hello|hey|good\s+(?:morning|afternoon|evening))(?:\s+(?:all|everyone|team|"
    r"there))?\s*[,!]\s+(?=\S+(?:\s+\S+){3})",
    re.I,
)


def without_greeting(sentence: str) -> str:
    """A sentence without the greeting it opens on ("Hello, from July the rent is 1,520 a
    month." -> "From July the rent is …"), when a statement of four words or more follows.
    A greeting that names someone ("Hey Mel, …") is a line of a chat between two people,
    kept as said."""
    m = _GREETING.match(sentence)
    if m is None:
        return sentence
    rest = sentence[m.end() :]
    return rest[:1].upper() + rest[1:]


#: "due" said of a day, the verb of a statement without one: "next one due in May".
_DUE = re.compile(r"\bdue\s+(?:in|on|by|at|back|again|for|\d)", re.I)


@remembered_up_to(SIZE, shared=True)
def worth_keeping(sentence: str) -> bool:
    """Whether a user's sentence states something worth a line of memory without any
    trigger word: declarative (not a question, request, greeting or thanks), with a verb,
    saying something specific (a number, a name, a code) or a full clause of six words."""
    text = sentence.strip()
    if (
        text.endswith(("?", ":", ","))
        or _NOT_STATEMENT.match(text)
        or (_SIGN_OFF.match(text) and len(text.split()) <= 4)
    ):
        return False  # a question, a line that introduces what follows it, a greeting
    if not has_verb(text):
        return _fragment(text) or _other_language(text) or bool(_DUE.search(text))
    if len(text.split()) < 4:
        return False
    return bool(SPECIFIC.search(text)) or len(text.split()) >= 6


#: The words of a sign-off or of talk about the talk itself: "see you Friday", "talk
#: tomorrow", "until Monday", "happy Friday" name a day but no thing to happen on it.
_TALK_WORDS = frozenset({
    "see", "talk", "speak", "chat", "catch", "until", "till", "til", "bye", "happy", "have",
    "enjoy", "ttyl", "cya", "later", "then", "back", "from", "since", "hope", "love", "enough",
    "today", "tonight", "again", "more", "done", "off",
})  # fmt: skip


#: What leads a weekday that is one day to come, not a slot of every week: "on friday",
#: "this coming Thu", "next tues", "by Monday".
_DAY_LED = re.compile(r"\b(?:on|this|next|coming|by)\s+$", re.I)


def dated_note(text: str, phrases: list[str]) -> bool:
    """A short verbless note of a thing on a day to come, as typed in a hurry: "dentist on
    friday", "quiz night this coming Thu!!", "bins out tomorrow". What is left once the day's
    `phrases` are taken out names a thing (a word of three letters or more that is no
    function word), in eight words or fewer; a question, a greeting, a sign-off or talk about
    the talk ("see you Friday", "speak tomorrow") is none, and so is a weekday not led by
    "on", "this", "next", "coming" or "by" ("Day B (Thu)" heading a week's programme, "swim
    tuesday"): a slot of every week as likely as one day."""
    t = text.strip()
    if (
        not phrases
        or t.endswith(("?", ":", ","))
        or len(t.split()) > 8
        or _NOT_STATEMENT.match(t)
        or _SIGN_OFF.match(t)
        or has_verb(t)
    ):
        return False
    for m in re.finditer(rf"\b{WEEKDAY_OR_ABBREVIATION}", t, re.I):
        if not _DAY_LED.search(t[: m.start()]):
            return False  # "Day B (Thu)", "swimming tuesday": a weekly slot as likely as a day
    rest = t
    for phrase in phrases:
        rest = re.sub(re.escape(phrase), " ", rest, flags=re.I)
    words = re.findall(r"[^\W\d_]+", rest.lower())
    if not words or set(words) & _TALK_WORDS:
        return False
    return any(
        len(w) >= 3
        and w not in stopwords.ENGLISH
        and w not in _DISCOURSE
        and w not in WEEKDAYS
        and w not in MONTHS
        for w in words
    )


def _other_language(text: str) -> bool:
    """A statement in another language, whose verbs the closed list of English ones does not
    hold ("Hij speelt in de JO11 bij HC Rijnstreek, rugnummer 14."): five words or more,
    two of them function words of the languages the rules read dates in
    (`OTHER_FUNCTION_WORDS`), fewer than one in five English ones, saying something specific
    (a name, a figure, a code). Text of no language (a key, a card number, an English line
    without a verb the list knows) has none of those words and is left to the tests
    above."""
    words = re.findall(r"[^\W\d_]+", text.lower())
    if len(words) < 5:
        return False
    english = sum(w in stopwords.ENGLISH for w in words)
    other = sum(w in OTHER_FUNCTION_WORDS for w in words)
    return other >= 2 and english < 0.2 * len(words) and bool(SPECIFIC.search(text))


#: Articles, pronouns, prepositions and joining words of French, Spanish, German, Italian,
#: Portuguese, Dutch and Polish that are no English word: a closed class, the surest sign a
#: sentence is in one of them.
OTHER_FUNCTION_WORDS = frozenset({
    "le", "la", "les", "une", "des", "du", "et", "est", "au", "aux", "pour", "avec",
    "dans", "sur", "mais", "ou", "il", "elle", "nous", "vous", "ils", "je", "tu", "ne",
    "pas", "que", "qui", "ce", "cette", "mon", "ma", "mes", "son", "sa", "ses", "leur",
    "très", "el", "los", "las", "una", "unos", "unas", "del", "y", "es", "en", "con",
    "por", "para", "pero", "se", "su", "al", "muy", "está", "mi", "der", "die",
    "das", "ein", "eine", "einen", "und", "ist", "nicht", "mit", "für", "auf", "dem",
    "den", "im", "zu", "von", "bei", "ich", "er", "sie", "wir", "ihr", "mein",
    "meine", "sein", "seine", "aber", "oder", "auch", "noch", "lo", "gli", "di",
    "della", "delle", "degli", "per", "che", "non", "sono", "mio", "mia", "suo",
    "sua", "anche", "o", "os", "um", "uma", "do", "da", "dos", "é", "em",
    "na", "nos", "nas", "não", "mas", "meu", "minha", "seu", "também", "het",
    "een", "van", "voor", "niet", "ik", "hij", "zij", "bij", "aan", "te", "ook", "maar",
    "mijn", "zijn", "haar", "w", "z", "nie", "jest", "się", "że", "ale", "od",
    "po", "dla", "moja", "mój", "jego", "jej", "też", "bo"
}) - stopwords.ENGLISH  # fmt: skip


_COUNT = re.compile(
    r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
    r"thirty|forty|fifty|hundred)\b",
    re.I,
)


#: A sentence whose subject is a person said only by a pronoun: "She loved the spa.", "His
#: flight lands at six.", "And he's off to Leeds on Friday."
_PRONOUN_SUBJECT = re.compile(
    r"^\W*(?:(?:and|but|so|also|oh|plus|then|apparently),?\s+)*(?:she|he|his|her)\b", re.I
)


def said_of_someone(sentence: str) -> bool:
    """Whether `sentence` states something of a person it names only by a pronoun: it opens
    on "she", "he", "his" or "her", is declarative (no question, request or greeting), holds
    a verb and four words or more. Such a sentence whose person is unsure is kept as said,
    not dropped."""
    text = sentence.strip()
    if text.endswith(("?", ":", ",")) or _NOT_STATEMENT.match(text):
        return False
    return bool(_PRONOUN_SUBJECT.match(text)) and len(text.split()) >= 4 and has_verb(text)


@remembered_up_to(SIZE, shared=True)
def has_verb(text: str) -> bool:
    """Whether `text` holds a verb (of the closed list, or a word after a subject pronoun)."""
    return bool(_VERB.search(text)) or any(
        m.group("name") not in NOT_NAMES and m.group("name").lower() not in _COUNT_WORDS
        for m in _NAME_VERB.finditer(text)
    )


#: A word in -s after a name is its verb: "Priya reviews every PR", "Tomasz coaches", "Gran
#: (Edith Marr) turns 90" (an aside in brackets between).
_NAME_VERB = re.compile(
    rf"\b(?P<name>[{_UP}][{_LOW}]+)(?:\s*\([^()\n]{{1,40}}\))?\s+[a-z]{{2,}}[^s\W]s\b"
)
_COUNT_WORDS = {
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "twenty", "thirty", "forty", "fifty", "hundred", "many", "more", "most", "some",
    "both", "few", "several", "no",
}  # fmt: skip


#: A code of letters and digits: "14B", "A-12", "KP19".
_CODE = re.compile(r"\b\d+[A-Z]{1,2}\b|\b[A-Z]{1,3}-?\d+\b")


#: Leaders set between a listed record's fields: "Mum ... scarf ... £60".
LEADERS = re.compile(r"\s(?:\.{3,}|…)\s")


def _fragment(text: str) -> bool:
    """A verbless fragment that still says something: a count and what it counts ("Twelve
    kids."), or a thing and what is said of it ("Coffee black, no sugar."). An opener such
    as "Back on project Apollo." says nothing of its own."""
    words = [w for w in text.rstrip(".!").split() if any(c.isalnum() for c in w)]
    content = content_words(text)
    if len(LEADERS.findall(text)) >= 2 and content and _COUNT.search(text):
        return True  # "Ada, my niece, 6 ... art easel ... £35": a record, fields led apart
    if named_figures(text):
        return True  # "Sizes: neck 16, sleeve 34 and shoe 10": each figure with its name
    if not 2 <= len(words) <= 8:
        return False
    if _FIELD_NAMED.fullmatch(text.strip()):
        return True  # "Key holder: Ruth Abara": a field that names who holds it
    if bool(content) and bool(_COUNT.search(text) or _CODE.search(text)):
        return True  # "Twelve kids.", "Plot 14B at Hollins Lane."
    head = text.split(",", 1)[0].lower().split()  # "Coffee black", said of before the comma
    return (
        "," in text
        and len(head) >= 2
        and not set(head) & _DISCOURSE
        and len(content_words(" ".join(head))) >= 2
    )


#: One figure with the name of what it measures, in a list of them: "neck 16", "inside leg 31",
#: "ring size 7 1/2", "ferritin 45 ug", "battery 80%".
_NAMED_FIGURE = re.compile(
    r"(?:[^\W\d_][\w'’-]*\s+){1,3}\d+(?:[.,/]\d+)?(?:\s+\d+/\d+)?(?:\s*(?:[^\W\d_]{1,3}|%|\"|”|″))?"
)
_LIST_JOIN = re.compile(r"\s*(?:,|;)\s*(?:and\s+)?|\s+and\s+")


def named_figures(text: str) -> bool:
    """Whether a verbless line, after a label of its own ("Measurements taken today:"), lists
    two or more figures each with the name of what it measures ("chest 44, waist 38, shoe
    10"): a record of values the user gives, worth a line though no verb says so."""
    body = text.strip().rstrip(".!")
    if ":" in body:
        label, body = body.split(":", 1)
        if len(label.split()) > 6 or "?" in label:
            return False
    pieces = _LIST_JOIN.split(body.strip())
    return len(pieces) >= 2 and all(_NAMED_FIGURE.fullmatch(p) for p in pieces)


#: A labelled field whose value is a person's full name, two to four capitalised words:
#: "Key holder: Ruth Abara", "Parents' rep: Dev O'NEILL", "Landlord's agent: Sam Yu".
_FIELD_NAMED = re.compile(
    r"[^\W\d_][\w'’ ./&()-]{0,30}:\s+[A-Z][\w'’-]*[a-z][\w'’-]*"
    r"(?:\s+(?:[A-Z][\w'’-]*[a-z][\w'’-]*|[A-Z][A-Z'’-]+)){1,3}\.?"
)

#: Words of talk rather than of content: a fragment made of them says nothing to keep.
_DISCOURSE = {
    "yes", "no", "ok", "okay", "oh", "ah", "ha", "haha", "ugh", "hmm", "well", "so", "good",
    "great", "nice", "fine", "sure", "thanks", "nothing", "much", "not", "really", "just",
    "anyway", "alright", "cool", "wow", "sorry", "please",
}  # fmt: skip


# -- corrections said as they are made ------------------------------------------------------

_NUMBER_WORDS = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|"
    "forty|fifty|hundred"
)
_ORDINAL_WORDS = (
    "first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
    "thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|"
    "twenty-(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)|thirtieth|"
    "thirty-first"
)
#: A day of the month said as an ordinal: "the 3rd", "the third".
_ORDINAL = rf"(?:the\s+)?(?:\d{{1,2}}(?:st|nd|rd|th)|(?:{_ORDINAL_WORDS}))\b"
_VALUE = (
    rf"(?:{_ORDINAL}|\d+(?:[.,:]\d+)*(?:\s*(?:am|pm)\b)?|(?:{_NUMBER_WORDS})\b|"
    rf"{WEEKDAY}\b|"
    rf"(?-i:{NAME_WORD}(?:\s+{NAME_WORD})?))"
)
#: "Thursday — no, sorry, Friday", "at 3, I mean 4": a value corrected as it is said.
SAID_AGAIN = re.compile(
    rf"(?P<old>\b{_VALUE})\s*(?:—|–|-|,|\.\.\.)?\s*"
    r"(?:(?:no|nope|wait|sorry|oops|err|uh|i\s+mean|i\s+meant|rather|or\s+rather)[,.!]?\s*)+"
    rf"(?P<new>{_VALUE})\b",
    re.I,
)
#: "Actually make that three.", "No, change it to Friday.", "Scratch that, it's the 14th.":
#: the last value said is replaced.
MAKE_THAT = re.compile(
    r"^\W*(?:(?:actually|sorry|no|oh|ah|wait|hmm|correction|oops)[,:!]?\s+)*"
    r"(?:make\s+(?:that|it)|change\s+(?:that|it)\s+to|(?:i|we)\s+meant?"
    r"|(?:scratch|forget)\s+that[,.;:—–-]*\s+(?:it's|it\s+is|it'll\s+be|make\s+it))"
    r"\s+(?P<new>[^.!?;]+)"
    # "Ah no, sorry, it is the 21st": a message opening on an apology, then the value
    r"|^\W*(?:(?:ah|oh|um|er|hmm)[,!]?\s+)?(?:(?:no|sorry|oops|wait|my\s+mistake|my\s+bad)"
    r"[,:!.]?\s+)+(?:it's|it\s+is|it\s+was|is|was|it'll\s+be|will\s+be)\s+(?P<said>[^.!?;]+)",
    re.I,
)
#: A message that corrects something said earlier without saying what: "Correction on the
#: cake: ...", "Actually, ...", "Change of plan: ...", "Update: ...".
#: A slip owned up to at the head of a message: "Actually no, …", "No no, I mistake, …",
#: "Sorry, my mistake: …".
_SLIP = (
    r"(?:(?:actually|wait|sorry|oh)[,\s]+no|no[,\s]+(?:no|wait|sorry)|my\s+(?:mistake|bad)|"
    r"i\s+(?:mistake|made\s+a\s+mistake|was\s+mistaken|got\s+(?:that|it)\s+wrong))"
)
#: A message that opens on such a slip, and what follows it.
OWNS_SLIP = re.compile(rf"^\W*{_SLIP}\s*[:,—–.-]", re.I)
CORRECTS_EARLIER = re.compile(
    r"^\W*(?:correction(?:\s+(?:on|about|to)\s+[^:,]+)?|change\s+of\s+plans?|update|"
    r"(?:scratch|scrap|strike)\s+that|on\s+second\s+thought|i\s+was\s+wrong(?:\s+about\s+[^:,]+)?"
    # "Actually no, …", "No no, I mistake, …", "Sorry, my mistake: …": a slip owned up to
    r"|" + _SLIP + r""
    # "Hang on, the Trainline one is wrong, it was £78.40": the thing said to be wrong
    r"|(?:(?:hang\s+on|wait|sorry|oops|actually)[,\s]+)?(?:the|my|our)\s+[^:,.]{1,40}?\s+"
    # "the 11% is wrong on there, …": where it is wrong said after it
    r"(?:is|was)\s+wrong(?:\s+(?:on|in|there|here|that|this|the|it)\b){0,3})\s*[:,—–-]"
    # "Apologies, the correct date for the launch is 9 May": the right value said as such
    r"|^\W*(?:(?:apologies|sorry|oops)[,.!:\s]+)?the\s+correct(?:ed)?\s+[^:,.]{1,40}?\s+(?:is|are)\b",
    re.I,
)


def holds_value(text: str) -> bool:
    """Whether `text` says a value: a number, a day of the month, a weekday, a time or a name."""
    return bool(re.search(rf"\b{_VALUE}", text, re.I))


def value_sort(value: str) -> str:
    """The sort of a value: 'ordinal' (a day of the month), 'number', 'weekday', 'time' or
    'name'."""
    v = value.strip().lower()
    if re.fullmatch(_ORDINAL, v):
        return "ordinal"
    if re.fullmatch(r"\d{1,2}(?::\d{2})?\s*(?:am|pm)|\d{1,2}:\d{2}", v):
        return "time"
    if re.fullmatch(rf"\d[\d.,]*|{_NUMBER_WORDS}", v):
        return "number"
    if re.fullmatch(WEEKDAY, v):
        return "weekday"
    return "name"


#: Spoken hesitations ("um", "uh", "erm"): dropped from what was said, as a note-taker would.
_FILLER_SOUNDS = re.compile(r"(?:(?<=\s)|^)(?:u+m+|u+h+|e+rm+|uhm+|hmm+)\b[,.]?\s*", re.I)


@remembered_up_to(SIZE, shared=True)
def without_fillers(sentence: str) -> str:
    """`sentence` without spoken hesitations: "on, um, the third" -> "on the third"."""
    out = re.sub(rf",\s*{_FILLER_SOUNDS.pattern}", " ", sentence, flags=re.I)  # "on, um, the"
    out = _FILLER_SOUNDS.sub("", out)
    out = re.sub(r"\s{2,}", " ", out).strip()
    return out[:1].upper() + out[1:] if out[:1].islower() and sentence[:1].isupper() else out


#: A value corrected after the words that follow it: "Tuesday at 4 — no wait, it's
#: Wednesday at 4", "on the 12th, sorry, make it the 13th".
_SAID_AGAIN_LATER = re.compile(
    r"\s*(?:—|–|-|,|\.\.\.)\s*(?:(?:no|nope|wait|sorry|oops|i\s+mean|i\s+meant|actually)[,.!]?\s*)+"
    rf"(?:it['’]s\s+|it\s+is\s+|make\s+(?:it|that)\s+)?(?P<new>{_VALUE})(?P<rest>[^.!?;]*)",
    re.I,
)


def _said_again_later(sentence: str) -> tuple[str, str, str] | None:
    """`said_again` for a value corrected after the words that follow it: the last value of
    its sort before the correction is the old one, when what follows the new value says
    again what followed the old ("at 4" … "Wednesday at 4") or nothing."""
    m = _SAID_AGAIN_LATER.search(sentence)
    if m is None:
        return None
    head, new = sentence[: m.start()], m.group("new")
    sort = value_sort(new)
    olds = [o for o in re.finditer(rf"\b{_VALUE}\b", head, re.I) if value_sort(o.group(0)) == sort]
    if not olds or olds[-1].group(0).lower() == new.lower():
        return None
    old = olds[-1]
    rest = " ".join(m.group("rest").split()).lower()
    if rest and not " ".join(head[old.end() :].split()).lower().startswith(rest):
        return None  # the correction says more than the value: which part holds is unsure
    fixed = head[: old.start()] + new + head[old.end() :] + sentence[m.end() :]
    return fixed, old.group(0), new


def said_again(sentence: str) -> tuple[str, str, str] | None:
    """(the sentence with the corrected value only, old, new) for "Thursday — no, sorry,
    Friday"; None when no value is corrected as it is said."""
    m = SAID_AGAIN.search(sentence)
    if not m or value_sort(m.group("old")) != value_sort(m.group("new")):
        return _said_again_later(sentence)
    if not sentence[: m.start()].strip() or "!" in m.group(0):
        return None  # "Oh no, Jon!": an exclamation, not a value said again
    if m.group("old").lower() == m.group("new").lower():
        return None
    fixed = sentence[: m.start()] + m.group("new") + sentence[m.end() :]
    return fixed, m.group("old"), m.group("new")


def replace_last_value(earlier: str, new: str) -> tuple[str, str] | None:
    """`earlier` with its last value of the sort of `new` replaced by it ("two lanes" +
    "three lanes" -> "three lanes"); (text, old value), or None when it holds none."""
    lead = re.match(rf"{_ORDINAL}", new, re.I)  # "the 14th": a value of two words
    head = lead.group(0) if lead else (new.split()[0] if new.split() else "")
    sort = value_sort(head)
    if sort == "name":
        return None
    found = [
        m for m in re.finditer(rf"\b{_VALUE}\b", earlier, re.I) if value_sort(m.group(0)) == sort
    ]
    if not found:
        return None
    m = found[-1]
    tail = new[len(head) :].split()
    rest = earlier[m.end() :]
    if tail and rest.lstrip().lower().startswith(tail[0].lower()):
        rest = rest.lstrip()[len(tail[0]) :]
        return earlier[: m.start()] + " ".join([head, tail[0]]) + rest, m.group(0)
    return earlier[: m.start()] + head + rest, m.group(0)


gate_patterns(globals())  # the cheap test in front of every pattern above (prefilter.py)


#: Words after a noun that leave it a thing of its own, though no verb or function word:
#: where and when ("took the van home", "the van tomorrow"), a degree ("the van too").
_LEAVES_ALONE = frozenset(
    {
        "home",
        "back",
        "away",
        "here",
        "there",
        "today",
        "tonight",
        "tomorrow",
        "yesterday",
        "again",
        "too",
        "either",
        "once",
        "twice",
        "first",
        "last",
        "next",
        "later",
        "soon",
        "earlier",
        "instead",
        "anyway",
        "please",
        "thanks",
        # when, said after it with a determiner the stop list lacks ("the park every morning")
        "every",
        "all",
        "ok",
        "okay",
        # where it is, said after it ("the park near us", "the van outside")
        "near",
        "nearby",
        "beside",
        "behind",
        "opposite",
        "outside",
        "inside",
        "across",
        "along",
        "around",
        "round",
        "past",
        "towards",
        "toward",
        "via",
        "within",
        "without",
        "until",
        "till",
        "like",
        "unlike",
        "plus",
    }
)


def only_compounded(text: str, word: str) -> bool:
    """Whether every time `text` says the single word `word` (or its plural) as a whole word,
    it qualifies the noun after it, so names another thing ("the van depot", "van hire":
    not the van; "the van needs tyres", "the van's MOT", "sold the van yesterday" say it).
    False when the text never says the word as written (a form of it may say it, as
    `mentions` reads)."""
    found = False
    for m in re.finditer(rf"(?<![\w'’-]){re.escape(word)}(?:e?s)?(?![\w-])", text, re.I):
        found = True
        if m.group(0)[0].isupper() and not re.search(r"(?:^|[.!?:]\s*|^-\s*)$", text[: m.start()]):
            return False  # a name ("Sparrow" of a cat called so), said as itself
        nxt = re.match(r"\s+([a-z][a-z'’]*)\b(?!['’-])", text[m.end() :])
        if nxt is None or qualifies_nothing(text[m.end() :]):
            return False
        after = nxt.group(1)
        if (
            after in _LEAVES_ALONE
            or after in _IRREGULAR_PAST
            or after.endswith(("ly", "ed", "ing"))
        ):
            return False
    return found


#: Words before a noun that say what it is like (its size, age, kind or place in an order),
#: so leave it the thing itself ("the big park", "the old room"); a word of another shape
#: before it may name another thing the noun is part of ("the car park", "the spare room").
_DESCRIBES = frozenset(
    {
        "big",
        "small",
        "little",
        "large",
        "huge",
        "tiny",
        "old",
        "new",
        "nice",
        "good",
        "great",
        "bad",
        "best",
        "better",
        "worst",
        "lovely",
        "whole",
        "same",
        "usual",
        "favourite",
        "favorite",
        "nearest",
        "nearby",
        "first",
        "second",
        "third",
        "last",
        "next",
        "main",
        "only",
        "own",
        "other",
        "another",
        "current",
        "previous",
        "former",
        "front",
        "back",
        "top",
        "bottom",
        "upper",
        "lower",
        "north",
        "south",
        "east",
        "west",
        "long",
        "short",
        "high",
        "low",
        "far",
        "near",
        "quiet",
        "busy",
        "free",
        "full",
        "empty",
        "cheap",
        "dear",
        "open",
        "closed",
        "older",
        "newer",
        "bigger",
        "smaller",
        "larger",
        "sunny",
        "shady",
        "pretty",
        "dirty",
        "messy",
        "tidy",
        "happy",
        "lucky",
        "biggest",
        "oldest",
        "newest",
        "closest",
        "smallest",
        "largest",
    }
)
#: The shapes of a word that says what a noun is like ("the local park", "a beautiful
#: room", "the flooded room", "the dusty room").
_DESCRIBING = re.compile(r"[a-z]+(?:ed|ing|ic|ous|ful|able|ible|ive|ant|ent|less|al|ish)", re.I)


def _said_after(
    text: str, word: str, before: str
) -> Iterator[tuple[re.Match[str], re.Match[str] | None]]:
    """Each time `text` says `word` (or its plural) as a whole word, with the word just
    before it (`before`, a pattern; None when nothing stands before it)."""
    for m in re.finditer(rf"(?<![\w'’-]){re.escape(word)}(?:e?s)?(?![\w-])", text, re.I):
        yield m, re.search(rf"({before})\s+$", text[: m.start()])


def only_headed(text: str, word: str) -> bool:
    """Whether every time `text` says the single word `word` (or its plural) as a whole word,
    another noun before it makes it part of another thing's name ("the car park", "the spare
    room": not the park or the room the user spoke of). A determiner, a possessive, a number,
    a verb or a word that says what the noun is like before it ("the park", "our park", "went
    to the park", "the big park", "the local park") leaves it the thing. False when the text
    never says the word as written."""
    found = False
    for _, prev in _said_after(text, word, r"[A-Za-z][a-z]*"):
        found = True
        if prev is None:
            return False
        before = prev.group(1)
        low = before.lower()
        if (
            low in stopwords.ENGLISH
            or low in _DESCRIBES
            or low in _COUNT_WORDS
            or _DESCRIBING.fullmatch(low)
            or has_verb(low)
            or len(low) < 3
        ):
            return False
        if before[0].isupper() and re.search(r"(?:^|[.!?:]\s*|^-\s*)$", text[: prev.start()]):
            return False  # a capital only because the sentence starts there
    return found


def named_with(what: str, word: str) -> str | None:
    """The word a request names `word` with, just before it, where it makes it another
    thing's name ("car" of "the car park", "spare" of "the spare room"): the line must say
    the two together. None for a determiner, a possessive or a word that says what the thing
    is like ("the park", "my old room")."""
    m = re.search(rf"([A-Za-z][a-z]*)\s+{re.escape(word)}(?:e?s)?\s*$", what, re.I)
    if m is None:
        return None
    return m.group(1).lower() if only_headed(m.group(0), word) else None


#: What makes a noun another one than a compound asked for: an owner, or an article that
#: brings in one not met before ("a room at the inn" is not "the spare room").
_OWNER = re.compile(r"(?:my|our|your|his|her|their|a|an|another|[A-Z][a-z]+['’]s)", re.I)


def another_than(text: str, before: str, word: str) -> bool:
    """Whether every time `text` says `word` it is owned ("our garden", "Ana's garden"),
    brought in as new ("a garden") or part of another compound than `before` makes ("the
    herb garden"), so never the thing
    "the beer garden" names. False when the text never says the word."""
    found = False
    for m, prev in _said_after(text, word, r"[A-Za-z][\w'’]*"):
        found = True
        if prev is None:
            return False
        said = prev.group(1)
        if said.lower() == before or not (
            _OWNER.fullmatch(said) or only_headed(text[prev.start() : m.end()], word)
        ):
            return False
    return found


def compound_named(what: str, words: set[str]) -> tuple[str, str] | None:
    """The two words of a compound a request names by both ("the beer garden" -> ("beer",
    "garden")), each among its `words`; None for any other request."""
    said = re.findall(r"[A-Za-z]+", what)
    if len(words) != 2 or not said or said[-1].lower() not in words:
        return None
    before = named_with(what, said[-1].lower())
    return (before, said[-1].lower()) if before in words else None


def says_with(text: str, before: str, word: str) -> bool:
    """Whether `text` says `word` right after `before` ("car park", "car-park", "carpark")."""
    pattern = rf"(?<![\w'’-]){re.escape(before)}(?:\s+|-)?{re.escape(word)}(?:e?s)?(?![\w-])"
    return re.search(pattern, text, re.I) is not None


def without_name(text: str, name: str) -> str | None:
    """`text` with the person's `name` taken out where the rest stands without it: a name
    given beside who the person is ("a boy in her class, Ansel Pike", "a boy called Ansel",
    "the user's landlord Ansel Pike raised …", "(Ansel Pike)"). None when a word of the name
    is still said after that (the name is what the sentence is about: "Ansel shouted at
    me") or what is left is too short to say anything."""
    full = r"\s+".join(re.escape(w) for w in name.split())
    first = re.escape(name.split()[0])
    said = rf"(?:{full}|{first})(?![\w'’-])"
    out = text
    # "…, Ansel Pike, …" and "…, Ansel Pike." after a noun the name stands beside
    out = re.sub(rf"(?<=[a-z])\s*,\s*{said}\s*,\s*", " ", out)
    out = re.sub(rf"(?<=[a-z])\s*,\s*{said}(?=\s*(?:[.;!?]|\(\[\[|$))", "", out)
    out = re.sub(rf"\s*\(\s*{said}\s*\)", "", out)
    out = re.sub(rf"(?<=[a-z])\s+(?:called|named)\s+{said}", "", out)
    # "the user's landlord Ansel Pike", "my cousin Ansel": who they are stays
    out = re.sub(
        rf"(\b(?:[Tt]he\s+user['’]s|[Mm]y|[Oo]ur|[Tt]heir|[Hh]is|[Hh]er)\s+(?P<who>[a-z]+))\s+{said}",
        lambda m: m.group(0) if m.group("who") in stopwords.ENGLISH else m.group(1),
        out,
    )
    if out == text or any(
        re.search(rf"(?<![\w'’-]){re.escape(w)}(?![\w-])", out) for w in name.split()
    ):
        return None
    if len(re.findall(r"[A-Za-z]+", out.split("([[", 1)[0])) < 4:
        return None
    return out


#: A detail of the user's own named by its kind ("my address", "my home address", "our phone
#: number", "my date of birth"): the words that may stand before the kind, and the kind.
_OWN_DATUM = re.compile(
    r"(?:my|our)\s+(?P<qual>(?:[a-z][\w-]*\s+){0,2}?)"
    r"(?P<kind>e-?mail(?:\s+address(?:es)?)?|address(?:es)?|numbers?|date\s+of\s+birth|"
    r"birthday|postcode|zip\s*code|surname|maiden\s+name|username)",
    re.I,
)
#: Words before a detail's kind that say when it held, not which one it is ("my new address").
_DATUM_TIME = {
    "new", "current", "present", "old", "previous", "former", "latest", "actual", "real",
    "full", "exact", "own", "usual", "main",
}  # fmt: skip
#: Words before a detail's kind that say the one meant when none is said: "my address" is
#: where one lives ("home", "postal"), "my number" a telephone's, "my e-mail" one's own.
_DATUM_DEFAULT = {
    "home", "postal", "residential", "street", "phone", "mobile", "cell", "cellphone",
    "telephone", "contact", "personal", "private",
}  # fmt: skip
_DETERMINERS = {"the", "a", "an", "this", "that"}
_USERS = {"my", "our", "mine", "user's", "user’s"}
_OTHERS = {"his", "her", "their", "its", "your"}


def _datum_kind(kind: str) -> str:
    """The kind of a detail as its words name it: "e-mail address" -> "email", "numbers" ->
    "number", "date of birth" -> "birth", "zip code" -> "postcode"."""
    k = re.sub(r"\s+", " ", kind.lower())
    if k.startswith(("email", "e-mail")):
        return "email"
    if k.startswith("address"):
        return "address"
    if k.startswith("number"):
        return "number"
    if k.startswith("date of") or k == "birthday":
        return "birth"
    if k.startswith("zip"):
        return "postcode"
    return k


def own_datum(what: str) -> tuple[str, frozenset[str]] | None:
    """The kind of a detail of the user's own a request to forget names, with the words that
    say which one ("my home address" -> ("address", {"home"}); "my number" -> ("number", {}));
    None when it names no such detail ("my pension", "Lena's address")."""
    m = _OWN_DATUM.fullmatch(what.strip())
    if m is None:
        return None
    qual = {w.lower() for w in m["qual"].split()} - _DATUM_TIME
    return _datum_kind(m["kind"]), frozenset(qual)


_TOKEN = re.compile(r"[\w'’-]+")


def names_datum(text: str, kind: str) -> bool:
    """Whether `text` names a detail of `kind` (whosever it is)."""
    return any(_datum_heads([t.lower() for t in _TOKEN.findall(text)], kind))


def _datum_heads(tokens: list[str], kind: str) -> Iterator[int]:
    """Where `tokens` (lower case) name a detail of `kind`: the index of the word the words
    before it own ("address" of "my home address", "email" of "my email address")."""
    for i, t in enumerate(tokens):
        before = tokens[i - 1] if i else ""
        after = tokens[i + 1 : i + 3]
        if (
            (kind == "email" and t in ("email", "e-mail", "emails", "e-mails"))
            or (kind == "address" and t in ("address", "addresses") and before not in _MAIL)
            or (kind == "number" and t in ("number", "numbers"))
            or (kind == "birth" and (t in ("birthday", "dob") or (t, *after) == _BIRTH))
            or (kind in ("postcode", "surname", "username") and t == kind)
            or (kind == "maiden name" and t == "maiden" and after[:1] == ["name"])
        ):
            yield i


_MAIL = ("email", "e-mail", "mail")
_BIRTH = ("date", "of", "birth")
#: A telephone named by the word for it rather than "number" ("my mobile is 07700 900456",
#: "my cell: 555-0142"): the word counts as the number's kind when a number follows it.
_PHONE_WORDS = frozenset(("mobile", "cell", "cellphone", "phone", "telephone", "landline"))
_PHONE_AFTER = re.compile(r"^(?:['’]s\b|\s*(?:is|was|:|=|-|–))?\s*[+(]?\d[\d\s().-]{5,}\d")
#: The user's e-mail address said without the word ("reach me at ola@example.org", "I'm
#: ola@example.org", "mine is ola@example.org").
_MAIL_ME = re.compile(
    r"(?:\bme\s+(?:at|on|via)|\bI['’]?m|\bI\s+am|\bmine\s+is|\bmine:)\s+<?[\w.+-]+@[\w-]+\.[\w.-]+",
    re.I,
)
#: Where the user says where they live without the word "address" ("I live at 41 Orchard Row",
#: "we've moved to 3 Kiln Lane", "the user lives at …"): a figure follows.
_LIVES_AT = re.compile(
    r"\b(?:I|we|the\s+user)(?:['’](?:m|re|ve|s))?\s+(?:(?:am|are|is|was|have|has|now|currently|still|"
    r"just|recently)\s+){0,2}(?:live|lives|living|lived|reside|resides|residing|moved|"
    r"moving)\s+(?:at|to)\s+(?=[^.;!?\n]{0,24}\d)",
    re.I,
)


def datum_said_by(kind: str) -> tuple[str, ...]:
    """The words besides its kind's that a line saying the user's detail of `kind` may say it
    by ("I live at …", "my mobile is …"), for finding those lines."""
    if kind == "address":
        return ("live", "lives", "living", "lived", "reside", "moved", "moving")
    if kind == "number":
        return tuple(sorted(_PHONE_WORDS))
    if kind == "email":
        return ("me", "mine")
    return ()


def own_datum_said(line: str, datum: tuple[str, frozenset[str]], persons_page: bool) -> bool:
    """Whether `line` says the user's own detail `datum` (from `own_datum`): its kind, owned by
    the user ("my", "our", "the user's" before it, or no owner at all off a person's page and
    not "the address of the venue"), never another's ("Anna's address", "her number", "the
    venue's address"). Words before the kind say which one: a request's word ("home", "work")
    reaches the lines that say it and, when it is the one meant when none is said ("home"
    address, "mobile" number), the lines that say none; a request without one reaches the
    lines that say none or that one ("my number" is not "my passport number")."""
    kind, asked = datum
    if (
        kind == "address"
        and not persons_page
        and not asked - _DATUM_DEFAULT
        and _LIVES_AT.search(line)
    ):
        return True  # "I live at 41 Orchard Row": the user's home, said without the word
    if (
        kind == "email"
        and not persons_page
        and not asked - _DATUM_DEFAULT
        and _MAIL_ME.search(line)
    ):
        return True  # "reach me at ola@example.org": the user's, said without the word
    spans = list(_TOKEN.finditer(line))
    tokens = [m.group().lower() for m in spans]
    heads = list(_datum_heads(tokens, kind))
    if kind == "number":
        heads += [
            i
            for i, t in enumerate(tokens)
            if t.rstrip("'’s") in _PHONE_WORDS
            and tokens[i + 1 : i + 2] not in (["number"], ["numbers"])
            and _PHONE_AFTER.match(line[spans[i].start() + len(t.rstrip("'’s")) :]) is not None
        ]
    for i in heads:
        qual: list[str] = []
        owner = ""
        closed = False  # an owner, a determiner or a figure before the words that say which
        j = i - 1
        while j >= 0 and len(qual) <= 2:
            t = tokens[j]
            if t in _USERS:
                owner, closed = "user", True
            elif t in ("user", "i", "we"):
                owner, closed, qual = "user", True, []  # "the user moved address"
            elif t in _OTHERS or t.endswith(("'s", "’s", "s'", "s’")):
                owner, closed = "other", True
            elif t in _DETERMINERS or not t.replace("-", "").isalpha():
                closed = True
            if closed:
                break
            qual.append(t)
            j -= 1
        label = line[spans[i].end() :].lstrip().startswith(":")
        if not closed and not (j < 0 and label):
            qual = []  # "I changed address": no word of it says which
        if owner == "other":
            continue
        after = tokens[i + 1 : i + 2]
        if owner == "" and (persons_page or (after in (["of"], ["for"]) and kind != "birth")):
            continue  # a person's page, "the address of the venue": someone else's
        said = set(qual) - _DATUM_TIME
        if asked:
            if said & asked or (not said - _DATUM_DEFAULT and asked <= _DATUM_DEFAULT):
                return True
        elif not said - _DATUM_DEFAULT:
            return True
    return False


#: The endings a Polish name takes in its cases ("Tom" -> "Toma", "Tomowi", "Tomem", "Tomie";
#: "Anna" -> "Anny", "Annę", "Anną", "Annie"), after the name or the name without its last
#: vowel.
_POLISH_CASE_ENDINGS = frozenset(
    ("a", "u", "e", "ie", "em", "iem", "owi", "y", "i", "ę", "ą", "o", "ze", "ego", "emu")
)
_POLISH_LET_GO = re.compile(rf"^\W*(?:proszę\s+)?{_FOREIGN_LET_GO['pl']}\b", re.I)


def polish_request(sentence: str) -> bool:
    """Whether a request to forget opens with a Polish verb of letting go ("Zapomnij …")."""
    return _POLISH_LET_GO.search(sentence) is not None


def _declined(word: str, name: str) -> bool:
    """Whether `word` is `name` in one of its Polish cases ("Tomie" of "Tom", "Annę" of
    "Anna"): the name, or its stem of three letters or more and a case's ending."""
    if word == name:
        return True
    stem = name[:-1] if name[-1:].lower() in "aeiouy" else name
    if len(stem) < 3 or not word.lower().startswith(stem.lower()):
        return False
    return word[len(stem) :].lower() in _POLISH_CASE_ENDINGS


def declined_name(what: str, names: dict[str, str]) -> str | None:
    """The one known name (`names`: name -> slug) that `what` declines word for word
    ("Tomie Reyesie" -> "Tom Reyes"); None when `what` is known as said, declines none, or
    declines the names of more than one person (a wrong page is worse than none)."""
    words = what.split()
    if what in names or not words or len(words) > 3 or not all(w[:1].isupper() for w in words):
        return None
    found: dict[str, str] = {}
    for name, slug in names.items():
        parts = name.split()
        declines = len(parts) == len(words) and all(map(_declined, words, parts))
        if declines and len(name) > len(found.get(slug, "")):
            found[slug] = name
    return next(iter(found.values())) if len(found) == 1 else None
