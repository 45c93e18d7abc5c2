"""mx.np's indexing, sorting and selection functions -> torch's (N8.10-N8.20, N8.27, N8.30)."""
from xlate.convert.rulectx import NOT_LITERAL, Manual, Site
from xlate.convert.transforms import np_args, op_args as oa

_SIGNATURES = {
    "where": ("condition", "x", "y"), "nonzero": ("a",), "take": ("a", "indices", "axis", "mode", "out"),
    "clip": ("a", "a_min", "a_max", "out"), "sort": ("a", "axis", "kind", "order"),
    "argsort": ("a", "axis", "kind", "order"),
    "unique": ("ar", "return_index", "return_inverse", "return_counts", "axis"),
    "tril": ("m", "k"), "triu": ("m", "k"), "diag": ("array", "k"),
}


def transform(site: Site):
    op = site.matched.rsplit(".", 1)[1]
    site.bind(*_SIGNATURES[op])
    sig = _SIGNATURES[op]
    if site.has("out") and site.literal("out") is not None:
        raise Manual("`out=` is not translated")
    if op == "where":
        cond = np_args.condition(site, "condition", *sig)
        if not site.has("x") and not site.has("y"):
            return site.emit("torch.where({c})", c=cond)  # index arrays, as NumPy's
        # torch.where takes Python numbers for x and y (N8.14)
        return site.emit("torch.where({c}, {x}, {y})", c=cond, x=oa.required(site, "x"), y=oa.required(site, "y"))
    if op == "nonzero":
        return site.emit("torch.nonzero({a}, as_tuple=True)", a=np_args.tensor(site, "a", *sig))
    if op == "take":
        mode = site.literal("mode", "raise")
        if mode not in ("raise", "clip", "wrap"):
            raise Manual("`mode=` is not a literal 'raise', 'clip' or 'wrap'")
        a, idx = oa.required(site, "a"), oa.required(site, "indices")
        axis = site.value("axis") if site.has("axis") and site.literal("axis") is not None else None
        if axis is None:
            a = site.emit("{a}.flatten()", a=a)
        return site.emit("_mx_take({a}, {i}, {axis}, {mode!r})".replace("{mode!r}", repr(mode)), a=a,
                         i=np_args.tensor(site, "indices", *sig), axis=axis if axis is not None else "0")
    if op == "clip":
        return oa.call(site, "torch.clip", [(None, np_args.tensor(site, "a", *sig)),
                                            (None, site.value("a_min") or "None"),
                                            (None, site.value("a_max") or "None")])
    if op in ("sort", "argsort"):
        if site.has("order") and site.literal("order") is not None:
            raise Manual("`order=` (structured arrays) has no torch counterpart")
        kind = site.literal("kind")
        if kind is NOT_LITERAL or kind not in (None, "quicksort", "stable", "mergesort", "heapsort"):
            raise Manual("`kind=` is not a literal sort kind")
        a = oa.required(site, "a")
        axis = site.value("axis") if site.has("axis") else "-1"
        if site.has("axis") and site.literal("axis") is None:  # over the flattened array
            a, axis = site.emit("{a}.flatten()", a=a), "0"
        stable = ", stable=True" if kind in ("stable", "mergesort") else ""
        if op == "sort":
            return site.emit("torch.sort({a}, dim={d}" + stable + ").values", a=a, d=axis)
        return site.emit("torch.argsort({a}, dim={d}" + stable + ")", a=a, d=axis)
    if op == "unique":
        if site.literal("return_index", False) is not False:
            raise Manual("`return_index=True` has no torch.unique counterpart: compute first indices by hand")
        if site.has("axis") and site.literal("axis") is not None:
            raise Manual("np.unique with an axis is not translated")
        args = [(None, oa.required(site, "ar"))]
        for name in ("return_inverse", "return_counts"):
            value = site.literal(name, False)
            if value is NOT_LITERAL:
                raise Manual(f"`{name}=` is not a literal")
            if value:
                args.append((name, "True"))
        return oa.call(site, "torch.unique", args)
    # tril, triu, diag
    args = [(None, np_args.tensor(site, sig[0], *sig))]
    if site.has("k") and site.literal("k") != 0:
        args.append((None, site.value("k")))
    return oa.call(site, "torch." + op, args)
