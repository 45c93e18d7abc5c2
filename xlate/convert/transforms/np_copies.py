"""Note [the dialect's shape copies]
mx.np's reshape, flatten, ravel, squeeze, expand_dims, swapaxes, transpose and broadcast_to return
a new array (measured on MXNet 1.9.1: a write into the result never shows in the source, nor the
other way); torch's return views of the same storage. A program sees the difference only where it
writes into one of the two in place afterwards: `X = x.reshape(3, 4); X[1, 2] = 17` leaves
MXNet's `x` as it was and changes torch's (d2l's ndarray notebook then displays `np.exp(x)`). So
where the array the call reads, or the name its result is bound to, is written into in place
anywhere in the file (`N[...] = v`, `N += v`, `N[...] += v`), the translation copies the result
(`.clone()`, as MXNet copies). The view is kept where nothing in the file can tell it from a copy:
no such write; a source nothing else holds (arithmetic, a torch function's result); a result that
goes straight into an MXNet operator (`np.concatenate((np.expand_dims(c, 1), ...))` makes a new
array of it). An alias that reaches an in-place write under another name (returned, passed on,
re-bound) is beyond this file-level look and keeps torch's view."""
import ast

import libcst as cst

_CACHE: dict = {}


def written_in_place(conv) -> frozenset:
    """Root names of in-place writes in the file: subscript-assignment and augmented-assignment targets."""
    tree = conv.analysis.tree
    hit = _CACHE.get(id(tree))
    if hit is not None and hit[0] is tree:
        return hit[1]
    names = set()
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
        for target in targets:
            for t in (target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]):
                if isinstance(t, ast.Subscript) or isinstance(node, ast.AugAssign):
                    while isinstance(t, (ast.Subscript, ast.Attribute, ast.Starred)):
                        t = t.value
                    if isinstance(t, ast.Name):
                        names.add(t.id)
    found = frozenset(names)
    _CACHE.clear()  # one file at a time
    _CACHE[id(tree)] = (tree, found)
    return found


def _root(node):
    while isinstance(node, (cst.Attribute, cst.Subscript)):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None


def _fresh(node) -> bool:
    """A value nothing else holds: the result of arithmetic or of a torch function (`torch.arange(12)`)."""
    if isinstance(node, (cst.BinaryOperation, cst.UnaryOperation)):
        return True
    if isinstance(node, cst.Call):
        func = node.func
        while isinstance(func, cst.Attribute):
            func = func.value
        return isinstance(func, cst.Name) and func.value == "torch"
    return False


def _into_mxnet_op(site, stmt) -> bool:
    """The call is an argument (or an item of a tuple or list argument) of an MXNet operator without
    `out=` (`np.concatenate((np.expand_dims(c, 1), ...))`): the operator makes a new array of it and
    nothing else holds the view."""
    target = site.original
    found = []

    class _Find(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            for arg in node.args:
                items = [e.value for e in arg.value.elements] if isinstance(arg.value, (cst.Tuple, cst.List)) else []
                if arg.value is target or any(v is target for v in items):
                    found.append(node)

    stmt.visit(_Find())
    return any((site.conv.resolve_expr(call.func) or "").startswith("mxnet.") and not any(
        a.keyword is not None and a.keyword.value == "out" for a in call.args) for call in found)


def as_mxnet_copies(site, source, result: cst.BaseExpression) -> cst.BaseExpression:
    """`result.clone()` where the file writes in place into `source`'s array or the name `result`
    is bound to (Note [the dialect's shape copies]); `result` as it is otherwise."""
    written = written_in_place(site.conv)
    if not written or _fresh(source):
        return result
    stmt = site.conv.statement_stack[-1] if site.conv.statement_stack else None
    if stmt is not None and _into_mxnet_op(site, stmt):
        return result
    names = {_root(source)}
    if stmt is not None and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign):
        assign = stmt.body[0]
        if assign.value is site.original or assign.value is site.node:
            names.update(_root(t.target) for t in assign.targets)
    if not names & written:
        return result
    if isinstance(result, (cst.BinaryOperation, cst.UnaryOperation, cst.BooleanOperation, cst.Comparison)):
        result = result.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return cst.Call(func=cst.Attribute(value=result, attr=cst.Name("clone")))
