"""HTML pasted as its source is read as the text it shows (`doctree.agent.offline.markup`):
a row of two cells a labelled value, entities as their characters, hidden and struck-out
parts left out; and a date edited in a line keeps no word of the old date."""

from __future__ import annotations

from doctree.agent.offline.markup import read_html
from doctree.agent.offline.supersession import _DATE_WORDS
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import page_lines, run, transcript

ORDER = """Here's the order mail, I copied the source by mistake:

<html><head><style>td { padding: 4px }</style><title>Order</title></head><body>
<div style="display:none;max-height:0">Your order is on its way &ndash; track it now!</div>
<table width="100%" role="presentation"><tr><td>
<h2 style="color:#222">Thanks for your order</h2>
<p>Hi&nbsp;Marta, here is your order <strong>R-55102</strong>.</p>
<table>
<tr><th>Item</th><th>Qty</th><th>Price</th></tr>
<tr><td>Walnut desk lamp</td><td>1</td><td>&pound;64.00</td></tr>
</table>
<table>
<tr><td><b>Delivery</b></td><td><del>Tue 9 Sep 2031</del> Thu&nbsp;11&nbsp;Sep&nbsp;2031</td></tr>
<tr><td><b>Order total</b></td><td>&pound;68.95</td></tr>
</table>
<p><a href="https://shop.example/track?o=R-55102">Track your parcel</a></p>
</td></tr></table></body></html>

Thanks!"""


def test_an_html_source_is_read_as_the_lines_it_shows():
    lines = read_html(ORDER).split("\n\n")
    assert lines[0] == "Here's the order mail, I copied the source by mistake:"
    assert "Thanks for your order" in lines
    assert "Hi Marta, here is your order R-55102." in lines
    assert "Walnut desk lamp, 1, £64.00" in lines
    assert "Delivery: Thu 11 Sep 2031" in lines  # the struck-out old date left out
    assert "Order total: £68.95" in lines
    assert "Track your parcel" in lines
    assert lines[-1] == "Thanks!"
    text = read_html(ORDER)
    for unseen in ("track it now", "padding", "<", "&pound;", "Tue 9 Sep", "https://"):
        assert unseen not in text, unseen


def test_text_with_a_tag_or_two_or_html_in_a_fence_is_left_as_it_is():
    for text in (
        "The <br> in the footer breaks the layout, and <b>bold</b> is fine.",
        "Fix this:\n\n```html\n<table><tr><td>a</td><td>b</td></tr></table>\n```\n\nThanks",
        "I'm 5 < 6 and 7 > 3, plain text.",
    ):
        assert read_html(text) == text


def test_html_outside_a_fence_is_read_and_the_fence_kept():
    text = "```\n<p>code</p><p>kept</p><br>\n```\n<p>Room</p><p>B12</p><p>on Friday</p>"
    assert read_html(text) == "```\n<p>code</p><p>kept</p><br>\n```\nRoom\n\nB12\n\non Friday"


def test_a_booking_pasted_as_html_and_amended_later_keeps_the_new_values(
    repo: DocumentsRepository,
):
    first = (
        "Keep the details of our stay please, it's the page source:\n\n"
        "<table><tr><td><b>Guesthouse</b></td><td>Tŷ Gwyn</td></tr>"
        "<tr><td><b>Check-in</b></td><td>Fri 3 Oct 2031, from 3pm</td></tr>"
        "<tr><td><b>Total</b></td><td>&pound;310.00</td></tr></table>"
    )
    second = (
        "They've changed it, the source again:\n\n"
        "<table><tr><td><b>Check-in</b></td><td><s>Fri 3 Oct 2031</s> "
        "Sat&nbsp;4&nbsp;Oct&nbsp;2031, from 3pm</td></tr>"
        "<tr><td><b>Total</b></td><td><s>&pound;310.00</s> &pound;280.00</td></tr></table>"
    )
    run(repo, transcript("s-h1", ("user", "2031-09-01T09:00:00Z", first)))
    run(repo, transcript("s-h2", ("user", "2031-09-20T09:00:00Z", second)))
    now, past = page_lines(repo)
    assert any("Check-in" in ln and "2031-10-04" in ln for ln in now)
    assert any("Total: £280.00" in ln for ln in now)
    assert not any("2031-10-03" in ln or "3 Oct" in ln or "£310" in ln for ln in now), now
    assert any("£310" in ln for ln in past)
    assert not any("<" in ln.split("([[")[0] for ln in now + past)


def test_the_words_of_a_shortened_date_before_its_absolute_form_are_read_whole():
    for said in ("Fri 22 Aug 2031 ", "Friday 22 August 2031 ", "Mon 25 Sept ", "on Tues 3 Mar "):
        line = f"Arrive: {said}"
        m = _DATE_WORDS.search(line)
        assert m is not None and m.group(0).strip(" ,") == said.strip(), said
