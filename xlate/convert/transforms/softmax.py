"""softmax/log_softmax with MXNet's axis=-1 written out and temperature applied."""
from xlate.convert.rulectx import Manual, Site


def transform(site: Site):
    op = site.matched.rsplit(".", 1)[1]
    for unsupported in ("length", "use_length", "dtype"):
        if site.has(unsupported) and site.literal(unsupported) not in (None, False):
            raise Manual(f"`{unsupported}=` is not translated")
    holes = {"x": site.value("data"), "axis": site.value("axis") if site.has("axis") else "-1"}
    x = "{x}"
    if site.has("temperature") and site.literal("temperature") not in (None, 1, 1.0):
        holes["t"] = site.value("temperature")
        x = "{x} / {t}"
    if site.receiver is not None and x == "{x}":
        return site.emit("{x}." + op + "(dim={axis})", **holes)
    return site.emit(f"torch.{op}({x}, dim={{axis}})", **holes)
