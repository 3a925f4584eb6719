"""The project's own unit tests: the patch may change these; they never vote."""
import sys
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from billing.total import line_amount  # noqa: E402


def test_line_amount_rounds_half_even():
    assert line_amount({"unit_price": "0.125", "quantity": 1}) == Decimal("0.12")
