"""mx.np.concatenate/stack/split/array_split/vstack/hstack: NumPy's axes and counts (N4.1-N4.7).

`split(x, n)` is n equal pieces and `split(x, [i, j])` split points (torch.split takes piece
sizes): `torch.tensor_split`, as a list like NumPy's (a lone unpacking keeps the tuple).
"""
import libcst as cst

from xlate.convert.rulectx import Manual, Site
from xlate.convert.transforms import op_args as oa


def transform(site: Site):
    op = site.matched.rsplit(".", 1)[1]
    if op in ("split", "array_split"):
        site.bind("ary", "indices_or_sections", "axis")
        args = [(None, oa.required(site, "ary")), (None, oa.required(site, "indices_or_sections"))]
        if site.has("axis") and site.literal("axis") != 0:
            args.append(("dim", site.value("axis")))
        call = oa.call(site, "torch.tensor_split", args)
        return call if _unpacked(site) else site.emit("list({c})", c=call)
    if op in ("vstack", "hstack", "dstack", "column_stack"):
        site.bind("arrays", "out")
        _no_out(site)
        return oa.call(site, "torch." + op, [(None, oa.required(site, "arrays"))])
    site.bind("seq" if op == "concatenate" else "arrays", "axis", "out")
    _no_out(site)
    seq = oa.required(site, "seq" if op == "concatenate" else "arrays")
    torch_op = "torch.cat" if op == "concatenate" else "torch.stack"
    if op == "concatenate" and site.has("axis") and site.literal("axis") is None:  # flattened first
        return site.emit("torch.cat([_t.flatten() for _t in {s}])", s=seq)
    args = [(None, seq)]
    if site.has("axis") and site.literal("axis") != 0:
        args.append(("dim", site.value("axis")))
    return oa.call(site, torch_op, args)


def _no_out(site: Site):
    if site.has("out") and site.literal("out") is not None:
        raise Manual("`out=` is not translated")


def _unpacked(site: Site) -> bool:
    """`a, b = np.split(...)` or `for p in np.split(...)`: a tuple does as well as NumPy's list."""
    stmt = site.conv.statement_stack[-1] if site.conv.statement_stack else None
    if stmt is None or len(stmt.body) != 1 or not isinstance(stmt.body[0], cst.Assign):
        return False
    assign = stmt.body[0]
    return assign.value is site.original and len(assign.targets) == 1 \
        and isinstance(assign.targets[0].target, (cst.Tuple, cst.List))
