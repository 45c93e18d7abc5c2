"""`self.w = gluon.Parameter('w', shape=..., init=...)` in a block -> `self.w = _mx_parameter(shape, init=...)`,
as `self.params.get` (MX105) is translated: a Parameter assigned to a block's attribute is
registered under that attribute in Gluon, as an nn.Parameter is in torch."""
from xlate.convert.rulectx import Manual, Site
from xlate.convert.transforms.params_get import _assignment, declare


def transform(site: Site):
    if _assignment(site) is None:
        raise Manual("a Parameter outside a block's `self.<name> = ...` has no module to belong to: "
                     "declare the torch tensor by hand")
    out = declare(site, "`Parameter(...)`")
    site.review("MXNet 1.x leaves a Parameter assigned to a block's attribute out of `collect_params()`: "
                "`initialize()` and a Trainer over collect_params() skip it (MXNet 2 collects it); in torch it "
                "is one of the module's `parameters()`, filled at once, which an optimizer over them trains")
    return out
