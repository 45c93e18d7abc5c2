"""`nn.Lambda(fn)` / `nn.HybridLambda(fn)` -> `_mx_Lambda(fn)` (torch has no Lambda module).

A HybridLambda's function takes MXNet's operator namespace F first (Gluon calls it with
`mx.nd`): a lambda's `F.op` calls go through the NDArray rules (names.py binds its F like
hybrid_forward's) and the lambda loses F; a named function keeps its signature (its `F.*` are
translated where it is defined) and is called with F as None, as MX113 passes F on. An
operator's name (`HybridLambda('tanh')`, `Lambda('relu')`) is Gluon's `getattr(nd, name)`: the
catalogue's translation of `nd.<name>(x)`."""
import functools

import libcst as cst

from xlate.convert.rulectx import Manual, Site

# elementwise operators Gluon accepts by name, as torch functions
_BY_NAME = {"relu": "torch.relu", "sigmoid": "torch.sigmoid", "tanh": "torch.tanh", "exp": "torch.exp",
            "log": "torch.log", "abs": "torch.abs", "sqrt": "torch.sqrt", "square": "torch.square",
            "negative": "torch.neg", "softsign": "torch.nn.functional.softsign", "erf": "torch.erf"}


@functools.lru_cache(maxsize=None)
def _operator(name: str):
    """`nd.<name>(x)` as the catalogue translates it (None: it does not, or not exactly)."""
    from xlate.convert.engine import convert_source  # the engine runs the rules: imported late
    if not name.isidentifier():
        return None
    result = convert_source(f"from mxnet import nd\n_y = nd.{name}(x)\n")
    line = result.output.rstrip("\n").rsplit("\n", 1)[-1]
    if any(d.status != "fixed" for d in result.diagnostics) or not line.startswith("_y = ") or "nd." in line:
        return None
    return line[len("_y = "):]


def _reads(node: cst.CSTNode, name: str) -> bool:
    return any(isinstance(n, cst.Name) and n.value == name for n in _names(node))


def _names(node):
    yield node
    for child in node.children:
        yield from _names(child)


def transform(site: Site):
    fn = site.value("function")
    hybrid = site.matched.endswith("HybridLambda")
    name = site.literal("function")
    if isinstance(name, str):
        if name in _BY_NAME:
            return site.emit("_mx_Lambda({fn})", fn=_BY_NAME[name])
        expr = _operator(name)
        if expr is None:
            raise Manual(f"operator name {name!r}: pass the PyTorch function to `_mx_Lambda` by hand")
        return site.emit(f"_mx_Lambda(lambda x: {expr})")
    if fn is None:
        raise Manual("no function given")
    if not hybrid:
        return site.emit("_mx_Lambda({fn})", fn=fn)
    if isinstance(fn, cst.Lambda):
        params = fn.params
        if params.posonly_params or not params.params:
            raise Manual("a HybridLambda function takes `F` first")
        namespace = params.params[0].name.value
        if _reads(fn.body, namespace):
            raise Manual(f"`{namespace}` is still used in the lambda by code left to translate: translate that "
                         f"first, then drop its `{namespace}` parameter and wrap it in `_mx_Lambda`")
        rest = list(params.params[1:])
        if rest and not (params.star_arg or params.kwonly_params or params.star_kwarg):
            rest[-1] = rest[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        site.fixed(f"`HybridLambda(lambda {namespace}, ...)` -> `_mx_Lambda(lambda ...)`: "
                   f"its `{namespace}.*` translated, `{namespace}` dropped")
        return site.emit("_mx_Lambda({fn})", fn=fn.with_changes(params=params.with_changes(params=rest)))
    site.fixed("`HybridLambda(f)` -> `_mx_Lambda(lambda *args: f(None, *args))`: f's `F.*` are translated "
               "where it is defined, and F is passed on as None (MX113)")
    return site.emit("_mx_Lambda(lambda *args: {fn}(None, *args))", fn=fn)
