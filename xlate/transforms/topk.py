"""topk: MXNet returns float32 indices of the largest element by default."""
from xlate.rulectx import NOT_LITERAL, Manual, Site
from xlate.table import convert_dtype


def transform(site: Site):
    ret = site.literal("ret_typ", "indices")
    asc = site.literal("is_ascend", False)
    if ret is NOT_LITERAL or asc not in (True, False):
        raise Manual("`ret_typ=`/`is_ascend=` are not literals")
    if ret not in ("indices", "value"):
        raise Manual(f"ret_typ='{ret}' is not translated: take values and indices from torch.topk")
    holes = {"x": site.value("data"), "k": site.value("k") if site.has("k") else "1",
             "axis": site.value("axis") if site.has("axis") else "-1"}
    x = "{x}"
    if site.has("axis") and site.literal("axis") is None:  # MXNet flattens the input
        x, holes["axis"] = "{x}.reshape(-1)", "0"
    text = "torch.topk(" + x + ", {k}, dim={axis}" + (", largest=False" if asc else "") + ")"
    if ret == "value":
        return site.emit(text + ".values", **holes)
    if site.has("dtype"):
        holes["dtype"] = convert_dtype(site, site.value("dtype"))
        return site.emit(text + ".indices.to({dtype})", **holes)
    return site.emit(text + ".indices.float()", **holes)
