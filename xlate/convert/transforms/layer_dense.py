"""Gluon Dense -> nn.Linear, or _mx_Dense where Gluon folds trailing axes or activates."""
from xlate.convert import layerinfo
from xlate.convert.layerinfo import Shape
from xlate.convert.rulectx import Manual, Site
from xlate.convert.transforms import layer_args as la


def transform(site: Site):
    la.naming(site)
    if not site.has("units"):
        raise Manual("Dense needs `units`")
    flatten = la.choice(site, "flatten", True, (True, False),
                        "write flatten=True (fold every axis after the first) or flatten=False (last axis only)")
    act = la.activation(site)
    units = site.value("units")
    options = la.passed(site, ("use_bias", "bias")) + la.dtype(site)
    plain = not flatten and act is None
    if not plain:
        options += [("flatten", site.value("flatten"))] if not flatten else []
        options += [("activation", site.value("activation"))] if act is not None else []
    eager_name, lazy_name = ("nn.Linear", "nn.LazyLinear") if plain else ("_mx_Dense", "_mx_LazyDense")

    def eager(size):
        return la.call(site, eager_name, [(None, size), (None, units), *options])

    def lazy():
        return la.call(site, lazy_name, [(None, units), *options])

    inits = {"weight": la.init_fn(site, "weight_initializer"), "bias": la.init_fn(site, "bias_initializer", "zeros")}
    node, deferred = la.eager_or_lazy(site, "in_units", eager, lazy)
    n_out = layerinfo.size(site, "units")

    def out(shape):
        if flatten or (shape is not None and shape.rank2):
            return Shape(n_out, rank2=True)
        return None  # (N, ..., units): axis 1 is units only if the input was (N, C)

    def resolve(shape):
        # flatten=True folds all trailing axes and flatten=False takes the last one: both are
        # axis 1 only for an (N, C) input
        if not shape.rank2 or shape.channels is None:
            return None
        size = layerinfo.as_node(shape.channels)
        if act is None:  # folding an (N, C) input changes nothing: a plain Linear is exact
            ctor = la.call(site, "nn.Linear", [(None, size), (None, units),
                                               *la.passed(site, ("use_bias", "bias")), *la.dtype(site)])
        else:
            ctor = eager(size)
        return la.with_inits(site, ctor, inits)

    return la.record(site, la.with_inits(site, node, inits), out, resolve if deferred else None)
