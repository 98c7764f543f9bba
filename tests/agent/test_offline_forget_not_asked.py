"""Words of forgetting that ask nothing of memory take no line: the opposite asked ("never
delete that"), a document's text ("delete it from my calendar"), a thing named by "that"
before a noun ("forget that café you suggested"), someone else's words reported ("he said
'forget it' and left"), a condition on saying them ("if I ever say forget that, …"), a
request said not to be made, and a setting aside for a while ("let's forget about the
budget for now")."""

from __future__ import annotations

import pytest

from doctree.agent.offline.language import forget_request
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import page_lines, run, transcript

T = [f"2028-06-10T11:0{i}:00Z" for i in range(6)]
SAID = "The budget for Ines's leaving party is £400, and it's on 21 June."


def _lines(repo: DocumentsRepository) -> list[str]:
    now, _ = page_lines(repo)
    return now


NOT_ASKED = [
    "Never delete that.",
    "Don't delete that, I'll need it.",
    "You can't just erase that.",
    "Delete it from my calendar though, the old slot.",
    "Forget that café you suggested, it's too far.",
    'My brother said "forget it" and hung up.',
    "If I ever say forget that, ignore me.",
    "I'm not asking you to forget that.",
    "Let's forget about the budget for now and talk about the music.",
]


@pytest.mark.parametrize("said", NOT_ASKED)
def test_no_request(said):
    assert forget_request(said) is None


@pytest.mark.parametrize("said", NOT_ASKED)
def test_the_line_before_stays(repo, said):
    run(
        repo,
        transcript(
            "s-a",
            ("user", T[0], SAID),
            ("assistant", T[1], "Noted. I suggested Café Lumen for drinks after."),
            ("user", T[2], said),
        ),
    )
    assert any("400" in ln for ln in _lines(repo)), _lines(repo)


@pytest.mark.parametrize(
    "said",
    [
        "Forget that, please.",
        "forget that too",
        "Delete that from your notes.",
        "I said forget it!",
    ],
)
def test_a_request_still_asks(said):
    assert forget_request(said) == (True, None)
