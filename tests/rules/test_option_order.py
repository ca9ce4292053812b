"""option-order: which orders it rewrites itself and which it only reports (a wrong reorder changes the item)."""
from __future__ import annotations

from helpers import model_question as _question

from qlint.rules import option_order


def test_option_order_reorders_only_plain_quantities_in_one_unit():
    """A wrong reorder changes the item: mixed units or wording are reported but never sorted automatically."""
    plain = list(option_order.check(_question(["18", "21", "14", "28"]), option_order.Options()))
    assert plain and plain[0].fix is not None
    mixed = list(option_order.check(_question(["about 8 seconds", "about 8 minutes", "about 8 hours",
                                               "about 1 second"]), option_order.Options()))
    assert mixed and mixed[0].fix is None
    units = list(option_order.check(_question(["5 km", "300 m", "2 km"]), option_order.Options()))
    assert units and units[0].fix is None
