"""A sum the assistant works out in front of the user, checked before it is kept.

Asked what a week's rent comes to, or what a column of a pasted budget adds up to, an
assistant often answers with the working: "£1,250 × 12 ÷ 52 = £288.46", "41 + 12 = 53
birds". The result is no figure the user said, so the rules that keep the user's own words
never see it, and a finding is kept only when the user accepts it. Such a sentence can be
checked, though: its sum is worked out again here, and a sentence whose every sum holds is
what the conversation arrived at, kept when the user's next message lets it stand (it does
not turn it down, correct it or ask for anything to be forgotten) or the session ends on it.
A sentence with a sum that does not hold ("2 × 3 = 7") is never kept; nor is one whose
figures are a range ("10-15%"), since a hyphen between two figures is read as no minus.
"""

from __future__ import annotations

import ast
import operator
import re

#: A figure of a sum: "1,425", "£1,425", "1.7", "**£178.80**" (the markup and the currency
#: sign are left out before it is read).
_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
#: An operator between two figures: times (×, *, an "x" set apart by spaces), divided by
#: (÷, /), plus, minus (−, or a hyphen set apart by spaces: "10-15" is a range); or said in
#: words ("£150 minus £68", "£40 less the £5 fee", "6 times 4", "90 divided by 3").
_WORDED = r"\s+(?:plus|minus|less|times|multiplied\s+by|divided\s+by)\s+(?:(?:that|the)\s+)?"
_OPERATOR = rf"\s*[×*÷/+−]\s*|\s+x\s+|\s+-\s+|{_WORDED}"
#: What each operator said in words is.
_WORDS = {"plus": "+", "minus": "-", "less": "-", "times": "*", "multiplied": "*", "divided": "/"}
#: The most figures a sum is read with: a longer chain is no working a person checks (nor
#: read in part: a sum starts on no figure an operator comes before).
MOST_FIGURES = 64
#: "a op b [op c …] = r" (or "is r"): the working and its result.
_SUM = re.compile(
    r"(?<![\w.,/])(?<![×*÷/+−]\s)(?<![×*÷+−])(?<!\sx\s)(?<!\s-\s)"
    rf"(?P<expr>(?:{_NUMBER})(?:(?:{_OPERATOR})(?:{_NUMBER})){{1,{MOST_FIGURES - 1}}})\s*"
    rf"(?:=|\bis\b|\bcomes\s+to\b)\s*(?P<result>{_NUMBER})(?![\d/])"
)
_OPS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}


def _plain(text: str) -> str:
    """`text` with markup and currency signs left out: "**£178.80**" -> "178.80"."""
    return re.sub(r"[*_`]+|[£$€¥₦₹](?=\d)", "", text)


def _value(expr: str) -> float | None:
    """What an expression of figures and the four operators comes to; None when it cannot
    be read (a division by nothing)."""
    python = re.sub(_WORDED, lambda m: f" {_WORDS[m.group(0).split()[0].lower()]} ", expr)
    python = re.sub(r"\s+x\s+|×", " * ", python).replace("÷", " / ").replace("−", " - ")
    python = re.sub(r"(?<=\d),(?=\d{3})", "", python)
    try:
        tree = ast.parse(python, mode="eval")
    except SyntaxError:
        return None

    def walk(node: ast.AST) -> float:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            return float(node.value)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](walk(node.left), walk(node.right))
        raise ValueError(node)

    try:
        return walk(tree)
    except (ValueError, ZeroDivisionError):
        return None


def _holds(expr: str, result: str) -> bool:
    """Whether the working `expr` comes to `result`, to the places the result is given in
    ("£1,425 × 12 ÷ 52 = £328.85", where the sum is 328.846…)."""
    value = _value(expr)
    if value is None:
        return False
    said = float(result.replace(",", ""))
    places = len(result.split(".", 1)[1]) if "." in result else 0
    return abs(value - said) <= 0.5 * 10**-places + 1e-9


def checked_sums(sentence: str) -> bool:
    """Whether an assistant's `sentence` shows a sum, and every sum it shows holds."""
    if not re.search(rf"\d\s*(?:[×*÷/+−]|\s[x-]\s|{_WORDED})\s*[£$€¥₦₹*]*\d", sentence):
        return False  # (the cheap test: two figures with an operator between them)
    sums = list(_SUM.finditer(_plain(sentence)))
    return bool(sums) and all(_holds(m["expr"], m["result"]) for m in sums)
