"""nd.norm(x, ord, axis, keepdims) -> torch.linalg.vector_norm with MXNet's shapes: a full reduction
is (1,), and one over axes is never 0-d (MXNet 1.x has no 0-d arrays)."""
from xlate.convert.rulectx import NOT_LITERAL, Manual, Site, Skip
from xlate.convert.transforms import op_args as oa


def transform(site: Site):
    if site.receiver is not None and site.receiver_kind is None:
        raise Skip()  # x.norm() is valid torch too; only the (1,) shape of MXNet's full reduction differs
    x = oa.required(site, "data")
    ord_, axis, keepdims = site.literal("ord", 2), site.literal("axis"), site.literal("keepdims", False)
    if ord_ not in (1, 2) or NOT_LITERAL in (axis, keepdims) or site.has("out_dtype"):
        if ord_ not in (1, 2, NOT_LITERAL):
            raise Manual(f"norm ord={ord_!r}: MXNet supports 1 and 2 only")
        return oa.run_time(site, "_mx_vector_norm")
    args = [(None, x)] + ([(None, site.value("ord"))] if ord_ != 2 else [])
    if axis is not None and axis != ():
        args.append(("dim", site.value("axis")))
    if keepdims:
        args.append(("keepdim", "True"))
        return oa.call(site, "torch.linalg.vector_norm", args)
    call = oa.call(site, "torch.linalg.vector_norm", args)
    if axis is None or axis == ():
        node = site.emit("{n}.reshape(1)", n=call)
        site.conv.full_reductions[id(node)] = node
        return node
    return site.emit("torch.atleast_1d({n})", n=call)
