"""softmax/log_softmax with MXNet's axis=-1 written out and temperature applied; a dtype, a
flag only known at run time, or softmax's use_length=True (sockeye's attention) -> the
operator's helper."""
from xlate.convert.rulectx import NOT_LITERAL, Manual, Site
from xlate.convert.transforms import op_args as oa


def transform(site: Site):
    op = site.matched.rsplit(".", 1)[1]
    use_length = site.literal("use_length", False)
    if use_length not in (False, 0, NOT_LITERAL) and op == "softmax":
        return oa.run_time(site, site.rule.runtime_for(site.matched))  # _mx_softmax masks by length
    if use_length not in (False, 0, NOT_LITERAL):
        raise Manual("`use_length=True` masking is not translated: mask the positions past each length with -inf "
                     "before torch.softmax")
    temperature = site.literal("temperature")
    if NOT_LITERAL in (use_length, temperature) or site.literal("dtype") is not None:
        return oa.run_time(site, site.rule.runtime_for(site.matched))
    # `length` is read only with use_length=True
    holes = {"x": site.value("data"), "axis": site.value("axis") if site.has("axis") else "-1"}
    x = "{x}"
    if temperature not in (None, 1, 1.0):
        holes["t"] = site.value("temperature")
        x = "{x} / {t}"
    if site.receiver is not None and x == "{x}":
        return site.emit("{x}." + op + "(dim={axis})", **holes)
    return site.emit(f"torch.{op}({x}, dim={{axis}})", **holes)
