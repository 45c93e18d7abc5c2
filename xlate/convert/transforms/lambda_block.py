"""`nn.Lambda(fn)` / `nn.HybridLambda(fn)` -> `_mx_Lambda(fn)` (torch has no Lambda module).

A HybridLambda's function takes MXNet's operator namespace F first (Gluon calls it with
`mx.nd`): a lambda's `F.op` calls go through the NDArray rules (names.py binds its F like
hybrid_forward's) and the lambda loses F; a named function keeps its signature (its `F.*` are
translated where it is defined) and is called with F as None, as MX113 passes F on. An
operator's name (`HybridLambda('tanh')`, `Lambda('relu')`) is Gluon's `getattr(nd, name)`: the
catalogue's translation of `nd.<name>(x)`."""
import functools

import libcst as cst

from xlate.convert.namespace_getattr import translated
from xlate.convert.rulectx import Manual, Site

@functools.lru_cache(maxsize=None)
def _one_input(name: str):
    """`nd.<name>(x)` as the catalogue translates it (None: it does not, or not exactly)."""
    from xlate.convert.engine import convert_source  # the engine runs the rules: imported late
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
    if isinstance(name, str):  # Note [operators by name]: the operator as a value, with its own parameters
        function, why = translated(site.conv, site.original, "mxnet.ndarray", name) if name.isidentifier() \
            else (None, "no operator has that name")
        if function is None and name.isidentifier() and _one_input(name) is not None:
            # an operator of several parameters without its signature as a value (`softmax(data, axis=-1)`):
            # a Lambda block of one input calls it on that input alone, with MXNet's defaults; a call with more
            # inputs raises TypeError at the lambda, never computes something else
            site.fixed(f"`{site.matched.rsplit('.', 1)[-1]}({name!r})` -> `_mx_Lambda(lambda x: ...)`: MXNet's {name} "
                       f"on the block's one input, with its defaults")
            return site.emit(f"_mx_Lambda(lambda x: {_one_input(name)})")
        if function is None:
            raise Manual(f"operator name {name!r}: {why}; pass the PyTorch function to `_mx_Lambda` by hand")
        site.fixed(f"`{site.matched.rsplit('.', 1)[-1]}({name!r})` -> `_mx_Lambda(<MXNet's {name}>)`, "
                   f"the operator as its calls' rule translates it")
        return site.emit("_mx_Lambda({fn})", fn=function)
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
