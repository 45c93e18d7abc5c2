"""nd.pad(x, mode, pad_width) -> F.pad with the pairs listed from the last axis, as torch counts."""
from xlate.convert.rulectx import Manual, Site
from xlate.convert.transforms import op_args as oa

_MODES = {"constant": None, "edge": "replicate", "reflect": "reflect"}


def transform(site: Site):
    x, widths = oa.required(site, "data"), oa.required(site, "pad_width")
    mode = oa.choice(site, "mode", "constant", tuple(_MODES), "write 'constant', 'edge' or 'reflect'")
    pads = oa.ints(site, "pad_width")
    if pads is None or len(pads) not in (8, 10):
        return oa.call(site, "_mx_pad", [(None, x)] + oa.passed(site, "mode", "pad_width", "constant_value"))
    if any(pads[:4]):
        raise Manual("MXNet pads only the axes after the first two (it rejects this pad_width)")
    pairs = [pads[i:i + 2] for i in range(4, len(pads), 2)]
    flat = "(" + ", ".join(str(w) for pair in reversed(pairs) for w in pair) + ")"
    args = [(None, x), (None, flat)]
    if _MODES[mode]:
        args.append(("mode", f'"{_MODES[mode]}"'))
    elif site.has("constant_value") and site.literal("constant_value") not in (0, 0.0):
        args.append(("value", site.value("constant_value")))
    return oa.call(site, "F.pad", args)
