"""A till slip pasted as text is read as one statement: the shop on its first line is what
its items are bought from, on the date it prints, under the terms at its foot; the till's
own lines, the tax and how it was paid are left out."""

from __future__ import annotations

from doctree.agent.offline.receipts import read_receipt, read_receipts
from tests.agent.offline_runs import current_facts, run, transcript

GARDEN = """GREENLEAF GARDEN CENTRE
Till 2   Cashier: MO
14/05/2031 10:41
---------------------------
OLIVE TREE 1.2M          £64.99
  FROST HARDY TO -10C
COMPOST 50L X2           £13.00
SUBTOTAL                 £77.99
VAT                      £13.00
TOTAL                    £77.99
MASTERCARD ****5521      £77.99
PLANTS GUARANTEED FOR 12 WEEKS
REFUNDS WITHIN 14 DAYS"""


def test_a_slip_is_one_statement_of_its_shop_date_items_total_and_terms():
    assert read_receipt(GARDEN.split("\n")) == (
        "Receipt from Greenleaf Garden Centre, 2031-05-14 10:41: Olive Tree 1.2M £64.99 "
        "(frost hardy to -10C); Compost 50L X2 £13.00; total £77.99; plants guaranteed for "
        "12 weeks; refunds within 14 days (by 2031-05-28)."
    )


def test_another_layout_with_an_address_a_code_and_a_currency_word():
    slip = [
        "PAPER & INK  12 High St, Ludlow",
        "2031-02-03 16:20",
        "A4 PRINTER PAPER 500   4.50",
        "TONER HP-305A         58.00",
        "TOTAL EUR             62.50",
        "CASH                  70.00",
        "CHANGE                 7.50",
    ]
    assert read_receipt(slip) == (
        "Receipt from Paper & Ink (12 High St, Ludlow), 2031-02-03 16:20: A4 Printer Paper 500 "
        "€4.50; Toner HP-305A €58.00; total €62.50."
    )


def test_lines_with_amounts_but_no_total_are_no_receipt():
    assert read_receipt(["Rent   950.00", "Council tax   142.00", "Water   38.50"]) is None
    assert read_receipt(["The total came to 45.00 in the end", "and I paid 20.00"]) is None


def test_a_slip_pasted_without_a_fence_is_read_as_one_item():
    text = "Here's the slip:\n\n" + GARDEN + "\n\nKeep that for me."
    read = read_receipts(text)
    assert "- Receipt from Greenleaf Garden Centre, 2031-05-14 10:41:" in read
    assert "MASTERCARD" not in read
    assert read.startswith("Here's the slip:") and read.endswith("Keep that for me.")


def test_a_pasted_slip_keeps_what_was_bought_where_and_its_deadline(repo):
    text = transcript(
        "s-slip",
        ("user", "2031-05-14T12:00:00Z", f"Typed off the receipt:\n\n```\n{GARDEN}\n```"),
        ("assistant", "2031-05-14T12:01:00Z", "Kept."),
    )
    run(repo, text)
    facts = current_facts(repo)
    assert "Olive Tree 1.2M £64.99" in facts and "Greenleaf Garden Centre" in facts
    assert "refunds within 14 days (by 2031-05-28)" in facts
    assert "5521" not in facts and "Cashier" not in facts
