"""mx.np.dot/matmul/tensordot/einsum/linalg.norm/outer -> torch (N2.11, N3.1-N3.9).

dot is NumPy's (a's last axis with b's second-to-last): `_mx_np_dot`, since torch.matmul batches
when both are 3-D or more and the ranks are not known here."""
from xlate.convert.rulectx import Manual, Site
from xlate.convert.transforms import np_args, op_args as oa

_SIGNATURES = {
    "dot": ("a", "b", "out"), "matmul": ("a", "b", "out"), "tensordot": ("a", "b", "axes"),
    "outer": ("a", "b"), "inner": ("a", "b"), "norm": ("x", "ord", "axis", "keepdims"),
}


def transform(site: Site):
    op = site.matched.rsplit(".", 1)[1]
    if op == "einsum":
        site.bind("*operands", "out", "optimize")
        if site.has("out") and site.literal("out") is not None:
            raise Manual("`out=` is not translated")
        if not site.varargs:
            raise Manual("einsum without operands")
        call = oa.call(site, "torch.einsum", [(None, a.value) for a in site.varargs])
        return call.with_changes(args=[arg.with_changes(star=v.star) for arg, v in zip(call.args, site.varargs)])
    sig = _SIGNATURES[op]
    site.bind(*sig)
    if site.has("out") and site.literal("out") is not None:
        raise Manual("`out=` is not translated")
    if op == "norm":
        args = [(None, oa.required(site, "x"))]
        if site.has("ord") and site.literal("ord") is not None:
            args.append(("ord", site.value("ord")))
        if site.has("axis") and site.literal("axis") is not None:
            args.append(("dim", site.value("axis")))
        if site.has("keepdims") and site.literal("keepdims") is not False:
            args.append(("keepdim", site.value("keepdims")))
        return oa.call(site, "torch.linalg.norm", args)
    a, b = oa.required(site, "a"), oa.required(site, "b")
    if op == "dot":
        if site.receiver is not None and site.receiver_kind is None:
            raise Manual(f"could not tell whether `{site.code(a).strip()}` is an mx.np array; if it is: "
                         "`x.dot(y)` -> `_mx_np_dot(x, y)` (NumPy's dot)")
        return site.emit("_mx_np_dot({a}, {b})", a=a, b=b)
    if op == "matmul":
        return site.emit("torch.matmul({a}, {b})", a=a, b=b)  # scalars raise in both
    if op == "tensordot":
        axes = site.value("axes") if site.has("axes") else None
        return oa.call(site, "torch.tensordot", [(None, a), (None, b)] + ([("dims", axes)] if axes is not None else []))
    if op == "outer":  # NumPy flattens its inputs; torch.outer takes vectors
        return site.emit("torch.outer({a}.flatten(), {b}.flatten())", a=np_args.tensor(site, "a", *sig),
                         b=np_args.tensor(site, "b", *sig))
    return site.emit("torch.inner({a}, {b})", a=a, b=b)
