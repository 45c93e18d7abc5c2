"""`pos = ct > 0` where xlate could not type either side (MX542) -> `_mx_compare(ct, ">", 0)`.

Note [comparisons of untyped values]
MXNet compares NDArrays to 0 and 1 in their dtype; torch compares tensors to bool. A comparison
of a proven NDArray is made float where it stands (MX540). One of values xlate cannot type (a loop
variable over a list of arrays, as in GluonCV's SSD loss `for ct in cls_targets: pos = ct > 0`,
then `pos - 1`) was left, and the bool tensor raised at the first arithmetic, with nothing reported
at its line. Such a comparison goes to `_mx_compare`, which gives MXNet's 0/1 for a tensor and any
other result (Python's bool, NumPy's) as it is, wherever its value is kept. Left, with no helper:
- a truth value (the test of `if`, `while`, `assert`, a conditional expression or a comprehension,
  an operand of `not`, of an `and`/`or` that is itself one): bool() of 0/1 and of a bool agree;
- an index (`x[ct > 0]`) is no such value: an NDArray comparison's 0/1 are positions there in
  MXNet 1.x, so it goes to `_mx_index(_mx_compare(...))`, for review (Note [a comparison as an
  index] in compare_dtype.py); a NumPy comparison stays a mask;
- a side that is no array (a string, None, a tuple, a list, a bool) or two sides that are numbers
  or shapes (`len(x) > 1`, `x.shape[0] == n`, `x.ndim > 2`);
- a module of MXNet's numpy dialect, whose comparisons give bool as torch's do;
- a comparison in code that shows no sign of handling MXNet arrays (handles_arrays), unless the
  comparison itself is computed with as an array: the receiver of a method (`(x != 0).mean()`), an
  operand of arithmetic (`(x > 0) * y`), or assigned to a name the scope computes with so
  (`pos = x > 0` then `pos - 1`, `pos + pos`): a helper `def f(x): pos = x > 0; return pos - 1`
  names no MXNet operator, and torch's bool raised at `pos - 1` (or `pos + pos` was a logical or);
- the receiver of a chain that ends in an MXNet-only method (`(pred == label).mean().asscalar()`),
  and an array argument of an MXNet operator (`nd.where(loss > rho, ...)`), which prove the
  comparison MXNet's: MX540 makes it float there (compare_dtype.in_chain, handed_to_operator).
The report does not count towards the convert rate: most of these are comparisons of numbers.
"""
import ast

import libcst as cst

from xlate.convert.collect import ARRAY_ONLY
from xlate.convert.kinds import ast_dotted
from xlate.convert.rulectx import Site, Skip
from xlate.convert.transforms.compare_dtype import ARRAY_PARAMETERS, FROM_VALUES, NUMERIC

_NOT_ARRAYS = (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString, cst.Tuple, cst.List, cst.Dict,
               cst.Set, cst.ListComp, cst.SetComp, cst.DictComp, cst.Lambda)
_SIZES = frozenset(("ndim", "size", "shape"))  # ints (a tuple of them) on NDArrays, NumPy and torch alike
_SCALAR_MODULES = frozenset(("random", "math", "time", "os", "sys", "re", "string"))
_SCALAR_CALLS = frozenset(("int", "float", "len", "round", "abs", "min", "max", "bool", "isinstance", "hasattr"))


def transform(site: Site):
    conv, original = site.conv, site.original
    sides = (original.left, original.comparisons[0].comparator)
    if conv.analysis.array_kind == "mxnp" or any(_no_array(s) or _mxnet_name(conv, s) for s in sides) \
            or all(_scalar(conv, s) for s in sides):
        raise Skip()
    op = site.matched[len("(untyped)"):]
    typed = {conv.classify(s) for s in sides} - {None}  # an NDArray's is MX540's; NumPy's, torch's, mx.np's stay
    if id(original) in conv.index_masks and handles_arrays(conv) and not typed:
        # Note [a comparison as an index]: an NDArray's reads positions in MXNet 1.x, anything else masks
        site.review(f"`x[a {op} b]` on values xlate could not type -> `x[_mx_index(_mx_compare(a, \"{op}\", b))]`: "
                    "MXNet 1.x reads an NDArray comparison's 0/1 as positions, not as a mask (a read gathers rows 0 "
                    "and 1), and so does the translation for a tensor; a NumPy comparison stays a mask. If a mask was "
                    "meant, write `x[a > b]` on the torch side")
        return site.emit(f'_mx_index(_mx_compare({{a}}, "{op}", {{b}}))', a=site.value("lhs"), b=site.value("rhs"))
    if id(original) in conv.kept_bool:
        raise Skip()
    if not handles_arrays(conv) and id(original) not in conv.array_compares:
        raise Skip()
    if typed:
        raise Skip()
    site.fixed(f"`a {op} b` on values xlate could not type -> `_mx_compare(a, \"{op}\", b)`, decided at run time: "
               "tensors (MXNet arrays, converted) compare to 0/1 in their dtype as in MXNet, other values as before")
    return site.emit(f'_mx_compare({{a}}, "{op}", {{b}})', a=site.value("lhs"), b=site.value("rhs"))


def _no_array(node: cst.BaseExpression) -> bool:
    """A side no array comparison has: a string, a display, None, True or False."""
    return isinstance(node, _NOT_ARRAYS) or isinstance(node, cst.Name) and node.value in ("None", "True", "False")


def _mxnet_name(conv, node: cst.BaseExpression) -> bool:
    """A side that names something of MXNet's, not called (`fn == mx.cpu`): a function, class or
    module, compared as a value; no MXNet module holds an array."""
    return isinstance(node, (cst.Name, cst.Attribute)) and (conv.resolve_expr(node) or "").startswith(
        ("mxnet.", "gluonnlp."))


def _scalar(conv, node: cst.BaseExpression) -> bool:
    """A Python number or size for sure: a number (names.Analysis.number), `x.ndim`, `x.shape[i]`,
    `len(...)`, `int(...)`."""
    if conv.is_number(node):
        return True
    while isinstance(node, cst.Subscript):
        node = node.value
    if isinstance(node, cst.Attribute) and node.attr.value in _SIZES:
        return True
    if isinstance(node, cst.UnaryOperation):
        return _scalar(conv, node.expression)
    if isinstance(node, cst.BinaryOperation):
        return _scalar(conv, node.left) and _scalar(conv, node.right)
    if not isinstance(node, cst.Call):
        return False
    if isinstance(node.func, cst.Name) and node.func.value in _SCALAR_CALLS:
        return True
    resolved = conv.resolve_expr(node.func) or ""
    return resolved.partition(".")[0] in _SCALAR_MODULES  # `random.random()`, `time.time()`


# an MXNet name of these makes a scope one that handles arrays
_ARRAY_MODULES = ("mxnet.ndarray.", "mxnet.symbol.", "mxnet.numpy.", "mxnet.numpy_extension.", "mxnet.autograd.",
                  "mxnet.contrib.ndarray.", "mxnet.contrib.symbol.")


def handles_arrays(conv) -> bool:
    """The scope being converted handles MXNet arrays: it names an array operator (`nd.*`, `F.*`, autograd),
    calls an MXNet-only array method (`.asnumpy()`), or is a Gluon block's `forward`/`hybrid_forward`. A
    comparison elsewhere (a layer's `__init__` comparing strides, a NumPy metric) is left as written."""
    key = conv.scopes[-1]
    cache = conv.array_scopes
    if key not in cache:
        cache[key] = evidence(conv.analysis, key)
    return cache[key]


def evidence(analysis, key) -> bool:
    scope = analysis.scopes.get(key)
    if scope is None:
        return True  # nothing known of it: the helper decides
    if scope.mx_params:
        return True
    node = scope.node
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in ("forward", "hybrid_forward") \
            and scope.parent is not None and scope.parent.is_class and scope.parent.gluon:
        return True
    body = node.body if node is not None else analysis.tree.body
    stack = list(body)
    while stack:
        item = stack.pop()
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue  # a scope of its own
        if isinstance(item, ast.Attribute):
            if item.attr in ARRAY_ONLY and not _module_function(analysis, key, item.value):
                return True  # `x.asnumpy()`; NumPy's own `np.asscalar(...)` proves nothing
            dotted = ast_dotted(item)
            if dotted is not None and (analysis.resolve(key, dotted) or "").startswith(_ARRAY_MODULES):
                return True
        stack.extend(ast.iter_child_nodes(item))
    return False


def _module_function(analysis, key, receiver: ast.expr) -> bool:
    """`receiver` names a module other than MXNet's (`np` in `np.asscalar`): its attribute is a function."""
    dotted = ast_dotted(receiver)
    resolved = analysis.resolve(key, dotted) if dotted is not None else None
    return isinstance(resolved, str) and not resolved.startswith("mxnet") and dotted in _imported(analysis, key)


def _imported(analysis, key) -> set:
    names, scope = set(), analysis.scopes.get(key)
    while scope is not None:
        names.update(scope.imports)
        scope = scope.parent
    return names


# -- truth values --------------------------------------------------------------------------------
def note_truth_value(conv, test: cst.BaseExpression) -> None:
    """`test` is read only for its truth (an if's test): so are the comparisons it is made of."""
    while True:
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            test = test.expression
            continue
        if isinstance(test, cst.BooleanOperation):
            note_truth_value(conv, test.left)
            test = test.right
            continue
        break
    if isinstance(test, cst.Comparison):
        conv.kept_bool.add(id(test))


def note_proven(conv, call: cst.Call) -> None:
    """`(pred == label).mean().asscalar()`, `nd.where(loss > rho, ...)`: the comparison an MXNet-only
    method's chain reduces, or an MXNet operator is handed as an array, is left to that rule
    (compare_dtype.in_chain, handed_to_operator), which proves it an NDArray's."""
    resolved = conv.resolve_expr(call.func) or ""
    if resolved.startswith("mxnet.ndarray.") and resolved.rsplit(".", 1)[-1] not in FROM_VALUES:
        conv.kept_bool.update(id(a.value) for a in call.args if isinstance(a.value, cst.Comparison) and (
            a.keyword is None or a.keyword.value in ARRAY_PARAMETERS))
    elif resolved.startswith("numpy."):  # `np.where(x > 0)`, `np.sum(p * (t > 0))`: NumPy's arrays
        for a in call.args:
            _note_within(conv, a.value)
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value in ("all", "any"):
        _note_within(conv, func.value)  # `(a <= b).all()`: NumPy's or torch's truth; NDArrays have neither
    if not (isinstance(func, cst.Attribute) and func.attr.value in conv.rules.chain_methods):
        return
    receiver = func.value
    while isinstance(receiver, cst.Call) and isinstance(receiver.func, cst.Attribute) \
            and receiver.func.attr.value in NUMERIC:
        receiver = receiver.func.value
    if isinstance(receiver, cst.Comparison) and receiver.lpar:
        conv.kept_bool.add(id(receiver))


def _note_within(conv, value: cst.BaseExpression) -> None:
    """The comparisons `value` computes with (through arithmetic, `not`, `and`/`or`): kept as they are."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Comparison):
            conv.kept_bool.add(id(node))
        elif isinstance(node, cst.BinaryOperation):
            stack.extend((node.left, node.right))
        elif isinstance(node, cst.BooleanOperation):
            stack.extend((node.left, node.right))
        elif isinstance(node, cst.UnaryOperation):
            stack.append(node.expression)


# -- comparisons computed with as arrays -----------------------------------------------------------
# arithmetic, where MXNet's 0/1 and torch's bool part ways (`&`, `|`, `^` of bool tensors are torch's
# logic; MXNet's NDArray has none of them)
ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power)
_AST_ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)


def note_array_use(conv, node: cst.BaseExpression) -> None:
    """`node` is the receiver of an attribute or an operand of arithmetic: a comparison there is an array's
    (or a number's, which `_mx_compare` returns as it is)."""
    if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
        conv.array_compares.add(id(node))


def note_assigned(conv, assign: cst.Assign) -> None:
    """`pos = x > 0` where the scope computes with `pos` as an array (`pos - 1`, `pos.sum()`)."""
    value = assign.value
    if not (isinstance(value, cst.Comparison) and len(value.comparisons) == 1 and len(assign.targets) == 1):
        return
    target = assign.targets[0].target
    if isinstance(target, cst.Name) and target.value in _array_names(conv):
        conv.array_compares.add(id(value))


def _array_names(conv) -> frozenset:
    """The names the scope being converted uses as an operand of arithmetic or the receiver of an
    attribute (its own body, not the scopes nested in it)."""
    key = ("names",) + tuple(conv.scopes[-1])
    cache = conv.array_scopes
    if key not in cache:
        scope = conv.analysis.scopes.get(conv.scopes[-1])
        body = (scope.node.body if scope.node is not None else conv.analysis.tree.body) if scope is not None else []
        found, stack = set(), list(body)
        while stack:
            item = stack.pop()
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if isinstance(item, ast.BinOp) and isinstance(item.op, _AST_ARITHMETIC):
                found.update(side.id for side in (item.left, item.right) if isinstance(side, ast.Name))
            elif isinstance(item, ast.Attribute) and isinstance(item.value, ast.Name):
                found.add(item.value.id)
            stack.extend(ast.iter_child_nodes(item))
        cache[key] = frozenset(found)
    return cache[key]
