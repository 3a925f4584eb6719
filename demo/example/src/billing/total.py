"""Invoice totals for the demo project."""
from decimal import ROUND_HALF_EVEN, Decimal

CENT = Decimal("0.01")


def line_amount(line):
    """Price of one invoice line, rounded to the cent (banker's rounding)."""
    amount = Decimal(str(line["unit_price"])) * line["quantity"]
    return amount.quantize(CENT, rounding=ROUND_HALF_EVEN)


def invoice_total(lines):
    """Sum of the line amounts."""
    total = Decimal("0.00")
    for line in lines:
        total += line_amount(line)
    return total
