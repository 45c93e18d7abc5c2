"""nd.reshape_like(lhs, rhs, lhs_begin, lhs_end, rhs_begin, rhs_end) -> `lhs.reshape(...)` with the
shapes sliced as Python slices them (None: the start or the end; negative: from the end), as
MXNet does; bounds only known at run time, or an expression for lhs -> `_mx_reshape_like`."""
import libcst as cst

from xlate.convert.rulectx import NOT_LITERAL, Site
from xlate.convert.transforms import op_args as oa

_BOUNDS = ("lhs_begin", "lhs_end", "rhs_begin", "rhs_end")


def transform(site: Site):
    lhs, rhs = oa.required(site, "lhs"), oa.required(site, "rhs")
    values = {name: site.literal(name) for name in _BOUNDS}
    if all(v is None for v in values.values()):
        return site.emit("{lhs}.reshape({rhs}.shape)", lhs=lhs, rhs=rhs)
    if any(v is NOT_LITERAL or v is not None and not isinstance(v, int) for v in values.values()) \
            or not isinstance(lhs, (cst.Name, cst.Attribute)):
        return oa.run_time(site, "_mx_reshape_like", ("lhs", "rhs"))
    lb, le, rb, re_ = (values[n] for n in _BOUNDS)
    parts = [] if lb in (None, 0) else ["{lhs}.shape[:%d]" % lb]
    parts.append("{rhs}.shape[%s:%s]" % ("" if rb is None else rb, "" if re_ is None else re_))
    if le is not None:
        parts.append("{lhs}.shape[%d:]" % le)
    return site.emit("{lhs}.reshape(" + " + ".join(parts) + ")", lhs=lhs, rhs=rhs)
