"""`super().__init__(prefix=..., params=..., **kwargs)` in a Gluon block -> `super().__init__()`."""
import libcst as cst

from xlate.convert.rulectx import Manual, Site, Skip

# Gluon classes whose __init__ takes only naming arguments (prefix, params)
NAMING_ONLY = ("mxnet.gluon.Block", "mxnet.gluon.HybridBlock", "mxnet.gluon.SymbolBlock",
               "mxnet.gluon.nn.Sequential", "mxnet.gluon.nn.HybridSequential")


def _is_super(node) -> bool:
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "super"


def transform(site: Site):
    call = site.node
    cls = site.conv.analysis.gluon_class(site.conv.scopes[-1])
    if not _is_super(site.receiver) or cls is None or not cls.mx_bases or not call.args:
        raise Skip()  # a base class of this file takes its own arguments; nothing to drop
    others = [b for b in cls.mx_bases if b not in NAMING_ONLY]
    layers = [b for b in others if b in site.conv.rules.classes]  # Gluon-signature helpers
    if layers and len(layers) == len(others):
        raise Skip()  # `_mx_BatchNorm` & co. take Gluon's own arguments: the call stays as it is
    if others:
        raise Manual(f"a subclass of `{others[0]}`: map its constructor arguments to the PyTorch layer by hand")
    dropped = ", ".join(site.code(a).strip().rstrip(",") for a in call.args)
    for a in call.args:
        site.conv.dropped(a)
    site.fixed(f"dropped `{dropped}`: Gluon's prefix/params naming has no nn.Module counterpart "
               "(torch names parameters by attribute path)")
    return call.with_changes(args=())
