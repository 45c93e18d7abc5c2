"""`seq.add(a, b)` on a Gluon Sequential/Concurrent -> `seq.append(a)` / `seq.extend([a, b])`,
filling deferred input sizes the previous layers determine (Note [deferred input sizes]); on a
receiver that may be a container or not (a parameter, a value from another module or cell),
`_mx_add(x, a, b)` decides at run time."""
import ast

import libcst as cst

from xlate.convert import kinds, layerinfo, unpacking
from xlate.convert.converter import _shape
from xlate.convert.rulectx import Manual, Site, Skip, starred_list

CONTAINERS = ("mxnet.gluon.nn.Sequential", "mxnet.gluon.nn.HybridSequential",
              "mxnet.gluon.contrib.nn.HybridConcurrent", "mxnet.gluon.contrib.nn.Concurrent",
              # their `add` takes one cell; the helpers (MX202) have `append`
              "mxnet.gluon.rnn.SequentialRNNCell", "mxnet.gluon.rnn.HybridSequentialRNNCell")


def _container(site: Site, made: set) -> bool:
    conv, receiver = site.conv, site.receiver
    analysis, key = conv.analysis, conv.scopes[-1]
    site.varargs = [a for a in site.node.args if a.keyword is None and not a.star]
    if made & set(CONTAINERS):  # of what may have made it, only a container has `.add`
        return True
    if isinstance(receiver, cst.Name) and receiver.value == "self":
        return analysis.gluon_class(key) is not None
    if site.code(site.original.func.value) in kinds.proven_containers(analysis, key):
        return True  # the same scope adds a Gluon block to it elsewhere
    receiver_ast = _shape(site.original.func.value, site.conv.shapes)
    if analysis.uses_gluon and kinds.may_be(analysis, key, receiver_ast, CONTAINERS) \
            and not _some_other(site, receiver_ast):
        return True  # one of its bindings is a container, and none is a set or another value with an `add`
    # `anything.add(nn.Dense(...))`: only a Gluon container takes a layer or a block
    return any(layerinfo.lookup(conv, a.value) is not None for a in site.varargs) or any(
        kinds.is_block(kinds.kinds_of(analysis, key, _shape(a.value)))
        for a in site.original.args if a.keyword is None and not a.star)


def _looks_like_a_block(site: Site) -> bool:
    """An argument built by a call that may make a block: a class (CapWords), a callable the
    function was given (`norm_layer(...)`, `block(...)`) or a method (`self._make_layer(...)`)."""
    scope = site.conv.analysis.scopes.get(site.conv.scopes[-1])
    # a parameter, or a name unpacked from a call (`block, n = spec()`): whatever it was given
    params = {n for n, values in (scope.values.items() if scope is not None else ())
              if any(v is None or isinstance(v, unpacking.Element) for v in values)}
    for arg in site.original.args:
        func = arg.value.func if isinstance(arg.value, cst.Call) else None
        root = func
        while isinstance(root, cst.Attribute):
            root = root.value
        if isinstance(func, cst.Name) and (func.value[:1].isupper() or func.value in params):
            return True
        if isinstance(func, cst.Attribute) and isinstance(root, cst.Name) and root.value == "self":
            return True
    return False


# builtins whose instances have an `add` of their own (or none): never a Gluon container
_NOT_CONTAINERS = frozenset("set frozenset dict list Counter defaultdict OrderedDict".split())


def _other(site: Site, value_key, value) -> bool:
    """A literal, a builtin collection or an instance of a class of this file that derives from no
    Gluon class (d2l's Accumulator): never a Gluon container."""
    analysis = site.conv.analysis
    if isinstance(value, (ast.Set, ast.Dict, ast.List, ast.SetComp, ast.DictComp, ast.ListComp, ast.Constant)):
        return value is not None and not (isinstance(value, ast.Constant) and value.value is None)
    func = value.func if isinstance(value, ast.Call) else None
    if isinstance(func, ast.Name) and func.id in _NOT_CONTAINERS and analysis.lookup(value_key, func.id) is None:
        return True
    local = kinds._defined(analysis, value_key, func.id) if isinstance(func, ast.Name) else None
    return local is not None and isinstance(local.node, ast.ClassDef) and kinds.kinds_of_class(analysis, local) is None


def _bindings(site: Site, receiver: ast.expr) -> list:
    """(scope key, value) of each binding of the receiver; a parameter's are what callers pass."""
    return [(k, v) for k, v in kinds._values(site.conv.analysis, site.conv.scopes[-1], receiver)]


def _not_container(site: Site, receiver: ast.expr) -> bool:
    values = _bindings(site, receiver)
    return bool(values) and all(v is not None and _other(site, k, v) for k, v in values)


def _some_other(site: Site, receiver: ast.expr) -> bool:
    return any(v is not None and _other(site, k, v) for k, v in _bindings(site, receiver))


def _maybe_container(site: Site) -> bool:
    """`x.add(...)` in Gluon code where x may be a Gluon container or not: its bindings include a
    container, or what it is given may be blocks (names, elements, attributes, calls of classes
    or of the function's callables); positional arguments only, as Gluon's `add` takes."""
    conv, receiver = site.conv, _shape(site.original.func.value, site.conv.shapes)
    args = site.original.args
    if not conv.analysis.uses_gluon or not args or any(a.keyword is not None for a in args):
        return False
    if _not_container(site, receiver):
        return False
    if kinds.may_be(conv.analysis, conv.scopes[-1], receiver, CONTAINERS) or _looks_like_a_block(site):
        return True
    return all(a.star == "*" or _may_be_block(a.value) for a in args)


# attributes an array has that are numbers or tuples, never blocks (`metric.add(l, y.shape[0], y.size)`)
_NUMBERS = frozenset("shape size ndim dtype".split())


def _may_be_block(value: cst.BaseExpression) -> bool:
    """A name, an attribute or an element, unless it reads an array's size (d2l's Accumulator
    is given those)."""
    if isinstance(value, cst.Subscript):
        return _may_be_block(value.value)
    if isinstance(value, cst.Attribute):
        return value.attr.value not in _NUMBERS
    return isinstance(value, cst.Name)


def _defines_add(analysis, key, node: ast.ClassDef, depth: int = 0) -> bool:
    """A class of this file that defines `add` itself or through a base class of this file."""
    if any(isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "add" for s in node.body):
        return True
    for base in node.bases:
        local = kinds._defined(analysis, key, base.id) if isinstance(base, ast.Name) and depth < 8 else None
        if local is not None and isinstance(local.node, ast.ClassDef) and _defines_add(analysis, key, local.node,
                                                                                        depth + 1):
            return True
    return False


def _own_add(site: Site) -> str:
    """'all' when the receiver is only ever an instance of a class of this file with its own `add`
    (d2l's `class MySequential(nn.Block): def add(self, block)`), 'some' when only some of its
    bindings are, '' otherwise: that `add` is the user's method, never Gluon's container's."""
    analysis, key = site.conv.analysis, site.conv.scopes[-1]
    receiver = site.original.func.value
    if isinstance(receiver, cst.Name) and receiver.value == "self":
        scope = analysis.scopes.get(key)
        while scope is not None and not scope.is_class:
            scope = scope.parent
        return "all" if scope is not None and _defines_add(analysis, key, scope.node) else ""
    own = []
    for k, v in _bindings(site, _shape(receiver, site.conv.shapes)):
        func = v.func if isinstance(v, ast.Call) else None
        local = kinds._defined(analysis, k, func.id) if isinstance(func, ast.Name) else None
        own.append(local is not None and isinstance(local.node, ast.ClassDef) and _defines_add(analysis, k, local.node))
    return "all" if own and all(own) else "some" if any(own) else ""


def _at_run_time(site: Site):
    what = site.code(site.receiver).strip()
    site.fixed(f"could not tell whether `{what[:40]}` is a Gluon container: `_mx_add({what[:20]}, ...)` decides at run "
               "time (a converted Sequential appends each block, anything else calls its own `add`)")
    call = site.emit("_mx_add({x})", x=site.receiver)
    space = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    args = [a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in site.node.args]
    return call.with_changes(args=[call.args[0].with_changes(comma=space), *args])


def transform(site: Site):
    conv = site.conv
    own = _own_add(site)
    if own == "all":
        raise Skip()
    if own == "some":
        return _at_run_time(site)
    made = conv.analysis.constructed_by(conv.scopes[-1], _shape(site.original.func.value))
    if not _container(site, made):
        if _maybe_container(site):
            return _at_run_time(site)
        raise Skip()
    site.bind("seq", "*blocks")
    if not site.varargs:
        raise Manual("`add()` with no block")
    concurrent = bool(made & set(CONTAINERS[2:4]))
    key = (conv.scopes[-1], site.code(site.receiver))
    stmt = conv.statement_stack[-1] if conv.statement_stack else None
    previous = conv.chains.get(key)
    shape = previous[1] if previous and stmt is not None and previous[0] == conv.line_before.get(id(stmt)) else None
    layers, filled = [], 0
    for arg in site.varargs:
        if arg.star:  # `seq.add(*blocks)`: any number of blocks, sizes unknown from here on
            layers.append(cst.StarredElement(arg.value))
            shape = None
            continue
        node, info = arg.value, layerinfo.lookup(conv, arg.value)
        start = None if concurrent else shape  # each branch of a Concurrent sees the container's input
        if info is not None and info.resolve is not None and start is not None:
            eager = info.resolve(start)
            if eager is not None:
                conv.replaced(node, eager)
                node, filled = eager, filled + 1
        shape = info.out(start) if info is not None and not concurrent else None
        layers.append(node)
    if stmt is not None:
        conv.chains[key] = (id(stmt), shape)
    if filled:
        site.fixed(f"`add` -> Sequential `append`/`extend`; {filled} deferred input size(s) taken from the "
                   "previous layer")
    if len(layers) == 1 and not isinstance(layers[0], cst.StarredElement):
        call = site.emit("{seq}.append({layer})", seq=site.receiver, layer=layers[0])
        return _laid_out(call, site.node)
    items = _as_written(site.node, layers) or \
        starred_list([n if isinstance(n, cst.StarredElement) else cst.Element(n) for n in layers])
    return site.emit("{seq}.extend({layers})", seq=site.receiver, layers=items)


def _laid_out(new, call: cst.Call):
    """`seq.append(x)` with the line breaks `seq.add(` had around its argument (`add(\n    Block(`
    stays so, and the lines under it keep their place)."""
    inner = new
    while isinstance(inner, cst.Call) is False and hasattr(inner, "expression"):
        inner = inner.expression
    if not isinstance(inner, cst.Call) or len(inner.args) != 1 or len(call.args) != 1:
        return new
    laid = inner.with_changes(whitespace_before_args=call.whitespace_before_args,
                              args=[inner.args[0].with_changes(whitespace_after_arg=call.args[0].whitespace_after_arg)])
    return laid if inner is new else new.deep_replace(inner, laid)


def _as_written(call: cst.Call, layers: list):
    """The list of `layers` laid out as the call's arguments were (one a line stays one a line,
    each comment where it was); None when they are not one layer an argument."""
    args = call.args
    if len(args) != len(layers) or any(a.star or a.keyword or isinstance(n, cst.StarredElement)
                                       for a, n in zip(args, layers)):
        return None
    elements = [cst.Element(n, comma=a.comma) for a, n in zip(args, layers)]
    return cst.List(elements, lbracket=cst.LeftSquareBracket(whitespace_after=call.whitespace_before_args),
                    rbracket=cst.RightSquareBracket(whitespace_before=args[-1].whitespace_after_arg))
