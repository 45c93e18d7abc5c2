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


def transform(site: Site):
    call = site.original
    if len(call.args) != 2 or any(a.keyword is not None or a.star for a in call.args) \
            or not isinstance(call.args[1].value, cst.SimpleString):
        raise Skip()
    resolved = site.conv.resolve_expr(call.args[0].value)
    attr = ast.literal_eval(call.args[1].value.value)
    if not resolved or not names.is_mxnet(resolved) or not mx_api.known_parent(resolved) \
            or not isinstance(attr, str) or not attr.isidentifier():
        raise Skip()  # not MXNet's namespace, or one the inventory does not list: the value decides
    has = not mx_api.absent(f"{resolved}.{attr}") and not attr.startswith("_")
    site.conv.dropped(site.node)  # the namespace read inside is gone, with its report
    _unreport(site.conv, call.args[0].value)  # and so is any rewrite of it (`mx.nd` as a value, MX113)
    site.fixed(f"`hasattr({site.code(call.args[0].value)}, {attr!r})` probes MXNet's API -> `{has}`: MXNet 1.9.1, "
               f"whose semantics the translation gives, {'has' if has else 'lacks'} `{resolved}.{attr}`")
    return cst.Name(str(has))


def _unreport(conv, node: cst.CSTNode) -> None:
    inside, stack = set(), [node]
    while stack:
        sub = stack.pop()
        inside.add(id(sub))
        stack.extend(sub.children)
    for i, item in enumerate(conv.found):
        if item is not None and id(item[0]) in inside:
            conv.found[i] = None
