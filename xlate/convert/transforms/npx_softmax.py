"""npx.softmax(data, length, axis=-1, temperature, dtype, use_length) / npx.log_softmax: as nd's
(MX034's transform), and with use_length=True the masked softmax, `_mx_softmax` (N7.1-N7.6)."""
from xlate.convert.rulectx import NOT_LITERAL, Manual, Site
from xlate.convert.transforms import op_args as oa, softmax


def transform(site: Site):
    op = site.matched.rsplit(".", 1)[1]
    if op == "softmax":
        site.bind("data", "length", "axis", "temperature", "dtype", "use_length")
    else:  # npx.log_softmax takes no length in 1.9.1
        site.bind("data", "axis", "temperature", "dtype", "use_length")
    use_length = site.literal("use_length", False)
    if use_length in (False, 0, None):
        if site.has("length") and site.literal("length") is not None:
            raise Manual("`length=` without use_length=True: MXNet raises (SequenceMask-style input count)")
        return softmax.transform(site)
    if op == "log_softmax":
        raise Manual("npx.log_softmax has no `length` in MXNet 1.9.1: use_length=True is not translated")
    if use_length is not NOT_LITERAL and not site.has("length"):
        raise Manual("use_length=True needs `length`")
    return oa.run_time(site, "_mx_softmax")
