"""topk, sort and argsort: MXNet flattens for axis=None and returns float32 indices."""
from xlate.convert.rulectx import NOT_LITERAL, Manual, Site
from xlate.convert.table import convert_dtype
from xlate.convert.transforms import op_args as oa


def transform(site: Site):
    op = site.matched.rsplit(".", 1)[1]
    ascending = site.literal("is_ascend", op != "topk")
    if ascending not in (True, False):
        raise Manual("`is_ascend=` is not a literal")
    holes = {"x": site.value("data"), "axis": site.value("axis") if site.has("axis") else "-1"}
    x = "{x}"
    if site.has("axis") and site.literal("axis") is None:  # MXNet flattens the input
        x, holes["axis"] = "{x}.reshape(-1)", "0"
    if op == "topk":
        ret = site.literal("ret_typ", "indices")
        if ret is NOT_LITERAL or ret not in ("indices", "value"):
            # 'both' ([values, indices as float32]), 'mask', or decided at run time
            site.fixed(f"`topk(ret_typ={site.code(site.value('ret_typ')).strip()})` -> `_mx_npx_topk(...)` with "
                       "MXNet's arguments: [values, indices] (indices as float32 unless dtype= says), or a 0/1 mask")
            return oa.run_time(site, "_mx_npx_topk")
        holes["k"] = site.value("k") if site.has("k") else "1"
        call = "torch.topk(" + x + ", {k}, dim={axis}" + (", largest=False" if ascending else "") + ")"
        want_values = ret == "value"
    else:
        call = "torch.sort(" + x + ", dim={axis}" + ("" if ascending else ", descending=True") + ")"
        want_values = op == "sort"
    if want_values:
        return site.emit(call + ".values", **holes)
    if site.has("dtype"):
        holes["dtype"] = convert_dtype(site, site.value("dtype"))
        return site.emit(call + ".indices.to({dtype})", **holes)
    return site.emit(call + ".indices.float()", **holes)
