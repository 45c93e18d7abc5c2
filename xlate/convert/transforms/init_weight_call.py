"""`init._init_weight(name, arr)` -> `_mx_init_weight(init, name, arr)` (Note [custom initializers]
in xlate/runtime/init.py): a translated built-in initializer is a function of the tensor."""
import libcst as cst

from xlate.convert.rulectx import Site, Skip


def _own(node) -> bool:
    """`self` or `super()` / `super(Cls, self)`: a custom initializer calling its own method."""
    if isinstance(node, cst.Name):
        return node.value == "self"
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "super"


def transform(site: Site):
    init = site.value("init")
    if init is None or _own(init):
        raise Skip()
    return site.emit("_mx_init_weight({init}, {name}, {arr})", init=init, name=site.value("name"),
                     arr=site.value("arr"))
