"""The words a thing to forget is said by beyond the forms `language.stem` tells apart: the
noun of a verb whose forms stem cannot reach ("the loan" is said by "lent", "the sale" by
"sold", "the debt" by "owes"; only verbs that say nothing else: not "give" for "the gift"), a job lost said as what happens to the one who loses it ("made
redundant", "laid off"), and news, said as someone telling it ("Kim told me that she is
moving" is Kim's news).

`said_forms(text)` is `text` with those nouns added, for a request's words to be matched
against; nothing else reads it, and nothing of it is written. `says_sum` tells a sum of money
("£300") as the money a request names beside a person ("Omar and the money").
"""

from __future__ import annotations

import re

from doctree.agent.offline.memo import SIZE, remembered_up_to

#: Each noun and the forms of its verb that stem cannot reach.
_IRREGULAR = {
    "loan": r"lend|lends|lending|lent|loaned|borrow|borrows|borrowed|borrowing",
    "sale": r"sell|sells|selling|sold",
    "flight": r"fly|flies|flew|flown|flying",
    "birth": r"born",
    "death": r"die|dies|died|dying|passed\s+away",
    "debt": r"owe|owes|owed|owing",
    "engagement": r"engaged",
    # a visit said as the stay it is ("staying the whole week", "coming over to stay")
    "visit": r"stay|stays|staying|stayed|coming\s+over|come\s+over|came\s+over",
    # a job lost, said of the one who lost it
    "job lose losing lost": r"redundant|redundancy|laid\s+off|fired|sacked",
}
_FORMS = [(noun, re.compile(rf"\b(?:{forms})\b", re.I)) for noun, forms in _IRREGULAR.items()]
#: Someone telling something: "Kim told me that …", "she announced …", "he let slip …".
_TOLD = re.compile(
    r"\b(?:told|tells|telling)\s+(?:me|us|the\s+user|everyone|him|her|them)\b"
    r"|\b(?:announced|revealed|confided|let\s+slip|broke\s+the\s+news|shared\s+the\s+news|"
    r"confessed|admitted)\b",
    re.I,
)
#: What is told, named as a thing: "Kim's news", "the announcement".
_NEWS = "news announcement revelation secret"


#: The placeholder a secret is held back by, and what it says of each kind.
_SECRET_KIND = re.compile(r"\[secret: ([\w-]+)\]")
_SECRET_SAYS = {
    "pin": "code pin",
    "password": "password",
    "api-key": "key token",
    "card-security-code": "code",
    "recovery-phrase": "phrase",
}


@remembered_up_to(SIZE, shared=True)
def said_forms(text: str) -> str:
    """`text` with the nouns its irregular verb forms stand for, and the nouns of news
    when it tells some, added after it."""
    extra = [noun for noun, pattern in _FORMS if pattern.search(text)]
    if "[secret: " in text:
        # a secret held back ("Gate keypad: [secret: pin]") is still a code, a key or a
        # password said: "don't keep the keypad code" reaches the line that gave it
        extra += [_SECRET_SAYS.get(kind, "code") for kind in _SECRET_KIND.findall(text)]
    if _TOLD.search(text):
        extra.append(_NEWS)
    return f"{text} {' '.join(extra)}" if extra else text


#: Words for money a request names, and a sum of it as a line says one.
_MONEY = frozenset(("money", "cash", "debt", "sum", "amount"))
_SUM = re.compile(
    r"[£$€¥₹]\s?\d|\b\d[\d,.]*\s?(?:k\s+)?(?:pounds|quid|euros?|dollars|bucks|rand|yen)\b", re.I
)


def says_sum(text: str, words: set[str] | frozenset[str]) -> bool:
    """Whether a request's `words` name money ("the money", "the cash") and `text` says a
    sum ("owes me £300", "40 quid"). Read only beside the person a request names with the
    money ("Omar and the money"): alone, every price would be it."""
    return bool(words & _MONEY) and _SUM.search(text) is not None
