"""`x.dtype == 'int8'`, `w.dtype != np.float16`, `self.weight.dtype == C.DTYPE_INT8`, `x.dtype is np.float16`
(MX806; an NDArray's dtype is the NumPy type itself, so `is` against one is `==` there): one
side the `.dtype` of a value that may be a converted array or parameter, whose dtype is now a torch
dtype, which equals no string or NumPy dtype: the comparison would be False in silence. It goes to
`_mx_dtype_equal`, which compares a torch dtype with the dtype another side names, and any two
other values with `==` as before.

An NDArray's dtype against a string is always False in MXNet, and the helper gives what the string
names: a proven NDArray's such line is marked for review. So is one on a value xlate cannot type in
code that handles MXNet arrays (untyped_compare.handles_arrays), outside the numpy dialect: it may
hold an NDArray (`ident(b).dtype == 'float32'` was True converted, False in MXNet, reported fixed);
a NumPy array's dtype, which equals the string, gets the same answer from the helper."""
import libcst as cst

from xlate.convert.rulectx import Site, Skip
from xlate.convert.transforms.untyped_compare import handles_arrays


def transform(site: Site):
    left, right = site.original.left, site.original.comparisons[0].comparator
    sides = [s for s in (left, right) if _dtype_of(s) is not None]
    if not sides:
        raise Skip()
    kinds = [site.conv.classify(_dtype_of(s)) for s in sides]
    if "np" in kinds or _torch_dtype(site, left) or _torch_dtype(site, right):
        raise Skip()  # NumPy's own dtype, or a comparison with a torch dtype written as one
    if len(sides) == 2 and all(k in ("nd", "mxnp", "pt") for k in kinds):
        raise Skip()  # two converted arrays: torch dtypes on both sides
    operator = site.original.comparisons[0].operator
    negated = isinstance(operator, (cst.NotEqual, cst.IsNot))
    op, helper = ("!=", "not _mx_dtype_equal") if negated else ("==", "_mx_dtype_equal")
    if isinstance(operator, (cst.Is, cst.IsNot)):  # against a NumPy type: the same as == there
        op = "is not" if negated else "is"
    other = right if left in sides else left
    string = isinstance(other, (cst.SimpleString, cst.ConcatenatedString)) and len(sides) == 1
    if string and kinds == [None] and site.conv.analysis.array_kind == "nd" and handles_arrays(site.conv):
        site.review(f"`.dtype {op} '...'` on a value xlate could not type -> `{helper}(...)`, which compares the "
                    "dtype the string names; if the value is an NDArray, MXNet's answer was always "
                    f"{negated} (its dtype is a NumPy type, which never equals a string): keep what you meant")
    elif "nd" in kinds and string:
        site.review(f"`.dtype {op} '...'` on an NDArray -> `{helper}(...)`: MXNet's NDArray.dtype is a NumPy type, "
                    f"which never equals a string, so MXNet always gave {negated} here; the helper compares the "
                    "dtype the string names")
    else:
        site.fixed(f"`.dtype {op} ...` -> `{helper}(...)`: a torch dtype equals the string or NumPy dtype naming it, "
                   "as MXNet's NumPy dtypes do")
    node = site.emit(helper + "({a}, {b})", a=site.value("lhs"), b=site.value("rhs"))
    return node.with_changes(lpar=site.node.lpar, rpar=site.node.rpar)


def _dtype_of(node: cst.BaseExpression):
    """The receiver of `<receiver>.dtype` (not `self.dtype`: a class's own attribute), else None."""
    if isinstance(node, cst.Attribute) and node.attr.value == "dtype" \
            and not (isinstance(node.value, cst.Name) and node.value.value == "self"):
        return node.value
    return None


def _torch_dtype(site: Site, node: cst.BaseExpression) -> bool:
    code = site.code(node)
    return code.startswith("torch.")
