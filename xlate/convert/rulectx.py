"""What a rule sees when it fires: bound arguments, the receiver, and ways to emit code."""
from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass, field, replace
from typing import Any, Optional, Protocol

import libcst as cst

from xlate.convert import names
from xlate.convert.catalogue import Rule, RuleSet
from xlate.convert.visiting import FastTransformer, freeze_cold
from xlate.runtime import HELPER_RE

NOT_LITERAL = object()
_SHORT = {"nn": "torch.nn", "F": "torch.nn.functional"}
_SHORT_RE = re.compile(r"(?<![\w.}])(nn|F|torch)\.")


LOOSE = (cst.BinaryOperation, cst.BooleanOperation, cst.Comparison, cst.UnaryOperation, cst.IfExp,
          cst.Lambda, cst.NamedExpr, cst.Yield, cst.Await)


def _is_argument_hole(template: str, name: str) -> bool:
    """True when {name} stands alone as an argument, element or subscript (no parens needed)."""
    for m in re.finditer(r"\{" + re.escape(name) + r"\}", template):
        before = template[:m.start()].rstrip()
        after = template[m.end():].lstrip()
        if not (before.endswith(("(", ",", "[", "=")) and after.startswith((")", ",", "]"))):
            return False
    return True


_HOLE_RE = re.compile(r"\{(\w+)\}")
_HOLE_PREFIX = "__xlate_hole_"


@functools.lru_cache(maxsize=4096)
def _parse_template(template: str) -> tuple[cst.BaseExpression, frozenset]:
    """Parse a template once; its {holes} become placeholder names (CST nodes are immutable,
    so one parsed tree serves every use). With it, the ids of its parts that hold no hole:
    filling does not walk into them (Note [cold expressions] in xlate/convert/cold.py)."""
    tree = cst.parse_expression(_HOLE_RE.sub(lambda m: _HOLE_PREFIX + m.group(1), template))
    solid: set[int] = set()
    freeze_cold([tree], lambda node: type(node) is cst.Name and node.value.startswith(_HOLE_PREFIX), solid)
    return tree, frozenset(solid)


@functools.lru_cache(maxsize=4096)
def parse_source(text: str) -> cst.BaseExpression:
    """An expression from source text, parsed once (each LibCST parse has a large fixed cost);
    the node may be shared: callers that need a node of their own deep_clone it."""
    return cst.parse_expression(text)


class _Fill(FastTransformer):
    def __init__(self, holes: dict):
        super().__init__()
        self.holes = holes

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        if updated.value.startswith(_HOLE_PREFIX):
            name = updated.value[len(_HOLE_PREFIX):]
            if name not in self.holes:
                raise KeyError(f"template hole {{{name}}} has no value")
            return self.holes[name]
        return updated


class Conversion(Protocol):
    """What a rule may read and change of the conversion in progress (the converter,
    xlate.convert.converter, provides it; rules never import the converter)."""

    analysis: names.Analysis
    rules: RuleSet
    module: cst.Module
    options: dict  # user choices (`hybridize`: "drop" or "compile")
    scopes: list  # the scope keys (Note [name resolution]) from the module down to here
    long_names: frozenset  # `nn`/`F` spelled `torch.nn`/`torch.nn.functional` in this file
    torch_uses: set  # torch names the output uses ("torch", "nn", "F")
    found: list  # (node, code, status, message) reported so far; None where taken back
    statement_stack: list  # the simple statement lines being visited
    with_stack: list  # the With statements being visited
    unwrap: set  # ids of With statements whose body replaces them
    around: dict  # id of a With statement -> (small statements before it, after it)
    block_stack: list  # the original statement lists being visited, outermost first
    compound_stack: list  # the original compound statements (and defs) being visited, outermost first
    defs: list  # the defs and classes among them
    store_depth: int  # > 0 inside an assignment target, a parameter name...
    written_into: int  # > 0 inside the array of `x[i] = v`
    full_reductions: dict  # id -> emitted `.reshape(1)` call (MX033)
    shaped: set  # ids of original calls whose result is `.reshape(1)`-ed or `.item()`-ed right away
    layers: dict  # id(emitted constructor) -> (node, LayerInfo)
    chains: dict  # (scope, container code) -> (statement id, Shape)
    line_before: dict  # id(statement) -> id of the statement just before it in straight-line code
    arguments: set  # ids of expressions passed as a call's argument
    alias_values: set  # ids of `mx.ndarray` in `F = mx.ndarray` (Note [namespace aliases])
    own_reads: set  # ids of `F` read in `F = getF(x) if F is None else F` (Note [namespace aliases])

    def code_for(self, node: cst.CSTNode) -> str: ...
    def resolve_expr(self, node: cst.BaseExpression) -> Optional[str]: ...
    def classify(self, node: cst.BaseExpression) -> Optional[str]: ...
    def is_number(self, node: cst.BaseExpression) -> bool: ...
    def use_helper(self, name: str) -> None: ...
    def dropped(self, node: cst.CSTNode) -> None: ...
    def retract(self, node: cst.CSTNode, code: Optional[str] = None, *, within: bool = False) -> None: ...
    def statement_of(self, call: cst.CSTNode) -> Optional[cst.SimpleStatementLine]: ...
    def replace_statement(self, stmt: cst.SimpleStatementLine, smalls: list) -> None: ...
    def insert_before(self, stmt: cst.CSTNode, smalls: list) -> None: ...


class Manual(Exception):
    """The rule matched but cannot translate this use: leave it and tell the user why."""


class Dynamic(Manual):
    """The translation depends on a value known only at run time (a variable `activation=`,
    `**kwargs`): a rule with a Gluon-signature helper writes the call for that helper instead
    (Note [Gluon-signature modules]); any other rule leaves it for a human, like Manual."""


class ForeignKeyword(Manual):
    """A keyword the MXNet operator does not take (`dim=`): MXNet itself would reject the call,
    so on a receiver not known to be an NDArray the method is another library's (torch's, on a
    second pass), not MXNet's."""


class Skip(Exception):
    """Not an MXNet use after all (a numpy receiver, say): leave it and say nothing."""


@dataclass
class Site:
    conv: Conversion
    rule: Rule
    original: cst.CSTNode
    node: cst.CSTNode
    matched: str = ""  # the canonical MXNet name, or ".method" for a method call
    receiver: Optional[cst.BaseExpression] = None
    receiver_kind: Optional[str] = None
    args: dict = field(default_factory=dict)  # MXNet parameter name -> cst.Arg (updated)
    varargs: list = field(default_factory=list)
    status: Optional[str] = None
    message: Optional[str] = None
    shared: Optional[cst.BaseExpression] = None  # a layer's Gluon `params=` (layer_args.naming)

    # -- reading arguments --------------------------------------------------
    def value(self, name: str) -> Optional[cst.BaseExpression]:
        arg = self.args.get(name)
        return arg.value if arg is not None else None

    def code(self, node: Optional[cst.CSTNode]) -> str:
        return "" if node is None else self.conv.code_for(node)

    def literal(self, name: str, default: Any = None) -> Any:
        """Python value of a literal argument, `default` when absent, NOT_LITERAL otherwise."""
        node = self.value(name)
        return default if node is None else self.evaluate(node)

    def evaluate(self, node: cst.BaseExpression) -> Any:
        """Python value of a literal expression, NOT_LITERAL otherwise."""
        value = node_literal(node)
        return literal_of(self.code(node)) if value is _UNSURE else value

    def has(self, name: str) -> bool:
        return name in self.args

    def vararg_elements(self) -> list:
        """The varargs as list or tuple elements, `*xs` still starred (Note [starred arguments])."""
        return [cst.StarredElement(a.value) if a.star else cst.Element(a.value) for a in self.varargs]

    def vararg_list(self) -> cst.BaseExpression:
        """The varargs as one list display; `*[a, b]` or `*[f(x) for x in xs]` alone is that list."""
        return starred_list(self.vararg_elements())

    def bind(self, *signature: str, evident: bool = True) -> None:
        """Bind the call's arguments now, for a rule whose method name is common enough
        (`.get`, `.add`, `.setattr`) that it first checks the receiver (its catalogue
        signature is `["..."]`). A call that does not fit is reported when the receiver is
        evidently MXNet's, and otherwise is not the MXNet method at all
        (`monkeypatch.setattr(a, b, c)`): skipped."""
        try:
            self.args, self.varargs = bind(replace(self.rule, signature=signature), self.node, self.receiver)
        except Manual:
            if evident:
                raise
            raise Skip() from None

    # -- producing code -----------------------------------------------------
    def emit(self, template: str, **nodes: Any) -> cst.BaseExpression:
        """Parse `template` with {name} holes filled by CST nodes (or source strings)."""
        missing = [k for k, v in nodes.items() if v is None and "{" + k + "}" in template]
        if missing:  # `x.astype()`: a call without an argument MXNet requires fails there too
            raise Manual("the call lacks an argument MXNet requires here: it fails in MXNet as written")
        for short in set(_SHORT_RE.findall(template)):
            self.conv.torch_uses.add(short)
        if self.conv.long_names:
            long = self.conv.long_names
            template = _SHORT_RE.sub(
                lambda m: (_SHORT[m.group(1)] if m.group(1) in long else m.group(1)) + ".", template)
        for name in HELPER_RE.findall(template):
            self.helper(name)
        filled = {}
        for k, v in nodes.items():
            node = parse_source(v) if isinstance(v, str) else v
            if isinstance(node, LOOSE) and not node.lpar and not _is_argument_hole(template, k):
                node = node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
            filled[k] = node
        parsed, solid = _parse_template(template)
        if not filled:
            return parsed
        fill = _Fill(filled)
        fill.frozen = solid
        return parsed.visit(fill)

    def verbatim(self, **sizes: Any) -> cst.Call:
        """The call as written, for the rule's Gluon-signature helper (`nn.BatchNorm(...)` ->
        `_mx_BatchNorm(...)`): the arguments stay (already translated inside), a literal
        `prefix=` goes (it only names Gluon parameters), so does a shared `params=` (`_mx_shared`
        takes it), and `sizes` set keywords such as
        `in_units=` (a deferred size the previous layers fix)."""
        call = self.node
        assert isinstance(call, cst.Call) and self.rule.runtime
        args = [a for a in call.args if a.keyword is None or a.keyword.value not in sizes and not (
            a.keyword.value == "prefix" and self.evaluate(a.value) is not NOT_LITERAL) and not (
            a.keyword.value == "params" and self.shared is not None)]  # `_mx_shared` around it takes them
        if sizes:
            if args and args[-1].comma == cst.MaybeSentinel.DEFAULT:
                args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
            for key, value in sizes.items():
                node = value if isinstance(value, cst.BaseExpression) else parse_source(str(value))
                args.append(cst.Arg(node.deep_clone(), keyword=cst.Name(key), equal=_EQ,
                                    comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))))
            args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        elif args and len(args) < len(call.args) and call.args[-1] is not args[-1]:
            args[-1] = args[-1].with_changes(comma=call.args[-1].comma)  # the last one went: its comma too
        return call.with_changes(func=self.emit(self.rule.runtime_for(self.matched)), args=args)

    def helper(self, name: str) -> str:
        self.conv.use_helper(name)  # pasted helpers bring `import torch` (xlate.convert.imports)
        return name

    def review(self, message: str) -> None:
        self.status, self.message = "review", message

    def method_helper(self, helper: str) -> cst.Call:
        """`helper(x, <the call's arguments as written>)` for `x.method(...)`: the rule's
        `method_runtime`, which takes the method's own signature after the receiver (a template
        names the receiver `{x}` and the method `{name}`: `_mx_np_method({x}, "{name}")`)."""
        helper = helper.replace("{name}", self.matched.rsplit(".", 1)[-1])  # `_mx_{name}`: one per method
        template = helper if "{x}" in helper else f"{helper}({{x}})"
        head = self.emit(template, x=self.receiver)
        args = [a.deep_clone() for a in self.node.args]
        own = list(head.args)
        if args:
            own[-1] = own[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        return head.with_changes(args=[*own, *args])

    def fixed(self, message: str) -> None:
        self.message = message


_EQ = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))
_UNSURE = object()
_NAMED = {"True": True, "False": False, "None": None}


def dotted_name(node: cst.CSTNode) -> bool:
    """A name or `a.b.c`: evaluating it twice gives the same object."""
    while isinstance(node, cst.Attribute):
        node = node.value
    return isinstance(node, cst.Name)


def node_literal(node: cst.CSTNode) -> Any:
    """The value of the common literal shapes, read off the tree (ast.literal_eval re-parses
    text); NOT_LITERAL for a name or call, _UNSURE for shapes left to literal_eval."""
    if isinstance(node, cst.Integer):
        return node.evaluated_value
    if isinstance(node, cst.Float):
        return node.evaluated_value
    if isinstance(node, cst.SimpleString):
        return node.evaluated_value
    if isinstance(node, cst.Name):
        return _NAMED.get(node.value, NOT_LITERAL)
    if isinstance(node, (cst.Attribute, cst.Call)):
        return NOT_LITERAL
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus) \
            and isinstance(node.expression, (cst.Integer, cst.Float)) and not node.lpar:
        return -node.expression.evaluated_value
    if isinstance(node, (cst.Tuple, cst.List)):
        items = []
        for element in node.elements:
            if not isinstance(element, cst.Element):
                return _UNSURE
            value = node_literal(element.value)
            if value is NOT_LITERAL or value is _UNSURE:
                return value
            items.append(value)
        return tuple(items) if isinstance(node, cst.Tuple) else items
    return _UNSURE


def literal_of(source: str) -> Any:
    try:
        return ast.literal_eval(source)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return NOT_LITERAL


def bind(rule: Rule, call: cst.Call, receiver: Optional[cst.BaseExpression] = None) -> tuple[dict, list]:
    """Bind call arguments to MXNet's parameter names (Note [argument mapping]).

    A method call binds its receiver to the first parameter, so `x.sum(axis=1)` and
    `nd.sum(x, axis=1)` reach the rule in the same shape.
    """
    if rule.signature == ("...",):  # the transform reads the call's own arguments
        return {}, []
    signature = list(rule.signature)
    args: dict = {}
    if receiver is not None and signature:
        args[signature[0].lstrip("*")] = cst.Arg(receiver)
        signature = signature[1:]
    varargs: list = []
    positional = [a for a in call.args if a.keyword is None]
    slots = [s for s in signature if not s.startswith("*")]
    star = next((s[1:] for s in signature if s.startswith("*")), None)
    _check_stars(call, signature, receiver is not None)
    if star is not None:
        star_at = signature.index("*" + star)
        before, after = signature[:star_at], signature[star_at + 1:]
        for name, a in zip(before, positional):
            args[name] = a
        varargs = positional[len(before):]
        slots = after
        positional = []
    for name, a in zip(slots, positional):
        args[name] = a
    if len(positional) > len(slots):
        raise Manual(f"too many positional arguments for {rule.matches[0]}")
    names = {s.lstrip("*") for s in signature}
    for a in call.args:
        if a.keyword is not None:
            key = a.keyword.value
            if key == "name" and key not in names and names_node(rule):
                continue
            if key not in names and key not in ("out", "name") and not key.startswith("__"):
                raise ForeignKeyword(f"argument `{key}=` has no PyTorch mapping")
            if key not in names or key in args:
                raise Manual(f"argument `{key}=` has no PyTorch mapping")
            args[key] = a
    return args, varargs


# Note [keywords MXNet ignores]
# An MXNet operator without parameters (relu, sigmoid, exp and the other elementwise functions of MX044)
# takes any keyword and ignores it, in nd and sym alike: MXNet-Detector's decoders write
# `F.sigmoid(cls_preds, axis=-1)`, which is the plain sigmoid (measured: MXNet 1.9.1 gives the same values
# for `axis=-1`, `axis='bogus'`, `foo=1`). The rule says so (`ignores_keywords`): such keywords are dropped,
# reported for review at the call, rather than leaving the call to a human.
def without_ignored(site) -> list:
    """The call of `site` without the keywords its rule's signature lacks (out= and name= stay for
    their own handling); the names dropped."""
    names = {s.lstrip("*") for s in site.rule.signature} | {"out", "name"}
    args = list(site.node.args)
    keep = [a for a in args if a.keyword is None or a.keyword.value in names]
    dropped = [a.keyword.value for a in args if a.keyword is not None and a.keyword.value not in names]
    if dropped:
        if keep:
            keep[-1] = keep[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        site.node = site.node.with_changes(args=keep)
    return dropped


def starred_list(elements: list) -> cst.BaseExpression:
    """A list display of `elements`; a lone `*[...]` (a list display or comprehension) is that list."""
    if len(elements) == 1 and isinstance(elements[0], cst.StarredElement) \
            and isinstance(elements[0].value, (cst.List, cst.ListComp)) and not elements[0].value.lpar:
        return elements[0].value
    return cst.List(elements)


def _check_stars(call: cst.Call, signature: list, method: bool) -> None:
    """Note [starred arguments]: `*xs` is bound statically only where it lands in a varargs
    parameter of MXNet's own callable: `nd.concat(*data)` (the rule's signature starts with
    `*data`) or a method that takes `*args` (`x.reshape(*shape)`; the receiver is bound
    already). `nd.reshape(x, *s)` fills `shape`, `reverse`, ... in MXNet: Dynamic, like
    `**kwargs`, so a rule with a Gluon-signature helper writes the call for it. A method call
    with `**` and positional arguments in the varargs slot is Manual: the helper takes the
    operator's signature, which the method's `*args` do not follow."""
    starred = [i for i, a in enumerate(a for a in call.args if a.keyword is None) if a.star == "*"]
    double = any(a.star == "**" for a in call.args)
    star_at = next((i for i, s in enumerate(signature) if s.startswith("*")), None)
    if double:
        if method and star_at is not None and any(a.keyword is None and a.star != "**" for a in call.args):
            # Dynamic: a rule's method_runtime takes the method's own signature, so it binds them
            raise Dynamic("positional arguments and ** together on a method call cannot be mapped: "
                          "pass the arguments by keyword, or call the function form")
        raise Dynamic("arguments passed with ** cannot be mapped statically")
    if not starred:
        return
    if star_at is None or not (star_at == 0 or method) or starred[0] < star_at:
        raise Dynamic("arguments passed with * cannot be mapped statically")


def names_node(rule: Rule) -> bool:
    """True for an MXNet operator (`nd.clip`, `F.LeakyReLU`): its `name=` keyword only names
    the node of the symbol graph hybridize builds and changes no value, so binding drops it."""
    return any(m.startswith(("mxnet.ndarray.", "mxnet.symbol.")) for m in rule.matches)


def unknown_receiver(site: Site) -> str:
    """The message for a method that numpy shares, on a value xlate could not type."""
    what = site.code(site.receiver).strip()
    if len(what) > 40:
        what = what[:37] + "..."
    method = "." + site.matched.rsplit(".", 1)[-1]  # a dialect rule matches `mxnet.numpy.ndarray.<m>`
    kind = "an mx.np array" if site.matched.startswith("mxnet.numpy.") else "an MXNet NDArray"
    return (f"could not tell whether `{what}` is {kind} (numpy has `{method}` too); "
            f"if it is: {site.rule.summary}")
