"""`net.collect_params(select)` -> `_mx_collect_params(net, select)`, Gluon's ParameterDict with
Gluon's names; `.values()` of a whole block's -> `net.parameters()`."""
import re

from xlate.convert.rulectx import Site, Skip
from xlate.convert.transforms import param_evidence

_DIFFERS = ("keys are dotted torch paths (`0.weight`), not Gluon names (`dense0_weight`); BatchNorm running "
            "statistics are buffers (`net.named_buffers()`), not parameters, so they are not included "
            "(a parameter count is smaller by 2 x channels per BatchNorm)")
# a selection by the parameters' own names alone (`.*beta|.*gamma|.*bias`) does not depend on any
# block's prefix, so on no construction order (Note [Gluon names] in xlate/runtime/naming.py)
_OWN_NAME = re.compile(r"\.\*_?(weight|bias|gamma|beta|alpha|running_mean|running_var)\$?")
_ORDER = ("the names are Gluon's for a model whose blocks are each built inside their parent's "
          "`name_scope()` in the order they are registered, top-level models numbered in the order first "
          "named (Note [Gluon names])")


def transform(site: Site):
    if site.matched == ".collect_params":
        if param_evidence.block_kind(site, param_evidence.receiver(site)) == "no":
            raise Skip()  # `self.collect_params()` of a class that is no Gluon block
        if not site.has("select") or site.literal("select") is None:
            site.fixed("`collect_params()` -> `_mx_collect_params(net)`: Gluon's ParameterDict (Gluon's names, "
                       "running statistics included, Gluon's order)")
            return site.emit("_mx_collect_params({net})", net=site.value("block"))
        select = site.literal("select")
        if isinstance(select, str) and all(_OWN_NAME.fullmatch(alt) for alt in select.split("|")):
            site.fixed(f"`collect_params({select!r})` -> `_mx_collect_params(net, ...)`: the parameters whose "
                       "Gluon names match, as Gluon selects them")
        else:
            site.review(f"`collect_params(select)` -> `_mx_collect_params(net, select)`: the regex is matched "
                        f"against Gluon's full names; {_ORDER}")
        return site.emit("_mx_collect_params({net}, {select})", net=site.value("block"), select=site.value("select"))
    block = param_evidence.block_of(site)
    if block is None or site.matched == ".items":
        raise Skip()  # an ordinary dict's; `.items()` of `_mx_collect_params(net)` has Gluon's names
    site.bind("params")
    param_evidence.absorb(site)
    site.conv.dropped(site.receiver)  # MX160's `_mx_collect_params(net)`, replaced whole
    site.review(f"`collect_params().values()` -> `parameters()`: {_DIFFERS}")
    return site.emit("{net}.parameters()", net=block)
