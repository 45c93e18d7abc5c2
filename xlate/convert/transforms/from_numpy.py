"""`nd.from_numpy(a, zero_copy=True)` -> `torch.from_numpy(a)`; `zero_copy=False` (a copy, of
any layout) -> `torch.from_numpy(a.copy())`."""
import libcst as cst

from xlate.convert.rulectx import Manual, Site


def transform(site: Site):
    site.bind("ndarray", "zero_copy")
    if not site.has("ndarray"):
        raise Manual("`from_numpy` without its array")
    array = site.value("ndarray")
    zero_copy = site.literal("zero_copy", True)
    if zero_copy is True:
        return site.emit("torch.from_numpy({a})", a=array)
    if zero_copy is False:
        return site.emit("torch.from_numpy({a}.copy())", a=array)
    if not isinstance(array, cst.Name):
        raise Manual("`zero_copy=` is not a literal: write True (shares the array's memory) or False (a copy)")
    return site.emit("torch.from_numpy({a} if {z} else {a}.copy())", a=array, z=site.value("zero_copy"))
