"""sort/argsort: ascending by default; argsort's indices are float32 in MXNet."""
from xlate.rulectx import Manual, Site
from xlate.table import convert_dtype


def transform(site: Site):
    op = site.matched.rsplit(".", 1)[1]
    asc = site.literal("is_ascend", True)
    if asc not in (True, False):
        raise Manual("`is_ascend=` is not a literal")
    holes = {"x": site.value("data"), "axis": site.value("axis") if site.has("axis") else "-1"}
    x = "{x}"
    if site.has("axis") and site.literal("axis") is None:  # MXNet flattens the input
        x, holes["axis"] = "{x}.reshape(-1)", "0"
    text = "torch.sort(" + x + ", dim={axis}" + ("" if asc else ", descending=True") + ")"
    if op == "sort":
        return site.emit(text + ".values", **holes)
    if site.has("dtype"):
        holes["dtype"] = convert_dtype(site, site.value("dtype"))
        return site.emit(text + ".indices.to({dtype})", **holes)
    return site.emit(text + ".indices.float()", **holes)
