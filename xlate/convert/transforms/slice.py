"""nd.slice(x, begin, end, step) -> an index expression: MXNet slices each axis as Python does (None
bounds, negative ones from the end, out-of-range ones clipped). A negative step, which torch's
indexing refuses, or bounds that are not tuple displays -> `_mx_slice`."""
import libcst as cst

from xlate.convert.rulectx import NOT_LITERAL, Manual, Site
from xlate.convert.transforms import op_args as oa


def _entries(node):
    """The elements of a tuple or list display; None for anything else (a variable)."""
    if isinstance(node, (cst.Tuple, cst.List)) and all(isinstance(e, cst.Element) for e in node.elements):
        return [e.value for e in node.elements]
    return None


def transform(site: Site):
    x = oa.required(site, "data")
    begin, end = _entries(oa.required(site, "begin")), _entries(oa.required(site, "end"))
    step = [] if site.literal("step", ()) in ((), None) else _entries(site.value("step"))
    if begin is None or end is None or step is None:
        return oa.run_time(site, "_mx_slice")
    if len(begin) != len(end) or step and len(step) != len(begin):
        raise Manual("begin, end and step need one entry per axis (MXNet rejects this call)")
    steps = [site.evaluate(s) for s in step]
    if any(s is NOT_LITERAL or s is not None and (not isinstance(s, int) or s <= 0) for s in steps):
        return oa.run_time(site, "_mx_slice")  # a negative step (or one known at run time)
    holes, parts = {"x": x}, []
    for i, (b, e) in enumerate(zip(begin, end)):
        part = "" if site.evaluate(b) in (None, 0) else "{b%d}" % i
        part += ":" + ("" if site.evaluate(e) is None else "{e%d}" % i)
        if i < len(steps) and steps[i] not in (None, 1):
            part += ":{s%d}" % i
            holes["s%d" % i] = step[i]
        holes["b%d" % i], holes["e%d" % i] = b, e
        parts.append(part)
    while len(parts) > 1 and parts[-1] == ":":
        parts.pop()
    template = "{x}[" + ", ".join(parts) + "]"
    return site.emit(template, **{k: v for k, v in holes.items() if "{" + k + "}" in template})
