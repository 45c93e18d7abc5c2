"""`nn.Lambda(fn)` / `nn.HybridLambda(fn)` -> `_mx_Lambda(fn)` (torch has no Lambda module).

A HybridLambda's function takes MXNet's operator namespace F first (Gluon calls it with
`mx.nd`): a lambda's `F.op` calls go through the NDArray rules (names.py binds its F like
hybrid_forward's) and the lambda loses F; a named function keeps its signature (its `F.*` are
translated where it is defined) and is called with F as None, as MX113 passes F on. An
operator's name (`HybridLambda('tanh')`, `Lambda('relu')`) is Gluon's `getattr(nd, name)`: the
catalogue's translation of `nd.<name>(x)`."""
import ast
import functools

import libcst as cst

from xlate.convert.namespace_getattr import operator_table, translated
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


def _maybe_a_name(conv, fn: cst.BaseExpression) -> bool:
    """`fn` is a parameter, an attribute or another value xlate cannot tell from a function: it may hold a
    string (`HybridLambda(self._act)`). A def or a lambda of the file, or a lambda written there, is a function."""
    head = fn
    while isinstance(head, cst.Attribute):
        head = head.value
    if not isinstance(head, cst.Name):
        return False
    scope = conv.analysis.home(conv.scopes[-1], head.value)
    if head is not fn:  # `self._act` may hold a name; `np.tanh`, a module's function, is a function
        return head.value == "self" or scope is None or head.value not in scope.imports
    if scope is None or fn.value in scope.imports:
        return False  # a builtin or an imported name: a function
    if any(k[:-1] == scope.key and k[-1][0] == fn.value and isinstance(s.node, (ast.FunctionDef, ast.AsyncFunctionDef))
           for k, s in conv.analysis.scopes.items() if k):
        return False  # a def of the file
    values = scope.values.get(fn.value) or [None]
    return not all(isinstance(v, ast.Lambda) for v in values)  # a parameter (None), or any other value


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
        function, why = translated(site.conv, site.original, name) if name.isidentifier() \
            else (None, "no operator has that name")
        one_input = _one_input(name) if function is None and name.isidentifier() else None
        if one_input is not None:
            # an operator of several parameters without its signature as a value (`softmax(data, axis=-1)`):
            # a Lambda block of one input calls it on that input alone, with MXNet's defaults; a call with more
            # inputs raises TypeError at the lambda, never computes something else
            site.fixed(f"`{site.matched.rsplit('.', 1)[-1]}({name!r})` -> `_mx_Lambda(lambda x: ...)`: MXNet's {name} "
                       f"on the block's one input, with its defaults")
            return site.emit(f"_mx_Lambda(lambda x: {one_input})")
        if function is None:
            raise Manual(f"operator name {name!r}: {why}; pass the PyTorch function to `_mx_Lambda` by hand")
        site.fixed(f"`{site.matched.rsplit('.', 1)[-1]}({name!r})` -> `_mx_Lambda(<MXNet's {name}>)`, "
                   f"the operator as its calls' rule translates it")
        return site.emit("_mx_Lambda({fn})", fn=function)
    if fn is None:
        raise Manual("no function given")
    if _maybe_a_name(site.conv, fn):  # Note [operators by name]: a string here is an operator's name
        table = operator_table(site.conv, site.original)
        known = ", ".join(site.code(e.key) for e in table.elements) or "none"
        site.review(f"`{site.matched.rsplit('.', 1)[-1]}({site.code(fn)})`: a function, or an operator's name known "
                    f"at run time -> `_mx_lambda_function(...)`: a name picks from the operators this file names in "
                    f"its strings ({known}), any other raises naming itself"
                    + ("; a function is called with F as None (MX113)" if hybrid else ""))
        return site.emit("_mx_Lambda({h}({fn}, {table}, hybrid={hybrid}))", h=site.helper("_mx_lambda_function"),
                         fn=fn, table=table, hybrid=cst.Name(str(hybrid)))
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
