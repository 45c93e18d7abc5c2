"""`net.collect_params()` -> `dict(net.named_parameters())`; `.items()` / `.values()` of it ->
`net.named_parameters()` / `net.parameters()`."""
from xlate.convert.rulectx import Manual, Site, Skip
from xlate.convert.transforms import param_evidence

_SELECT = ("selects by Gluon names (`dense0_weight`, `batchnorm0_gamma`); torch names are dotted paths "
           "(`0.weight`) and norm scale/shift are `weight`/`bias`: write "
           "`{n: p for n, p in net.named_parameters() if ...}` with a condition on the torch names")
_DIFFERS = ("keys are dotted torch paths (`0.weight`), not Gluon names (`dense0_weight`); BatchNorm running "
            "statistics are buffers (`net.named_buffers()`), not parameters, so they are not included "
            "(a parameter count is smaller by 2 x channels per BatchNorm)")


def transform(site: Site):
    if site.matched == ".collect_params":
        if param_evidence.block_kind(site, param_evidence.receiver(site)) == "no":
            raise Skip()  # `self.collect_params()` of a class that is no Gluon block
        if site.has("select") and site.literal("select") is not None:
            raise Manual("collect_params('regex') " + _SELECT)
        site.review(f"`collect_params()` -> `dict(named_parameters())`: {_DIFFERS}")
        return site.emit("dict({net}.named_parameters())", net=site.value("block"))
    block = param_evidence.block_of(site)
    if block is None:
        raise Skip()  # an ordinary dict's .items() / .values()
    site.bind("params")
    param_evidence.absorb(site)
    if site.matched == ".items":
        site.review(f"`collect_params().items()` -> `named_parameters()`: {_DIFFERS}")
        return site.emit("{net}.named_parameters()", net=block)
    site.review(f"`collect_params().values()` -> `parameters()`: {_DIFFERS}")
    return site.emit("{net}.parameters()", net=block)
