"""MXNet's operator namespace passed as a value: `self.upsample(F, x)` inside hybrid_forward, or
bound to a name of a function's own, `F = mx.ndarray` (Note [namespace aliases] in collect.py).

The callee's `F` parameter resolves to the same namespace (xlate.convert.names), so its `F.*`
calls are translated where it is defined and it no longer needs the namespace; its parameter
list stays as it is (other callers, in other modules too, pass arguments by position), so the
argument becomes `None`."""
import libcst as cst

from xlate.convert.rulectx import Site
from xlate.convert.transforms.hybrid_forward import keeps_namespace


def _kept_parameter(site: Site) -> bool:
    """A read of hybrid_forward's own F where the class keeps it, being called with other values."""
    conv = site.conv
    if not (isinstance(site.original, cst.Name) and conv.scopes[-1] and conv.scopes[-1][-1][0] == "hybrid_forward"):
        return False
    fn = next((d for d in reversed(conv.defs) if isinstance(d, cst.FunctionDef)), None)
    params = fn.params.params if fn is not None else ()
    return len(params) > 1 and params[1].name.value == site.original.value \
        and keeps_namespace(conv.analysis.gluon_class(conv.scopes[-1]))

# Note [the symbol namespace as a value]
# Gluon code asks which namespace it runs in: `if F is mx.sym: raise ValueError("no hybridization")`
# (gluonts' DeepTPP), `self.F.power if self.F == mx.nd else self.F.pow`. Translated code runs as
# MXNet's imperative mode does, where F is mx.nd. With both namespaces read as the one stand-in
# `_mx_F`, `F is mx.sym` was True and DeepTPP always raised, flagged only as a namespace read. The
# symbol namespace gets a stand-in of its own, `_mx_sym`, so every such test, however the namespace
# flows (an attribute, a return of getF), gives MXNet's imperative answer at run time.


def transform(site: Site):
    if _kept_parameter(site):  # Note [hybrid_forward called with something else than F]
        site.fixed(f"`{site.original.value}` read as a value: hybrid_forward keeps it as its first parameter, which "
                   "the class passes `None` (or another value) itself and `_mx_F` where Gluon passed its namespace")
        return site.node
    if id(site.original) in site.conv.own_reads:  # Note [namespace aliases] in collect.py
        site.fixed(f"`{site.code(site.original)}` read in its own rebinding (`F = getF(x) if F is None else F`) "
                   "stays the parameter: whichever branch runs, the name is MXNet's namespace, whose calls are "
                   "translated where they are made")
        return site.node
    if id(site.original) in site.conv.alias_values:  # `F = mx.ndarray` (Note [namespace aliases])
        site.fixed(f"`{site.code(site.original)}` (MXNet's operator namespace) bound to a name of its own -> `None`: "
                   "the calls made through that name are translated where they are made")
        return site.emit("None")
    if id(site.original) not in site.conv.arguments:
        # returned (`getF(x)`), stored (`self.F = F or getF(x)`), printed: every name xlate resolves
        # to the namespace has its calls translated where they are made; what else reads the value
        # gets a stand-in whose operators raise naming themselves (Note [F left] in hybrid_forward.py)
        if site.matched == "mxnet.symbol":
            # Note [the symbol namespace as a value]: translated code runs as MXNet's imperative mode
            # does, where F is mx.nd, never mx.sym; a stand-in of its own keeps `F is mx.sym` False
            site.review(f"MXNet's symbol namespace `{site.code(site.original)}` used as a value -> `_mx_sym`, which "
                        "no namespace of translated code is (it runs imperatively): `F is mx.sym` is False; its "
                        "operators raise when called")
            return site.emit(site.helper("_mx_sym"))
        site.review(f"MXNet's operator namespace `{site.code(site.original)}` used as a value -> `_mx_F`: the "
                    "calls made through names xlate resolves to it are translated where they are made; an "
                    "operator called through it elsewhere raises, naming itself")
        return site.emit(site.helper("_mx_F"))
    site.fixed(f"`{site.code(site.original)}` (MXNet's operator namespace) passed on -> `None`: the callee's "
               "`F.*` calls are translated where it is defined")
    return site.emit("None")
