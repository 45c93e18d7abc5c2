"""Gluon activation layers -> the torch.nn activation module (one module each)."""
from xlate.convert.layerinfo import keeps
from xlate.convert.rulectx import NOT_LITERAL, Manual, Site
from xlate.convert.transforms import layer_args as la


def transform(site: Site):
    la.naming(site)
    name = site.matched.rsplit(".", 1)[1]
    return la.record(site, _BUILD[name](site), keeps)


def _activation(site: Site):
    if not site.has("activation"):
        raise Manual("Activation needs its activation name")
    act = la.choice(site, "activation", None, tuple(la.ACTIVATIONS),
                    f"write one of {', '.join(map(repr, la.ACTIVATIONS))} so xlate can pick the torch module")
    return site.emit(la.ACTIVATIONS[act])


def _leaky_relu(site: Site):
    if not site.has("alpha"):  # required in Gluon; torch's default slope 0.01 would be a guess
        raise Manual("LeakyReLU needs `alpha` (Gluon has no default)")
    return la.call(site, "nn.LeakyReLU", [(None, site.value("alpha"))])


def _prelu(site: Site):
    args = [(None, site.value("in_channels"))] if site.has("in_channels") else []
    module = la.call(site, "nn.PReLU", args)
    return la.with_inits(site, module, {"weight": la.init_fn(site, "alpha_initializer")})


def _elu(site: Site):
    return la.call(site, "nn.ELU", [(None, site.value("alpha"))] if site.has("alpha") else [])


def _selu(site: Site):
    site.review("nn.SELU() computes MXNet's forward exactly; MXNet 1.9.1's SELU gradient for x < 0 is wrong "
                "(layers.md 6.8), so training curves differ where inputs go negative")
    return site.emit("nn.SELU()")


def _swish(site: Site):
    beta = site.literal("beta", 1.0)
    if beta == 1 and beta is not NOT_LITERAL and not isinstance(beta, bool):
        return site.emit("nn.SiLU()")
    return site.verbatim()


_BUILD = {
    "Activation": _activation, "LeakyReLU": _leaky_relu, "PReLU": _prelu, "ELU": _elu,
    "SELU": _selu, "GELU": lambda site: site.emit("nn.GELU()"), "Swish": _swish,
}
