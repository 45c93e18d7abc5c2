"""`seq.add(a, b)` on a Gluon Sequential/Concurrent -> `seq.append(a)` / `seq.extend([a, b])`,
filling deferred input sizes the previous layers determine (Note [deferred input sizes])."""
import libcst as cst

from xlate.convert import layerinfo
from xlate.convert.converter import _shape
from xlate.convert.rulectx import Manual, Site, Skip

CONTAINERS = ("mxnet.gluon.nn.Sequential", "mxnet.gluon.nn.HybridSequential",
              "mxnet.gluon.contrib.nn.HybridConcurrent", "mxnet.gluon.contrib.nn.Concurrent")


def _container(site: Site, made: set) -> bool:
    conv, receiver = site.conv, site.receiver
    site.varargs = [a for a in site.node.args if a.keyword is None and not a.star]
    if made and made <= set(CONTAINERS):
        return True
    if isinstance(receiver, cst.Name) and receiver.value == "self":
        return conv.analysis.gluon_class(conv.scopes[-1]) is not None
    # `anything.add(nn.Dense(...))`: only a Gluon container takes a layer
    return any(layerinfo.lookup(conv, a.value) is not None for a in site.varargs)


def transform(site: Site):
    conv = site.conv
    made = conv.analysis.constructed_by(conv.scopes[-1], _shape(site.original.func.value))
    if not _container(site, made):
        raise Skip()
    site.bind("seq", "*blocks")
    if not site.varargs:
        raise Manual("`add()` with no block")
    concurrent = bool(made & set(CONTAINERS[2:]))
    key = (conv.scopes[-1], site.code(site.receiver))
    stmt = conv.statement_stack[-1] if conv.statement_stack else None
    previous = conv.chains.get(key)
    shape = previous[1] if previous and stmt is not None and previous[0] == conv.line_before.get(id(stmt)) else None
    layers, filled = [], 0
    for arg in site.varargs:
        node, info = arg.value, layerinfo.lookup(conv, arg.value)
        start = None if concurrent else shape  # each branch of a Concurrent sees the container's input
        if info is not None and info.resolve is not None and start is not None:
            eager = info.resolve(start)
            if eager is not None:
                conv.dropped(node)
                node, filled = eager, filled + 1
        shape = info.out(start) if info is not None and not concurrent else None
        layers.append(node)
    if stmt is not None:
        conv.chains[key] = (id(stmt), shape)
    if filled:
        site.fixed(f"`add` -> Sequential `append`/`extend`; {filled} deferred input size(s) taken from the "
                   "previous layer")
    if len(layers) == 1:
        return site.emit("{seq}.append({layer})", seq=site.receiver, layer=layers[0])
    items = cst.List([cst.Element(n) for n in layers])
    return site.emit("{seq}.extend({layers})", seq=site.receiver, layers=items)
