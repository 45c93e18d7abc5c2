"""Gluon Conv{1,2,3}D[Transpose] -> nn.Conv{n}d / nn.ConvTranspose{n}d (Lazy when deferred);
with `activation=`, `_mx_Conv2D` & co. with the call's own arguments (Note [Gluon-signature
modules])."""
from xlate.convert import layerinfo
from xlate.convert.layerinfo import Shape
from xlate.convert.rulectx import Manual, Site
from xlate.convert.transforms import layer_args as la

_LAYOUTS = {1: "NCW", 2: "NCHW", 3: "NCDHW"}


def transform(site: Site):
    la.naming(site)
    name = site.matched.rsplit(".", 1)[1]  # Conv2D, Conv2DTranspose, ...
    dims, transpose = int(name[4]), name.endswith("Transpose")
    if not (site.has("channels") and site.has("kernel_size")):
        raise Manual(f"{name} needs `channels` and `kernel_size`")
    la.layout(site, _LAYOUTS[dims])
    act = la.activation(site)
    n_out = layerinfo.size(site, "channels")
    deferred = la.in_size(site, "in_channels") == 0
    if act is not None:
        la.named_inits(site, "weight_initializer", "bias_initializer")

        def resolve_helper(shape):
            if shape.rank2 or shape.channels is None:  # an (N, C) input is no image
                return None
            return site.verbatim(in_channels=layerinfo.as_node(shape.channels))

        return la.record(site, site.verbatim(), lambda shape: Shape(n_out), resolve_helper if deferred else None)
    torch_name = f"Conv{'Transpose' if transpose else ''}{dims}d"
    # strides and padding mean the same in both, per axis or one for all; so does
    # output_padding (MXNet's adj), which torch needs too (layers.md 2.4)
    options = la.passed(site, ("strides", "stride"), ("padding", "padding"), ("output_padding", "output_padding"),
                        ("dilation", "dilation"), ("groups", "groups"), ("use_bias", "bias"))
    channels, kernel = site.value("channels"), site.value("kernel_size")

    def eager(size):
        return la.call(site, f"nn.{torch_name}", [(None, size), (None, channels), (None, kernel), *options])

    def lazy():
        return la.call(site, f"nn.Lazy{torch_name}", [(None, channels), (None, kernel), *options])

    inits = {"weight": la.init_fn(site, "weight_initializer"), "bias": la.init_fn(site, "bias_initializer", "zeros")}
    node, deferred = la.eager_or_lazy(site, "in_channels", eager, lazy)

    def resolve(shape):
        if shape.rank2 or shape.channels is None:  # an (N, C) input is no image
            return None
        return la.with_inits(site, eager(layerinfo.as_node(shape.channels)), inits)

    return la.record(site, la.with_inits(site, node, inits), lambda shape: Shape(n_out),
                     resolve if deferred else None)
