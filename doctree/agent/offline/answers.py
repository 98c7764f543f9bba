"""Answers: a short reply read with the question it answers.

When the assistant asks the user something ("Is your train on Tuesday?", "What's your
daughter's name?", "The 9:40 or the 11:15?") and the user's next message is a short reply
("yes", "Leila", "the second one"), neither half says anything alone; together they make a
statement. `answered` writes it in the user's own words ("My train is on Tuesday."), to be
read like anything else the user said (dates made absolute, filed by the names in it).

What the pair does not settle makes nothing: a "no" to a yes/no question keeps nothing (the
asked-about statement is exactly what is not so), a "yes" to a question with options is no
choice, a reply that matches two options or none chooses nothing, and a question whose
subject is a bare "it" or "that" has no subject to write about.
"""

from __future__ import annotations

import re

from doctree.agent.offline.language import has_verb
from doctree.agent.offline.prefilter import gate_patterns

#: A reply that is a "yes": "yes", "yep, that's right", "correct", "I am", "it is".
_YES = re.compile(
    r"^\W*(?:(?:oh|ah|um+|er+|well)[,\s]+)?(?:yes|yeah|yep|yup|yea|aye|correct|right|exactly|"
    r"indeed|that's\s+(?:right|correct|it)|that\s+is\s+(?:right|correct)|sure|definitely|"
    r"absolutely|of\s+course|i\s+(?:am|do|did|have|will|was)|it\s+(?:is|does|did|was|will)|"
    r"(?:s?he|they|we)\s+(?:is|are|does|do|did|has|have|will|was|were))\b",
    re.I,
)
#: A reply that is only a "yes": "yes", "yep, I do", "correct!", "yes he has".
_YES_ONLY = re.compile(
    r"(?:\W*(?:oh|ah|um+|well|yes|yeah|yep|yup|yea|aye|correct|right|exactly|indeed|sure|"
    r"definitely|absolutely|of\s+course|that's\s+(?:right|correct|it)|i\s+(?:am|do|did|have|will|was)|"
    r"it\s+(?:is|does|did|was|will)|(?:s?he|they|we)\s+(?:is|are|does|do|did|has|have|will|was|were))"
    r"\b)+[\s.!]*",
    re.I,
)
#: A reply that is a "no": "no", "nope", "not really", "nah".
_NO = re.compile(
    r"^\W*(?:(?:oh|ah|um+|er+|well)[,\s]+)?(?:no|nope|nah|not\s+really|not\s+at\s+all|"
    r"i\s+(?:am|do|did|have|will|was)\s*n[o']t|i'm\s+not|negative)\b",
    re.I,
)
#: What a reply may open on before its answer: "yes, ", "no, ", "um ", "it's ", "that's ".
_OPENER = re.compile(
    r"^(?:(?!\[secret:)\W)*(?:(?:yes|yeah|yep|yup|no|nope|nah|ok(?:ay)?|oh|ah|um+|er+|hmm+|well|so|actually|"
    r"probably|definitely|just|only)\b[,\s!.]*)*(?:it's|it\s+is|that's|that\s+is|they're|"
    r"they\s+are|i'd\s+say|let's\s+(?:go\s+with|do|say)|i'll\s+(?:take|go\s+with|have)|"
    r"go\s+with|make\s+it)?\s*",
    re.I,
)
#: What a reply may end on after its answer: "please", "thanks", "I think".
_CLOSER = re.compile(
    r"(?:[,\s]+(?:please|thanks|thank\s+you|i\s+think|i\s+guess|ta))*[\s.!]*$", re.I
)

#: The question's lead-in: "Quick question: ", "And ", "Great, ", "Just to confirm, ".
_LEAD = re.compile(
    r"^(?:(?:quick\s+(?:question|check)|one\s+(?:more\s+)?(?:thing|question)|last\s+(?:thing|question)"
    r"|question|also|and)\s*:\s+)?(?:(?:and|so|also|ok(?:ay)?|great|thanks|perfect|got\s+it|one\s+more\s+thing|"
    r"just\s+(?:to\s+)?(?:confirm|check(?:ing)?)|to\s+confirm|quick\s+(?:question|check))[,.!\s-]+)*",
    re.I,
)
#: A tag that makes a statement a question: "…, right?", "…, is that right?", "…, yes?".
_TAG = re.compile(
    r",?\s*(?:right|correct|yes|yeah|no|isn't\s+it|aren't\s+you|don't\s+you|didn't\s+you|"
    r"is\s+that\s+(?:right|correct)|am\s+i\s+right|have\s+i\s+got\s+that\s+right)\s*\?$",
    re.I,
)
#: The assistant's own person, or "we": a question about what it would do is an offer, not a
#: question about the user.
_ASSISTANT = re.compile(r"\b(?:I|I'm|I'll|I'd|I've|me|my|we|we're|we'll|us|our)\b")
#: Questions that ask the user to do something or offer something: no fact in a "yes".
_REQUEST = re.compile(
    r"^(?:can|could|would|will)\s+you\s+(?!be\b)|^(?:do|would)\s+you\s+(?:want|like|mind|need)\b"
    r"|^shall\b|^(?:is|are)\s+there\b|\bhow\s+about\b|\bwhat\s+about\b",
    re.I,
)
#: A subject that names nothing on its own: "Is it on Tuesday?".
_VAGUE = re.compile(r"(?:it|that|this|there|those|these|they|he|she|him|her)$", re.I)

_AUX = r"is|are|was|were|do|does|did|have|has|had|will|would|can|could|should"
_YES_NO = re.compile(rf"^(?P<aux>{_AUX})\s+(?P<rest>.+)\?$", re.I)
_PREPOSITIONS = {
    "on", "at", "in", "for", "with", "from", "to", "by", "about", "after", "before", "near",
    "into", "over", "under", "until", "till", "this", "next", "every", "still", "already",
    "also", "now", "today", "tomorrow", "tonight", "back", "going", "due", "a", "an", "the",
    "not", "off", "out", "up", "away", "home", "free", "busy", "ready", "available", "done",
    "allergic", "vegetarian", "vegan", "sure", "ok", "okay", "fine", "happy", "able",
}  # fmt: skip
_ADJECTIVE = re.compile(r"[a-z]+(?:ed|ing|ic|ous|ful|able|ible|ive|ant|ent|less)$")
_DETERMINERS = {"your", "the", "a", "an", "my"}
_PERSON_PRONOUNS = {"you"}


def _swap_person(text: str) -> str:
    """The assistant's "you" as the user says it: "your train" -> "my train"."""
    table = {
        "you're": "I'm", "you've": "I've", "you'll": "I'll", "you'd": "I'd", "you": "I",
        "your": "my", "yours": "mine", "yourself": "myself",
    }  # fmt: skip

    def one(m: re.Match[str]) -> str:
        return table[m.group(0).lower()]

    out = re.sub(r"\b(?:you(?:'re|'ve|'ll|'d|rself|rs|r)?)\b", one, text, flags=re.I)
    # "I" after a preposition is "me": "for I" -> "for me"
    out = re.sub(r"\b(for|to|with|at|from|by|about|than|like)\s+I\b(?!')", r"\1 me", out)
    out = re.sub(r"\bI\s+are\b", "I am", out)
    return re.sub(r"\bI\s+were\b", "I was", out)


def _subject(words: list[str]) -> int | None:
    """How many of `words` make the subject of a question: "you", a name, "your sister's
    flight", "the party at Ana's"; None when it cannot be told where the subject ends."""
    if not words:
        return None
    first = words[0]
    if first.lower() in _PERSON_PRONOUNS:
        return 1
    if first[0].isupper() and first.lower() not in _DETERMINERS:
        n = 1  # a name, of one or more capitalised words
        while n < len(words) - 1 and words[n][0].isupper():
            n += 1
        return n
    if first.lower() not in _DETERMINERS and len(words) == 2 and first.isalpha():
        return 1  # a bare noun and its verb: "When does term start?"
    if first.lower() not in _DETERMINERS or len(words) < 3:
        return None
    n = 2  # "your train", then "'s" chains: "your sister's flight"
    while n < len(words) - 1 and re.search(r"['’]s$", words[n - 1]):
        n += 1
    return n


def _starts_predicate(word: str) -> bool:
    """Whether a word can open what is said of a subject ("on Tuesday", "booked", "allergic",
    "3pm"), so that the words before it are the whole subject."""
    w = word.lower().strip(",")
    return (
        w in _PREPOSITIONS or bool(_ADJECTIVE.fullmatch(w)) or w[:1].isdigit() or word[:1].isupper()
    )


def _yes_statement(question: str) -> str | None:
    """A yes/no question as the statement a "yes" makes of it, in the user's words: "Is your
    train on Tuesday?" -> "My train is on Tuesday."; None when it cannot be told."""
    q = _LEAD.sub("", question.strip())
    if _TAG.search(q):  # "Your train is on Tuesday, right?"
        said = _TAG.sub("", q).strip()
        if not said or _ASSISTANT.search(said) or said.split()[0].lower() in ("it", "that"):
            return None
        return _cap(_swap_person(said)) + "."
    m = _YES_NO.match(q)
    if m is None or _REQUEST.search(q) or _ASSISTANT.search(q) or re.search(r"\bor\b", q):
        return None
    aux, words = m.group("aux").lower(), m.group("rest").split()
    n = _subject(words)
    if n is None or n >= len(words) or _VAGUE.fullmatch(" ".join(words[:n])):
        return None
    subject, rest = " ".join(words[:n]), " ".join(words[n:])
    if aux in ("is", "are", "was", "were") and not _starts_predicate(words[n]):
        return None  # "Is your train ticket booked?": where the subject ends is unsure
    # "Do you take metformin?" -> "you take metformin"
    said = f"{subject} {rest}" if aux == "do" else f"{subject} {aux} {rest}"
    return _cap(_swap_person(said)) + "."


#: A wh-question asking what a thing of the user's is: "What's your daughter's name?",
#: "Who is your GP?", "Where is the party?".
_WHAT_IS = re.compile(
    r"^(?P<wh>what|who|where|when|what\s+time|what\s+day|what\s+date|which\s+day)"
    r"(?:\s+(?P<aux>is|are|was|were)|(?P<s>['’]s))\s+(?P<rest>[^?]+)\?$",
    re.I,
)
#: A wh-question on what someone does: "When do you fly out?", "What time does Ana land?".
_WHEN_DO = re.compile(
    r"^(?P<wh>when|what\s+time|what\s+day|what\s+date|which\s+day|where)\s+"
    r"(?P<aux>do|does|did|will)\s+(?P<rest>[^?]+)\?$",
    re.I,
)
#: "How many … do you have?", "How many kids does Ana have?".
_HOW_MANY = re.compile(
    r"^how\s+(?P<wh>many|much)\s+(?P<what>[a-z][\w\s-]{0,30}?)\s+(?P<aux>do|does|did|will|have|has)"
    r"\s+(?P<rest>[^?]+)\?$",
    re.I,
)
#: "Which day works for you?", "Who's picking up the kids?": the answer is the subject.
_WHO_DOES = re.compile(
    r"^(?P<wh>who|which\s+\w+|what\s+\w+)(?:\s+(?P<verb>(?:is|are|was|will|would)\b|\w+s\b)|"
    r"['’]s\b)\s*(?P<rest>[^?]*)\?$",
    re.I,
)
_TIME = re.compile(r"^\d{1,2}(?::\d{2})?\s*(?:am|pm)?$|^(?:noon|midnight)$", re.I)
_COUNT = re.compile(
    r"^(?:just\s+|only\s+)?(?P<n>\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
    r"twelve|a\s+couple|none)\b(?:\s+of\s+them)?",
    re.I,
)


def _verb_phrase(aux: str, verb: str) -> str:
    """What a question's auxiliary and verb say as a statement: "does land" -> "lands",
    "do fly" -> "fly", "will fly" -> "will fly", "did book" -> "did book"."""
    if aux == "do":
        return verb
    if aux == "does":
        head, _, tail = verb.partition(" ")
        if head == "have":
            head = "has"
        elif re.search(r"(?:s|sh|ch|x|z|o)$", head):
            head += "es"
        elif re.search(r"[^aeiou]y$", head):
            head = head[:-1] + "ies"
        else:
            head += "s"
        return f"{head} {tail}".strip()
    return f"{aux} {verb}"


def _when_word(wh: str, answer: str, said: str = "") -> str:
    """The preposition that puts a date, a time or a place in a statement: "at 9:40", "on
    Tuesday", "in 2019", "in Leeds" (where one lives), "at Ana's flat"."""
    if re.match(r"(?:on|at|in|by|from|next|this|tomorrow|today|tonight)\b", answer, re.I):
        return ""
    if _TIME.match(answer) or wh.lower() == "what time":
        return "at "
    if wh.lower() == "where":
        home = re.search(r"\b(?:live|lives|living|based|stay|staying|moved|move|born|grew)\b", said)
        return "in " if home else "at "
    if re.fullmatch(
        r"(?:19|20)\d\d|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*", answer, re.I
    ):
        return "in "
    return "on "


#: A short reply that answers nothing: "good question", "not sure", "thanks".
_NOT_ANSWER = re.compile(
    r"(?:(?:good|great|fair)\s+(?:question|point)|not\s+sure|no\s+idea|dunno|(?:i\s+)?don'?t\s+know|"
    r"maybe|perhaps|depends|it\s+depends|why|what|how|hmm+|thanks|thank\s+you|cheers|lol|haha|"
    r"ok(?:ay)?|cool|nice|great|sure|fine|hi|hello|hey|sorry|wait|hang\s+on|one\s+sec|never\s*mind|"
    r"either|both|neither|none|nothing|whatever|later|tbc|tbd|unknown)\b",
    re.I,
)


def _answer(reply: str) -> str | None:
    """The answer a short reply gives, its "yes, "/"it's " and "please" taken off: "Tuesday",
    "the blue one"; None for a reply of more than a few words (a sentence of its own), one
    with a verb, or one that answers nothing ("not sure")."""
    text = _CLOSER.sub("", _OPENER.sub("", reply.strip(), count=1)).strip(" ,.!")
    if not text or len(text.split()) > 5 or text.endswith("?") or _NOT_ANSWER.match(text):
        return None
    if has_verb(re.sub(r"['’]s\b", "", text)):  # "Ana's flat" is no verb
        return None
    return re.sub(  # "monday" as the day it names: "Monday"
        r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(?:january|february|march|april|june|"
        r"july|august|september|october|november|december)\b",
        lambda m: m.group(0).capitalize(),
        text,
        flags=re.I,
    )


def _wh_statement(question: str, answer: str) -> str | None:
    """A wh-question and its answer as one statement, in the user's words: "What's your
    daughter's name?" + "Leila" -> "My daughter's name is Leila."."""
    q = _LEAD.sub("", question.strip())
    if _ASSISTANT.search(q) or _REQUEST.search(q):
        return None
    if m := _HOW_MANY.match(q):
        count = _COUNT.match(answer)
        if count is None:
            return None
        n = count.group("n")
        words = m.group("rest").split()
        k = _subject(words)
        if k is None or k >= len(words) or _VAGUE.fullmatch(" ".join(words[:k])):
            return None
        subject, verb = " ".join(words[:k]), " ".join(words[k:])
        what = m.group("what")
        if n.lower() in ("one", "1") and what.endswith("s"):
            what = what[:-1]
        said = f"{subject} {_verb_phrase(m.group('aux').lower(), verb)} {n} {what}"
        return _cap(_swap_person(said)) + "."
    if m := _WHEN_DO.match(q):
        words = m.group("rest").split()
        k = _subject(words)
        if k is None or k >= len(words) or _VAGUE.fullmatch(" ".join(words[:k])):
            return None
        subject, verb = " ".join(words[:k]), " ".join(words[k:])
        said = f"{subject} {_verb_phrase(m.group('aux').lower(), verb)} "
        return _cap(_swap_person(said + _when_word(m.group("wh"), answer, verb) + answer)) + "."
    m = _WHAT_IS.match(q)
    if m and re.match(r"(?:what|who)$", m.group("wh"), re.I) and re.match(r"\w+ing\b", m["rest"]):
        m = None  # "Who's picking up the kids?": the answer is who does it (below)
    if m:
        subject = m.group("rest").strip()
        words = subject.split()
        if _VAGUE.fullmatch(words[0]) or not (
            words[0].lower() in _DETERMINERS or words[0].lower() == "you" or words[0][0].isupper()
        ):
            return None  # "What time is good?": no subject to say it of
        verb = (m.group("aux") or "is").lower()
        wh = m.group("wh").lower()
        if len(words) > 1 and (words[0].lower() == "you" or words[0][0].isupper()):
            # "Where are you based?" "Leeds": "I am based in Leeds"
            k = _subject(words) or 1
            who, tail = " ".join(words[:k]), " ".join(words[k:])
            if not tail:
                pass
            elif wh in ("what", "who"):
                return _cap(_swap_person(f"{who} {verb} {tail} {answer}")) + "."
            else:
                prep = _when_word(wh, answer, tail)
                return _cap(_swap_person(f"{who} {verb} {tail} {prep}{answer}")) + "."
        named = re.fullmatch(r"(?:the\s+name\s+of\s+(?P<of>.+)|(?P<whose>.+)['’]s\s+name)", subject)
        if wh == "what" and named:  # "What's your daughter's name?" "Leila"
            said = f"{named.group('of') or named.group('whose')} is called {answer}"
        elif wh in ("what", "who"):
            said = f"{subject} {verb} {answer}"
        else:
            ing = re.search(r"\s(\w+ing\b.*)$", subject)  # "When is Ana arriving?"
            tail = ""
            if ing:
                subject, tail = subject[: ing.start()], " " + ing.group(1)
            said = f"{subject} {verb}{tail} {_when_word(wh, answer, subject + tail)}{answer}"
        return _cap(_swap_person(said)) + "."
    if m := _WHO_DOES.match(q):
        verb = m.group("verb") or "is"
        if (
            m.group("wh").lower().split()[0] in ("what", "which")
            and not answer[:1].isupper()
            and not re.match(r"\d|the\b", answer, re.I)
        ):
            return None  # "What bothers you?" "everything": no subject to write
        said = f"{answer} {verb} {m.group('rest')}".strip()
        return _cap(_swap_person(said)) + "."
    return None


def _cap(text: str) -> str:
    return text[0].upper() + text[1:] if text else text


_ORDINALS = {
    "first": 0, "1st": 0, "one": 0, "1": 0, "a": 0, "former": 0,
    "second": 1, "2nd": 1, "two": 1, "2": 1, "b": 1,
    "third": 2, "3rd": 2, "three": 2, "3": 2, "c": 2,
    "fourth": 3, "4th": 3, "four": 3, "4": 3, "d": 3,
}  # fmt: skip
_PICK = re.compile(
    r"^(?:the\s+)?(?:(?P<ord>first|second|third|fourth|1st|2nd|3rd|4th|former|latter|last)"
    r"(?:\s+(?:one|option|choice))?|(?:(?:option|choice|number|no\.?|#)\s*)?(?P<num>[1-4a-d]))$",
    re.I,
)
#: Options offered in a question: "the 9:40 or the 11:15", "red, blue or green".
_OPTIONS_FROM = re.compile(
    r"(?:[:,;]\s+|\b(?:want|prefer|like|take|choose|pick|go\s+for|is\s+it|be|book|have|on|at|in|"
    r"to|for|with|by|from)\s+)",
    re.I,
)
_FILLER = {
    "the",
    "one",
    "a",
    "an",
    "please",
    "option",
    "i'll",
    "take",
    "go",
    "with",
    "for",
    "let's",
}


def options_in(question: str) -> list[str]:
    """The options a question offers ("Window or aisle?", "Do you want the 9:40 or the
    11:15?"): the phrases joined by "or"; [] when it offers none."""
    q = _LEAD.sub("", question.strip())
    ors = re.search(r"\s+or\s+", q)
    if ors is None:
        return []
    # a list before the "or" ("red, blue or green") starts at its first item
    listed = re.search(r"(?:,\s*(?:[^,:;?]|:(?=\d)){1,30})+$", q[: ors.start()])
    limit = listed.start() if listed else ors.start()
    anchors = [m for m in _OPTIONS_FROM.finditer(q, 0, limit) if m.end() <= limit]
    if anchors:  # the options start after the word nearest before the first "or"
        opts = q[anchors[-1].end() :].rstrip("?")
        said = anchors[-1].group(0).split()
        if said:  # "to Ana or to Tom": the options are "Ana" and "Tom"
            opts = re.sub(rf"\bor\s+{re.escape(said[0])}\s+", "or ", opts, flags=re.I)
    elif len(q.split()) <= 6 and re.search(r"\bor\b", q):
        opts = q.rstrip("?")  # "Window or aisle?"
    else:
        return []
    parts = re.split(r",\s*(?:or\s+)?|\s+or\s+", opts.strip())
    found = [p.strip(" ,.") for p in parts if p.strip(" ,.")]
    return found if 2 <= len(found) <= 5 and all(len(o.split()) <= 8 for o in found) else []


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[\w:'’.-]+", text.lower().rstrip(".")) if w not in _FILLER}


def chosen(options: list[str], reply: str) -> str | None:
    """The one option a reply picks, by its place ("the second one", "option B", "the last")
    or its words ("the blue", "11:15"); None when it picks none or more than one."""
    answer = _answer(reply)
    if answer is None or not options:
        return None
    if re.search(r"\b(?:both|neither|either|all|none|any)\b", answer, re.I):
        return None
    if pick := _PICK.match(answer):
        word = (pick.group("ord") or pick.group("num")).lower()
        if word in ("latter", "last"):
            return options[-1]
        i = _ORDINALS.get(word)
        return options[i] if i is not None and i < len(options) else None
    said = _words(answer)
    if not said:
        return None
    fits = [o for o in options if said <= _words(o)]
    return fits[0] if len(fits) == 1 else None


_LIST_ITEM = re.compile(
    r"^\s*(?:[-*+•]|\d{1,2}[.)]|[A-Da-d][.)]|\(?[A-Da-d1-9]\))\s+(?P<item>\S.*)$"
)


def listed_options(text: str) -> list[str]:
    """The options of the last list an assistant's message holds ("1. **The 9:40** — arrives
    11:52"), each cut to what names it ("The 9:40"); [] when it lists nothing, or more than
    one list."""
    blocks: list[list[str]] = []
    in_list = False
    for line in text.split("\n"):
        item = _LIST_ITEM.match(line)
        if item is None:
            in_list = False
            continue
        if not in_list:
            blocks.append([])
        in_list = True
        name = re.sub(r"[*_`]", "", item.group("item"))
        name = re.split(r"\s+[—–-]\s+|:\s|\s+\(|[.;!?](?:\s|$)", name)[0].strip(" ,")
        blocks[-1].append(name)
    if not blocks or not 2 <= len(blocks[-1]) <= 6 or sum(len(b) >= 2 for b in blocks) > 1:
        return []  # no list, or two: which one a reply picks from is unsure
    return blocks[-1] if all(0 < len(o.split()) <= 8 for o in blocks[-1]) else []


#: Where a question of two parts joins its second: "Which school, and when does term start?".
_AND_ASKS = re.compile(
    r",?\s+and\s+(?=(?:when|what|which|who|where|how|is|are|was|do|does|did|has|have)\b)", re.I
)


def answered_parts(question: str, replies: list[str]) -> list[str]:
    """A question of two or more parts joined by "and" ("Which school, and when does term
    start?") answered part by part, in order, by as many short sentences or comma-separated
    parts of the reply ("St Brendan's. monday"): the statement of each part that makes one;
    [] when the parts and the answers do not pair one to one."""
    q = question.strip()
    if not q.endswith("?") or q.count("?") > 1:
        return []
    parts = [p.strip(" ,") for p in _AND_ASKS.split(q.rstrip("?"))]
    if len(parts) < 2 or len(parts) > 4:
        return []
    answers = replies[: len(parts)]
    if len(answers) < len(parts) and replies:
        answers = [a.strip() for a in re.split(r",\s*|\s+and\s+", replies[0]) if a.strip()]
    if len(answers) != len(parts) or any(len(a.split()) > 5 for a in answers):
        return []
    out = []
    for part, reply in zip(parts, answers, strict=True):
        said = answered(part[0].upper() + part[1:] + "?", reply)
        if said is not None:
            out.append(said)
    return out


def answered(question: str, reply: str, options: list[str] | None = None) -> str | None:
    """The statement a question and the user's short reply make together, in the user's own
    words ("Is your train on Tuesday?" + "yes" -> "My train is on Tuesday."), or None when the
    pair settles nothing for sure. `options` are the choices the assistant listed before
    asking (a numbered list), if any."""
    question = question.strip()
    if not question.endswith("?") or question.count("?") > 1 or len(reply.split()) > 8:
        return None
    offered = options or options_in(question)
    if offered:
        if (pick := chosen(offered, reply)) is None:
            return None
        first, last = question.find(offered[0]), question.rfind(offered[-1])
        if 0 <= first < last:  # "Is your train on Tuesday or Wednesday?" "Wednesday"
            one = question[:first] + pick + question[last + len(offered[-1]) :]
            if (said := _yes_statement(one)) is not None:
                return said
        stem = _LEAD.sub("", question).rstrip("?").strip()
        for o in offered:
            stem = stem.replace(o, "")
        stem = re.sub(r"(?:\s*,?\s*\bor\b\s*|\s*,\s*)+$", "", stem).strip(" ,:-")
        stem = re.sub(r"\s+(?:on|at|in|to|for|with|by|from)$", "", stem, flags=re.I)
        stem = re.sub(
            r"\b(?:(?:do|would|will|did|shall|should)\s+you\s+(?:want|like|prefer|rather|take|choose|"
            r"pick|go\s+for)(?:\s+to\s+\w+)?|which(?:\s+one)?|what|is\s+it)\b",
            "",
            stem,
            flags=re.I,
        )
        stem = " ".join(stem.split()).strip(" ,:-")
        if _ASSISTANT.search(stem) and not re.search(r"\byou", stem, re.I):
            stem = ""  # "Shall I book …": what the assistant would do is no part of it
        about = f" ({_swap_person(stem)})" if stem and len(stem.split()) >= 2 else ""
        pick = re.sub(r"^(?:The|A|An)\b", lambda m: m.group(0).lower(), pick)
        return f"I chose {pick}{about}."
    if _NO.match(reply):
        return None  # what was asked about is exactly what is not so
    if _YES_ONLY.fullmatch(reply.strip()):
        return _yes_statement(question)
    if _YES.match(reply):
        return None  # "yes, but …", "I am, though …": more than a yes
    answer = _answer(reply)
    return _wh_statement(question, answer) if answer is not None else None


gate_patterns(globals())  # the cheap test in front of every pattern above (prefilter.py)
