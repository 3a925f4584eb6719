"""Locked properties of invoice totals. Owned by humans; agents may not edit this tree."""
import os
from decimal import Decimal

import pytest
from hypothesis import given, settings, strategies as st

from billing.total import invoice_total, line_amount
from conftest import load_fixture

EXAMPLES = int(os.environ.get("ORACLE_GATE_MAX_EXAMPLES", "50"))

lines = st.lists(
    st.fixed_dictionaries(
        {
            "unit_price": st.decimals(min_value=0, max_value=10_000, places=2),
            "quantity": st.integers(min_value=0, max_value=1_000),
        }
    ),
    max_size=20,
)


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(lines)
def test_total_is_the_sum_of_its_lines(items):
    assert invoice_total(items) == sum((line_amount(i) for i in items), Decimal("0.00"))


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(lines)
def test_total_is_never_negative(items):
    assert invoice_total(items) >= 0


def test_receipt_totals_match_the_fixture():
    receipt = load_fixture("receipt_basic.json")
    assert invoice_total(receipt["lines"]) == Decimal(receipt["expected_total"])


def test_negative_quantities_are_rejected():
    receipt = load_fixture("negative_quantity.json")
    with pytest.raises(ValueError):
        invoice_total(receipt["lines"])
