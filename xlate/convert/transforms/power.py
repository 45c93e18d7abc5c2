"""nd.power(base, exp) is MXNet's `**`: a number on either side, arrays broadcast as in torch."""
from xlate.convert.rulectx import Manual, Site


def transform(site: Site):
    base, exp = site.value("base"), site.value("exp")
    if base is None or exp is None:
        raise Manual("needs both operands")
    return site.emit("{a} ** {b}", a=base, b=exp)
