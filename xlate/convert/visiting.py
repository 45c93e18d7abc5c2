"""Cheaper hook dispatch for LibCST transformers.

LibCST finds `visit_<Node>` / `leave_<Node>_<field>` by building the name and calling
getattr for every node and field it walks (~300k times on a 3000-line file). A class's
hooks never change, so they are looked up once: node hooks per (class, node type), field
hooks in a table built when the class is defined.
"""
from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import libcst as cst

_CACHE: dict[tuple, Any] = {}


def _hook(cls: type, kind: str, node_type: type) -> Any:
    key = (cls, kind, node_type)
    try:
        return _CACHE[key]
    except KeyError:
        fn = _CACHE[key] = _own(getattr(cls, f"{kind}_{node_type.__name__}", None))
        return fn


def _own(fn: Any) -> Any:
    """`fn`, unless it is one of the do-nothing hooks LibCST's base classes define for every
    node type and field (`visit_Name` returns None, `leave_Name` its updated node,
    `visit_Add_whitespace_after` nothing): calling those for every node and field of a walk
    cost a tenth of the walk."""
    return None if fn is None or getattr(fn, "__module__", "").startswith("libcst") else fn


# Note [formatting is not walked]
# LibCST rebuilds every node it walks into (a dataclass made and validated), and a third of
# the nodes of real code hold nothing but formatting: the whitespace around a comma, an
# operator or a parenthesis, comments, blank lines. A transformer with no hook for such a node
# type does not walk into it: the node is kept as it is, with what it holds.
_FORMATTING_BASES = tuple(getattr(cst, name) for name in (
    "BaseParenthesizableWhitespace", "TrailingWhitespace", "EmptyLine", "Newline", "Comment", "Comma", "Dot",
    "Colon", "Semicolon", "AssignEqual", "LeftParen", "RightParen", "LeftSquareBracket", "RightSquareBracket",
    "LeftCurlyBrace", "RightCurlyBrace", "BaseBinaryOp", "BaseBooleanOp", "BaseCompOp", "BaseUnaryOp",
    "BaseAugOp", "Asynchronous", "ParamStar", "ParamSlash", "ImportStar") if hasattr(cst, name))


def derives(kind: type, bases) -> bool:
    """issubclass(kind, bases) for LibCST's node classes, which register no virtual
    subclasses: their ABCMeta's own test took a fifth of xlate's import time."""
    return any(base in bases for base in kind.__mro__)


FORMATTING = frozenset(t for t in vars(cst).values() if isinstance(t, type) and derives(t, _FORMATTING_BASES))
# nodes whose children are only their parentheses: their hooks run, but LibCST does not rebuild
# them (nothing under them can change)
LEAVES = frozenset(getattr(cst, name) for name in ("Name", "Integer", "Float", "Imaginary", "SimpleString",
                                                   "Ellipsis") if hasattr(cst, name))


def _tables(cls: type) -> None:
    """The class's own field hooks, and the formatting types it does not walk into."""
    cls._visit_fields, cls._leave_fields = {}, {}
    for name in dir(cls):
        kind, _, rest = name.partition("_")
        if kind not in ("visit", "leave") or "_" not in rest:
            continue
        node_name, _, field = rest.partition("_")
        node_type = getattr(cst, node_name, None)
        if isinstance(node_type, type) and issubclass(node_type, cst.CSTNode) and _own(getattr(cls, name)):
            table = cls._visit_fields if kind == "visit" else cls._leave_fields
            table.setdefault(node_type, {})[field] = getattr(cls, name)
    hooked = set(cls._visit_fields) | set(cls._leave_fields)
    cls._opaque = frozenset(t for t in FORMATTING if t not in hooked and _hook(cls, "visit", t) is None
                            and _hook(cls, "leave", t) is None)
    cls._leaves = frozenset(t for t in LEAVES if t not in hooked)


def _walk_into(visitor, node: cst.CSTNode) -> bool:
    """Runs the visitor's visit hook for `node`; whether to walk into its children."""
    kind = type(node)
    if kind in visitor._opaque:
        return False
    fn = _hook(type(visitor), "visit", kind)
    if kind in visitor._leaves:
        if fn is not None:
            fn(visitor, node)
        return False  # its hooks have run: its parentheses need no walk (see LEAVES)
    return fn is None or fn(visitor, node) is not False


class FastTransformer(cst.CSTTransformer):
    _visit_fields: dict = {}
    _leave_fields: dict = {}
    _opaque: frozenset = frozenset()  # Note [formatting is not walked]
    _leaves: frozenset = frozenset()
    cold: frozenset = frozenset()  # ids of nodes whose children are not walked (Note [cold statements])
    frozen: frozenset = frozenset()  # ids of nodes neither walked nor hooked (Note [cold expressions])

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _tables(cls)

    def on_visit(self, node: cst.CSTNode) -> bool:
        key = id(node)
        return key not in self.frozen and _walk_into(self, node) and key not in self.cold

    def on_leave(self, original_node, updated_node):
        fn = _hook(type(self), "leave", type(original_node))
        if fn is None or id(original_node) in self.frozen:
            return updated_node
        return fn(self, original_node, updated_node)

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        fields = self._visit_fields.get(type(node))
        if fields is not None and attribute in fields:
            fields[attribute](self, node)

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        fields = self._leave_fields.get(type(original_node))
        if fields is not None and attribute in fields:
            fields[attribute](self, original_node)


# Note [reading without LibCST's walk]
# LibCST's visit rebuilds every node it walks into, for a visitor that only reads as for a
# transformer. `children` gives a node's children in LibCST's own order (the order its
# `_visit_and_replace_children` visits its fields in, which is the source's), leaving out
# formatting (Note [formatting is not walked]); FastVisitor.walk calls a visitor's visit hooks
# over them, a fifth of the cost. tests/test_properties.py checks both against LibCST's walk.

# fields that hold formatting, or no node at all (the order of the rest is looked up once)
_NOT_CHILDREN = frozenset({"lpar", "rpar", "comma", "semicolon", "equal", "dot", "star", "colon", "lbracket",
                           "rbracket", "lbrace", "rbrace", "operator", "asynchronous", "header", "footer",
                           "leading_lines", "lines_after_decorators", "trailing_whitespace"})
_ORDER: dict[type, tuple[str, ...]] = {}


def _order(kind: type) -> tuple[str, ...]:
    if kind in LEAVES:
        return ()
    declared = [f.name for f in dataclasses.fields(kind)]
    visited = [c for c in kind._visit_and_replace_children.__code__.co_consts if isinstance(c, str) and c in declared]
    order = dict.fromkeys(visited + declared)
    return tuple(n for n in order if n not in _NOT_CHILDREN and not n.startswith("whitespace"))


def children(node: cst.CSTNode) -> list:
    """The node's children that are not formatting, in the order LibCST walks them."""
    kind = type(node)
    try:
        fields = _ORDER[kind]
    except KeyError:
        fields = _ORDER[kind] = _order(kind)
    found = []
    for name in fields:
        value = getattr(node, name)
        kind = type(value)
        if kind in NODES:
            found.append(value)
        elif kind is tuple or kind is list:
            found.extend(v for v in value if type(v) in NODES)
    return found


def holds(node: cst.CSTNode, kinds: frozenset) -> bool:
    """Whether `node` or a node under it is of one of `kinds` (exact node types)."""
    stack = [node]
    while stack:
        node = stack.pop()
        if type(node) in kinds:
            return True
        stack.extend(children(node))
    return False


def freeze_cold(nodes: list, own, frozen: set, always: bool = False, kids=children) -> bool:
    """Whether any of `nodes` holds a node that `own(node)` calls hot (True), or one it keeps
    whole (None: not looked into), among `kids(node)` and theirs. When one does, or `always`,
    the others go into `frozen`: what holds nothing hot is frozen at its highest point (Note
    [cold expressions] in cold.py)."""
    flags = []
    for node in nodes:
        mine = own(node)
        flags.append(True if mine is None else freeze_cold(kids(node), own, frozen, mine, kids) or mine)
    if always or any(flags):
        frozen.update(id(n) for n, hot in zip(nodes, flags) if not hot)
        return True
    return False


def _subclasses(base: type) -> set:
    found = set()
    for sub in base.__subclasses__():
        found |= {sub} | _subclasses(sub)
    return found


# the node types `children` keeps, tested by type (an isinstance test of LibCST's abstract base
# classes goes through ABCMeta.__instancecheck__, a Python call each time)
NODES = frozenset(t for t in _subclasses(cst.CSTNode) if t not in FORMATTING and not inspect.isabstract(t))


class FastVisitor(cst.CSTVisitor):
    """FastTransformer's dispatch for a visitor that only reads: hooks looked up once per node
    type, LibCST's stubs never called, formatting not walked (Note [formatting is not walked]).
    `walk(node)` runs its visit hooks without LibCST's walk (Note [reading without LibCST's
    walk]): a subclass has visit hooks only (one that returns False prunes)."""

    _visit_fields: dict = {}
    _leave_fields: dict = {}
    _opaque: frozenset = frozenset()
    _leaves: frozenset = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _tables(cls)
        hooks = [name for name in dir(cls) if name.startswith("leave_") and _own(getattr(cls, name))]
        if hooks or cls._visit_fields:
            raise TypeError(f"{cls.__name__}: FastVisitor.walk runs node visit hooks only, not {hooks or 'field hooks'}")

    def walk(self, node: cst.CSTNode) -> None:
        """Visit `node` and what is under it, in LibCST's order, calling the visit hooks."""
        kind = type(self)
        stack = [node]
        while stack:
            node = stack.pop()
            fn = _hook(kind, "visit", type(node))
            if fn is not None and fn(self, node) is False:
                continue
            found = children(node)
            found.reverse()
            stack.extend(found)

    def on_visit(self, node: cst.CSTNode) -> bool:
        return _walk_into(self, node)

    def on_leave(self, original_node: cst.CSTNode) -> None:
        fn = _hook(type(self), "leave", type(original_node))
        if fn is not None:
            fn(self, original_node)

    on_visit_attribute = FastTransformer.on_visit_attribute
    on_leave_attribute = FastTransformer.on_leave_attribute
