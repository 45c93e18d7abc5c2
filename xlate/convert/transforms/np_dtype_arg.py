"""`np.issubdtype(x.dtype, np.floating)`, `np.zeros(n, dtype=x.dtype)`, `np.finfo(x.dtype)` (MX809):
the `.dtype` of a value that may be a converted array handed to NumPy. MXNet's NDArray.dtype is a
NumPy type, which NumPy reads; a tensor's is a torch dtype, which it cannot ("Cannot interpret
'torch.float32' as a data type"). Each such argument goes through `_mx_np_dtype`, which gives the
NumPy type MXNet gave for a torch dtype and returns anything else as it is, so a NumPy array's own
dtype, a string or a Parameter's dtype pass unchanged at run time."""
import libcst as cst

from xlate.convert.rulectx import Site, Skip


def transform(site: Site):
    wrapped = []
    args = []
    for arg, original in zip(site.node.args, site.original.args):
        if _may_be_converted(site, original.value):
            arg = arg.with_changes(value=cst.Call(cst.Name(site.helper("_mx_np_dtype")), [cst.Arg(arg.value)]))
            wrapped.append(site.code(original.value))
        args.append(arg)
    if not wrapped:
        raise Skip()
    site.fixed(f"`{', '.join(wrapped)}` handed to NumPy -> `_mx_np_dtype(...)`: a converted array's torch dtype "
               "becomes the NumPy type MXNet's NDArray.dtype is; any other dtype passes unchanged")
    return site.node.with_changes(args=args)


def _may_be_converted(site: Site, node: cst.BaseExpression) -> bool:
    """`<receiver>.dtype` whose receiver is not a proven NumPy array nor `self` (a class's own
    attribute), and not a torch module's name (`torch.float32.dtype` is no use of this)."""
    if not (isinstance(node, cst.Attribute) and node.attr.value == "dtype"):
        return False
    receiver = node.value
    if isinstance(receiver, cst.Name) and receiver.value in ("self", "np", "numpy", "torch"):
        return False
    return site.conv.classify(receiver) != "np"
