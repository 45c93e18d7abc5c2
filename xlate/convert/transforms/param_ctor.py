"""`self.w = gluon.Parameter('w', shape=..., init=...)` in a block -> `self.w = _mx_parameter(shape, init=...)`,
as `self.params.get` (MX105) is translated: a Parameter assigned to a block's attribute is
registered under that attribute in Gluon, as an nn.Parameter is in torch."""
from xlate.convert.rulectx import Site
from xlate.convert.transforms.params_get import _assignment, declare, review_too


def transform(site: Site):
    if _assignment(site) is None:
        # a Parameter of its own (an image optimised in place, a margin): a torch Parameter that
        # belongs to no module, which an optimizer given it trains
        out = declare(site, "`Parameter(...)`")
        review_too(site, "a Parameter of its own -> `_mx_parameter(...)`, a torch Parameter that belongs to no module, "
                         "filled at once where Gluon waits for its `initialize()` (translated, MX521, it draws again "
                         "unless already initialised); its name only named it in Gluon")
        return out
    out = declare(site, "`Parameter(...)`")
    review_too(site, "MXNet 1.x leaves a Parameter assigned to a block's attribute out of `collect_params()`: "
                     "`initialize()` and a Trainer over collect_params() skip it (MXNet 2 collects it); in torch it "
                     "is one of the module's `parameters()`, filled at once, which an optimizer over them trains")
    return out
