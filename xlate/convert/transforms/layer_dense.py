"""Gluon Dense -> nn.Linear where that is exact (flatten=False without activation, or an
(N, C) input), else `_mx_Dense` with the call's own arguments (Note [Gluon-signature modules])."""
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
    n_out = layerinfo.size(site, "units")
    deferred = la.in_size(site, "in_units") == 0

    def out(shape):
        if flatten or (shape is not None and shape.rank2):
            return Shape(n_out, rank2=True)
        return None  # (N, ..., units): axis 1 is units only if the input was (N, C)

    if not flatten and act is None:  # torch's Linear acts on the last axis too
        options = la.passed(site, ("use_bias", "bias")) + la.dtype(site)
        inits = {"weight": la.init_fn(site, "weight_initializer"),
                 "bias": la.init_fn(site, "bias_initializer", "zeros")}

        def linear(size):
            return la.call(site, "nn.Linear", [(None, size), (None, units), *options])

        def resolve_linear(shape):  # the last axis is axis 1 only for an (N, C) input
            if not shape.rank2 or shape.channels is None:
                return None
            return la.with_inits(site, linear(layerinfo.as_node(shape.channels)), inits)

        node, _ = la.eager_or_lazy(site, "in_units", linear,
                                   lambda: la.call(site, "nn.LazyLinear", [(None, units), *options]))
        return la.record(site, la.with_inits(site, node, inits), out, resolve_linear if deferred else None)

    def resolve(shape):
        # flatten=True folds all trailing axes and flatten=False takes the last one: both are
        # axis 1 only for an (N, C) input
        if not shape.rank2 or shape.channels is None:
            return None
        size = layerinfo.as_node(shape.channels)
        if act is None:  # folding an (N, C) input changes nothing: a plain Linear is exact
            try:
                inits = {"weight": la.init_fn(site, "weight_initializer"),
                         "bias": la.init_fn(site, "bias_initializer", "zeros")}
                ctor = la.call(site, "nn.Linear", [(None, size), (None, units),
                                                   *la.passed(site, ("use_bias", "bias")), *la.dtype(site)])
                return la.with_inits(site, ctor, inits)
            except Manual:
                pass
        return site.verbatim(in_units=size)

    la.named_inits(site, "weight_initializer", "bias_initializer")
    return la.record(site, site.verbatim(), out, resolve if deferred else None)
