"""`hasattr(contrib.cnn, 'ModulatedDeformableConvolution')` (MX191): code that probes MXNet's API
for a feature before it uses it (`assert hasattr(...)`, `if hasattr(mx.nd, 'op'):`). The converted
program computes what MXNet 1.9.1 computes (MX590), so the probe gets MXNet 1.9.1's answer, from
the inventory of its modules and classes (xlate/convert/mxnet_api.txt), as a constant: the probed
namespace is no longer there to ask (left, it kept the MXNet import, whose stand-in where MXNet is
not installed answers True for any name). A use of the probed name is translated, or reported,
where it is written."""
import ast

import libcst as cst

from xlate.convert import mx_api, names
from xlate.convert.rulectx import Site, Skip

# NDArray's public attributes torch.Tensor lacks (MXNet 1.9.1's inventory less torch 2's), and torch.Tensor's that
# duck-typing code probes and NDArray lacks: on these a converted array answers otherwise than MXNet's did
ND_ONLY = frozenset({
    "argmax_channel", "as_in_context", "as_nd_ndarray", "as_np_ndarray", "asnumpy", "asscalar", "astype", "attach_grad",
    "broadcast_axes", "broadcast_like", "cbrt", "context", "copy", "copyto", "ctx", "degrees", "depth_to_space",
    "expand_dims", "handle", "nanprod", "one_hot", "ones_like", "pad", "pick", "radians", "rcbrt", "reshape_like", "rint",
    "shape_array", "size_array", "slice", "slice_assign", "slice_assign_scalar", "slice_axis", "slice_like", "softmin",
    "space_to_depth", "split_v2", "stype", "to_dlpack_for_read", "to_dlpack_for_write", "tostype", "wait_to_read",
    "writable", "zeros_like"})
TENSOR_ONLY = frozenset({"numpy", "cpu", "cuda", "device", "item", "tolist", "requires_grad", "is_cuda"})


def transform(site: Site):
    call = site.original
    if len(call.args) != 2 or any(a.keyword is not None or a.star for a in call.args) \
            or not isinstance(call.args[1].value, cst.SimpleString):
        raise Skip()
    resolved = site.conv.resolve_expr(call.args[0].value)
    attr = ast.literal_eval(call.args[1].value.value)
    if not isinstance(attr, str) or not attr.isidentifier():
        raise Skip()
    if not resolved or not names.is_mxnet(resolved):
        return _value_probe(site, attr)
    if not mx_api.known_parent(resolved):
        raise Skip()  # a namespace the inventory does not list: the value decides
    has = not mx_api.absent(f"{resolved}.{attr}") and not attr.startswith("_")
    site.conv.dropped(site.node)  # the namespace read inside is gone, with its report
    site.conv.retract(call.args[0].value, within=True)  # and so is any rewrite of it (`mx.nd` as a value, MX113)
    site.fixed(f"`hasattr({site.code(call.args[0].value)}, {attr!r})` probes MXNet's API -> `{has}`: MXNet 1.9.1, "
               f"whose semantics the translation gives, {'has' if has else 'lacks'} `{resolved}.{attr}`")
    return cst.Name(str(has))


def _value_probe(site: Site, attr: str):
    """`hasattr(x, 'asnumpy')` on a value that may be a converted array: decided at run time."""
    value = site.original.args[0].value
    if attr not in ND_ONLY | TENSOR_ONLY or site.conv.classify(value) == "np" \
            or isinstance(value, cst.Name) and value.value == "self":
        raise Skip()
    has = attr in ND_ONLY
    site.fixed(f"`hasattr({site.code(value)}, {attr!r})` on a value that may be an array -> `_mx_hasattr(..., {has})`: "
               f"a converted array answers as MXNet's NDArray did ({'has' if has else 'lacks'} `{attr}`), any other value "
               f"for itself")
    return site.emit("{h}({x}, {a}, {b})", h=site.helper("_mx_hasattr"), x=site.node.args[0].value,
                     a=site.node.args[1].value, b=cst.Name(str(has)))
