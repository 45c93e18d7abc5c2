"""MXNet classes where they stand as types (Note [type positions]).

Note [type positions]
An MXNet class is used as a *type* in an annotation (`ctx: mx.Context`, `-> mx.sym.Symbol`, a
dataclass or pydantic field), in what the typing module subscripts (`Optional[nd.NDArray]`, a
type alias `Tensor = Union[nd.NDArray, sym.Symbol]`), in a string annotation
(`"mx.nd.NDArray"`), in `typing.cast(T, v)` and `TypeVar(..., bound=T)` (all *static*: only
type checkers read them), and as a class tested at run time: isinstance/issubclass's classes,
an `except` clause, what a `raise` raises (`raise mx.base.MXNetError(msg)`: what an `except` elsewhere
tests for), the classes `pytest.raises`, `assertRaises` and `contextlib.suppress` catch, `f.register(T)`
of a functools.singledispatch function (a *test*). There
it must become the torch CLASS every translation of it is an instance of (`torch.device`,
`torch.Tensor`, `nn.Module`), never the Gluon-signature helper a call or a value gets
(`_mx_Context` is a function: singledispatch and pydantic reject it when the module is
imported). Classes with no torch counterpart are reported at their line (MX906). A class that
stands only for the symbol graph (`mx.sym.Symbol`, `SymbolBlock`) is a tensor or a module in a
static position; in a test it asks a question translated code has no answer to (is this a
graph?) unless the same test names a class with the same translation
(`isinstance(x, (nd.NDArray, sym.Symbol))`, or written as two tests of the same value joined
by `or`: any array is a tensor).
"""
from __future__ import annotations

import re
from typing import Optional

import libcst as cst

from xlate.convert import names
from xlate.convert.rulectx import Site
from xlate.runtime import sources as helper_sources

TYPE_LEFT = "MX906"
# what the typing module subscripts: every element of its subscript is a type
_GENERICS = frozenset("""Optional Union List Dict Tuple Type Set FrozenSet Sequence MutableSequence Iterable
Iterator Mapping MutableMapping Collection AbstractSet Callable Generator AsyncIterator AsyncIterable Awaitable
Coroutine ClassVar Final Annotated DefaultDict OrderedDict Deque Counter ChainMap list dict tuple set frozenset
type""".split())
STATIC, TEST, DISPATCH = "static", "test", "dispatch"
_CLASS_CALL = re.compile(r"((?:torch\.)?nn\.[A-Z]\w*)\(.*\)")  # a call template that constructs one torch class


# callables whose (first, or for suppress every) argument is an exception class they catch
_EXPECTS_EXCEPTION = frozenset({"raises", "assertRaises", "assertRaisesRegex", "suppress"})


def _callee_name(func: cst.BaseExpression) -> Optional[str]:
    return func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None


def _generic(node: cst.BaseExpression) -> bool:
    name = node.attr.value if isinstance(node, cst.Attribute) else getattr(node, "value", None)
    return isinstance(node, (cst.Name, cst.Attribute)) and name in _GENERICS


class TypePositions:
    """Mixin of the converter: finds type positions while visiting, and translates what stands there."""

    def _type_state(self) -> dict:
        state = self.__dict__.get("_types")
        if state is None:  # id(expression) -> (STATIC or TEST, the other classes of the same test)
            state = self.__dict__["_types"] = {}
        return state

    def type_position(self, node: cst.CSTNode) -> Optional[tuple]:
        return self._type_state().get(id(node))

    def mark_type(self, expr: cst.BaseExpression, kind: str, siblings: tuple = ()) -> None:
        state = self._type_state()
        if isinstance(expr, (cst.Tuple, cst.List)):
            items = [e.value for e in expr.elements]
            for item in items:
                self.mark_type(item, kind, tuple(i for i in items if i is not item))
        elif isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.BitOr):  # `A | B`
            self.mark_type(expr.left, kind, siblings + (expr.right,))
            self.mark_type(expr.right, kind, siblings + (expr.left,))
        elif isinstance(expr, (cst.Name, cst.Attribute, cst.SimpleString)):
            earlier = state.get(id(expr))  # the classes of an `or` of tests come first (note_or_tests)
            state[id(expr)] = (kind, siblings + (earlier[1] if earlier and earlier[0] == kind else ()))

    def note_or_tests(self, node: cst.BooleanOperation) -> None:
        """`isinstance(x, nd.NDArray) or isinstance(x, sym.Symbol)`: one test of the same value,
        written as two; each class is a sibling of the others (Note [type positions])."""
        inner = self.__dict__.setdefault("_or_inner", set())
        if not isinstance(node.operator, cst.Or) or id(node) in inner:
            return
        operands, stack = [], [node]
        while stack:  # the chain `a or b or c` nests to the left
            item = stack.pop()
            if isinstance(item, cst.BooleanOperation) and isinstance(item.operator, cst.Or) \
                    and (item is node or not item.lpar):  # `not (a or b)`: its own parentheses
                inner.add(id(item))
                stack += [item.right, item.left]
            else:
                operands.append(item)
        tests = [o for o in operands if isinstance(o, cst.Call) and isinstance(o.func, cst.Name)
                 and o.func.value == "isinstance" and len(o.args) == 2 and not o.args[0].star]
        for test in tests:
            same = []
            for t in tests:
                if t is not test and t.args[0].value.deep_equals(test.args[0].value):
                    cls = t.args[1].value
                    same += [e.value for e in cls.elements] if isinstance(cls, (cst.Tuple, cst.List)) else [cls]
            if same:
                self.mark_type(test.args[1].value, TEST, tuple(same))

    def visit_Annotation(self, node: cst.Annotation) -> None:
        self.mark_type(node.annotation, STATIC)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        if node.type is not None:
            self.mark_type(node.type, TEST)

    def visit_Raise(self, node: cst.Raise) -> None:
        # `raise mx.base.MXNetError("...")`: the class of what is raised, constructed or not, is what
        # an `except` elsewhere tests for, so it takes the class an `except` clause gets
        exc = node.exc.func if isinstance(node.exc, cst.Call) else node.exc
        if exc is not None:
            self.mark_type(exc, TEST)

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if not _generic(node.value):
            return
        elements = node.slice
        if isinstance(node.value, (cst.Name, cst.Attribute)) and getattr(node.value, "attr", node.value).value == "Annotated":
            elements = elements[:1]  # Annotated[T, metadata...]: only T is a type
        for element in elements:
            if isinstance(element.slice, cst.Index):
                self.mark_type(element.slice.value, STATIC)

    def note_type_call(self, node: cst.Call) -> None:
        """isinstance/issubclass, `f.register(T)`, `typing.cast(T, v)`, `TypeVar('T', A, B, bound=C)`."""
        func, args = node.func, node.args
        if isinstance(func, cst.Name) and func.value in ("isinstance", "issubclass") and len(args) == 2:
            self.mark_type(args[1].value, TEST)
        elif _callee_name(func) in _EXPECTS_EXCEPTION and args and args[0].keyword is None and not args[0].star:
            # `pytest.raises(mx.base.MXNetError)`, `self.assertRaises(E, f)`, `contextlib.suppress(E, F)`: the
            # classes of what is caught, as in an `except` clause
            for arg in (args if _callee_name(func) == "suppress" else args[:1]):
                if arg.keyword is None and not arg.star:
                    self.mark_type(arg.value, TEST)
        elif isinstance(func, cst.Attribute) and func.attr.value == "register" and len(args) == 1 \
                and args[0].keyword is None and not args[0].star:
            self.mark_type(args[0].value, DISPATCH)  # singledispatch; ABC.register(T) too
        elif (isinstance(func, cst.Name) and func.value == "cast" or isinstance(func, cst.Attribute)
              and func.attr.value == "cast" and isinstance(func.value, cst.Name) and func.value.value == "typing") \
                and len(args) == 2 and args[0].keyword is None:
            self.mark_type(args[0].value, STATIC)
        elif (getattr(func, "attr", func).value if isinstance(func, (cst.Name, cst.Attribute)) else None) == "TypeVar":
            for arg in args[1:]:
                if arg.keyword is None or arg.keyword.value == "bound":
                    self.mark_type(arg.value, STATIC)

    # -- translation ------------------------------------------------------------
    def type_target(self, resolved: str, kind: str) -> Optional[tuple]:
        """(rule, torch class) for an MXNet class standing as a type of this kind; None: xlate
        knows no class (a class whose Gluon-signature helper is a function, say)."""
        rule = self.rules.types.get(resolved)
        if rule is not None:
            return rule, rule.target
        rule = self.rules.references.get(resolved)
        if rule is not None and rule.target and not rule.transform:
            return rule, rule.target  # nd.NDArray, gluon.Block, nn.Sequential
        rule = self.rules.calls.get(resolved)
        made = _CLASS_CALL.fullmatch(rule.target) if rule is not None and isinstance(rule.target, str) \
            and not (rule.transform or rule.runtime) else None
        if made:  # the call is a torch class's (`nn.Identity()`): what it makes is an instance of that class
            return rule, made.group(1)
        rule = self.rules.classes.get(resolved)
        if rule is None:
            return None
        target = rule.instance_for(resolved)
        if target and target.startswith("("):  # several torch classes (nn.Activation's)
            target = {STATIC: "nn.Module", TEST: target}.get(kind)  # singledispatch takes one class
        elif target is None:
            helper = rule.runtime_for(resolved)
            target = helper if helper_sources().get(helper, "").lstrip().startswith("class ") else None
        return (rule, target) if target else None

    def type_reference(self, original, updated, head: str, resolved: str):
        """`_reference` of a class in a type position; None where the ordinary path decides (a
        reference rule: `nd.NDArray` is `torch.Tensor` wherever it stands)."""
        kind = self.type_position(original)[0]
        rule = self.rules.types.get(resolved)
        if rule is not None:
            return self._apply(Site(self, rule, original, updated, matched=resolved), head=head)
        if resolved in self.rules.references:
            return None
        found = self.type_target(resolved, kind)
        if found is None:
            return self.type_left(original, updated, head, resolved)
        rule, target = found
        if self._suppressed(rule.code) or not self.rules.enabled(rule.code):
            return None
        self.report(original, rule.code, "fixed", f"`{resolved.rsplit('.', 1)[-1]}` as a type -> `{target}`, "
                                                  "the class every translation of it is an instance of")
        return Site(self, rule, original, updated, matched=resolved).emit(target)

    def type_left(self, original, updated, head: str, resolved: str):
        self.survivors[head] += 1
        if not self._suppressed(TYPE_LEFT) and self.rules.enabled(TYPE_LEFT):
            self.report(original, TYPE_LEFT, "manual", f"`{resolved}` stands as a type here, and torch has no "
                                                       "class xlate knows to stand for it: choose one by hand")
        return updated

    def leave_SimpleString(self, original: cst.SimpleString, updated: cst.SimpleString):
        """A string annotation (`x: "mx.nd.NDArray"`): the classes in it, translated in place."""
        position = self.type_position(original)
        if position is None or original.prefix.lower() not in ("", "u"):
            return updated
        try:
            text = original.evaluated_value
            expr = cst.parse_expression(text)
        except Exception:  # not an expression: a docstring-like annotation stays
            return updated
        rewrite = _InString(self, original, position[0])
        new = expr.visit(rewrite)
        if not rewrite.changed:
            return updated
        body = cst.Module([]).code_for_node(new)
        quote = original.quote
        if quote[0] in body or "\\" in body:
            return updated
        return updated.with_changes(value=f"{original.prefix}{quote}{body}{quote}")


class _InString(cst.CSTTransformer):
    def __init__(self, conv, string: cst.SimpleString, kind: str):
        super().__init__()
        self.conv, self.string, self.kind = conv, string, kind
        self.changed = False

    def _chain(self, original, updated):
        dotted = _dotted(original)
        if dotted is None:
            return updated
        head = dotted.split(".", 1)[0]
        resolved = self.conv.analysis.resolve(self.conv.scopes[-1], dotted)
        if resolved is None or resolved is names.AMBIGUOUS or not names.is_mxnet(resolved):
            return updated
        found = self.conv.type_target(resolved, self.kind)
        if found is None or found[0].applicability == "manual":
            self.conv.type_left(self.string, updated, head, resolved)
            return updated
        rule, target = found
        if self.conv._suppressed(rule.code) or not self.conv.rules.enabled(rule.code):
            return updated
        self.conv.report(self.string, rule.code, "fixed" if rule.applicability == "safe" else "review",
                         f"`{dotted}` in a string annotation -> `{target}`")
        site = Site(self.conv, rule, self.string, self.string, matched=resolved)
        self.changed = True
        return site.emit(target)

    def visit_Attribute(self, node):
        return False  # a chain is translated whole, in leave_Attribute

    def leave_Attribute(self, original, updated):
        return self._chain(original, updated)

    def leave_Name(self, original, updated):
        return self._chain(original, updated)


def _dotted(node) -> Optional[str]:
    if isinstance(node, cst.Name):
        return names.ident(node.value)
    if isinstance(node, cst.Attribute):
        inner = _dotted(node.value)
        return None if inner is None else f"{inner}.{names.ident(node.attr.value)}"
    return None


# Note [tests the translation made one]: `isinstance(x, nd.NDArray) or isinstance(x, sym.Symbol)`
# and `isinstance(x, (nd.NDArray, sym.Symbol))` name two MXNet classes with one torch class
# (Note [type positions]); written out, the translation repeats itself (`isinstance(x,
# torch.Tensor) or isinstance(x, torch.Tensor)`), which a reviewer reads as a mistake. What the
# translation made equal is written once; what the user wrote twice stays as written.
def _is_test(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) \
        and node.func.value in ("isinstance", "issubclass") and len(node.args) == 2


def merged_or(original: cst.BooleanOperation, updated: cst.BooleanOperation) -> cst.BaseExpression:
    """`a or a` the translation made of `a or b` (two type tests), as `a`."""
    if not isinstance(updated.operator, cst.Or) or not _is_test(updated.right) \
            or not updated.right.deep_equals(_last_test(updated.left)) \
            or original.right.deep_equals(_last_test(original.left)):
        return updated
    if isinstance(updated.left, cst.BooleanOperation) and not updated.left.lpar:  # `a or b or b`
        return updated.left.with_changes(lpar=updated.lpar, rpar=updated.rpar)
    return updated.left  # a call: it needs no parentheses where the `or` did


def _last_test(node: cst.BaseExpression) -> cst.BaseExpression:
    """The operand an `or` chain ends with (`a or b` nests to the left)."""
    while isinstance(node, cst.BooleanOperation) and isinstance(node.operator, cst.Or) and not node.lpar:
        node = node.right
    return node


def merged_classes(original: cst.Call, updated: cst.Call) -> cst.Call:
    """`isinstance(x, (torch.Tensor, torch.Tensor))` the translation made of two MXNet classes:
    each class once; one class alone is no tuple."""
    if not _is_test(updated) or not isinstance(updated.args[1].value, cst.Tuple):
        return updated
    before, after = original.args[1].value, updated.args[1].value
    if not isinstance(before, cst.Tuple) or len(before.elements) != len(after.elements):
        return updated
    kept: list[cst.BaseElement] = []
    for old, new in zip(before.elements, after.elements):
        twin = next((i for i, k in enumerate(kept) if k.value.deep_equals(new.value)), None)
        if twin is None:
            kept.append(new)
        elif any(o.value.deep_equals(old.value) for o in before.elements if o is not old):
            kept.append(new)  # the user's own repetition stays
    if len(kept) == len(after.elements):
        return updated
    if len(kept) == 1:
        classes = kept[0].value
    else:
        kept[-1] = kept[-1].with_changes(comma=after.elements[-1].comma)
        classes = after.with_changes(elements=kept)
    return updated.with_changes(args=[updated.args[0], updated.args[1].with_changes(value=classes)])
