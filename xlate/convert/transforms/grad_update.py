"""`p[:] = p - lr * p.grad`, `p[:] -= lr * v`, `p -= ...` on an array whose gradient the
function reads -> the same write on `p.data` (MX545): MXNet records nothing outside
autograd.record(); torch refuses an in-place change of a leaf that requires grad."""
import libcst as cst

from xlate.convert.rulectx import Manual, Site, Skip
from xlate.convert.transforms.param_data import _recorded


def written_name(stmt: cst.CSTNode):
    """The Name `p` of `p[...] = v`, `p[...] op= v` and `p op= v` (None for any other statement)."""
    target = None
    if isinstance(stmt, cst.Assign) and len(stmt.targets) == 1:
        target = stmt.targets[0].target
        if not isinstance(target, cst.Subscript):
            return None
    elif isinstance(stmt, cst.AugAssign):
        target = stmt.target
    if isinstance(target, cst.Subscript):
        target = target.value
    return target if isinstance(target, cst.Name) else None


def transform(site: Site):
    stmt = site.node
    written = written_name(stmt)
    if written is None:
        raise Skip()
    name = written.value
    if _recorded(site):
        raise Manual(f"an in-place write to `{name}`, an array with a gradient, where MXNet records it (a forward or "
                     "autograd.record()): torch refuses it on a leaf that requires grad; compute a new array instead")
    target = stmt.targets[0].target if isinstance(stmt, cst.Assign) else stmt.target
    data = cst.Attribute(value=written, attr=cst.Name("data"))
    target = target.with_changes(value=data) if isinstance(target, cst.Subscript) else data
    site.fixed(f"in-place write to `{name}`, an array with a gradient, outside autograd.record() -> on "
               f"`{name}.data`: MXNet does not record it; torch raises on an in-place change of a leaf that "
               "requires grad")
    if isinstance(stmt, cst.Assign):
        return stmt.with_changes(targets=[stmt.targets[0].with_changes(target=target)])
    return stmt.with_changes(target=target)
