"""mx.np array methods that torch spells and computes the same way (N6.8, N6.9): `x.reshape(3, 2)`
(no codes in the dialect), `x.flatten()` (1-D), `x.clip(lo, hi)`, `x.squeeze(axis)`; an
`order='C'` argument goes (torch's layout is C order). On a receiver xlate cannot type the call
is left as it is: it means the same for an mx.np array and a NumPy one. reshape, flatten and squeeze
copy where the file writes into the arrays in place (Note [the dialect's shape copies])."""
import libcst as cst

from xlate.convert.rulectx import Manual, Site, Skip
from xlate.convert.transforms.np_copies import as_mxnet_copies


def transform(site: Site):
    call = site.node
    if site.receiver_kind is None:
        raise Skip()
    keep = []
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "order":
            if site.evaluate(arg.value) != "C":
                raise Manual("only order='C' is translated")
            continue
        keep.append(arg)
    if len(keep) != len(call.args) and keep:
        keep[-1] = keep[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    out = call.with_changes(args=keep)
    if site.matched.rsplit(".", 1)[-1] in ("reshape", "flatten", "squeeze"):  # views in torch, copies in MXNet
        return as_mxnet_copies(site, site.receiver, out)
    return out
