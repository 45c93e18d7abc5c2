"""The LibCST pass that applies the catalogue to one file (see xlate.convert.engine for the pipeline)."""
from __future__ import annotations

import ast
from collections import Counter
from typing import Optional

import libcst as cst

from xlate.convert import (array_methods, func_values, layer_types, legacy_values, names, namespace_getattr,
                           sequential_base)
from xlate.convert.applying import NO_RULE, Applying, _rewrite
from xlate.convert.catalogue import RuleSet
from xlate.convert.collect import sub_namespace
from xlate.convert.fstrings import FStrings
from xlate.convert.kinds import PACKAGES
from xlate.convert.leftovers import Leftovers
from xlate.convert.rebinding import Rebindings
from xlate.convert.rulectx import HELPER_RE, Site, node_literal
from xlate.convert.statements import Statements
from xlate.convert.transforms import back_slice, base_call, grad_update, nd_element, param_grad_req, untyped_compare
from xlate.convert.types import TEST, TypePositions, merged_classes
from xlate.convert.visiting import FastTransformer
from xlate.runtime import sources as helper_sources

PLAIN_INDEX = (cst.Integer, cst.Float, cst.SimpleString, cst.Ellipsis, cst.UnaryOperation)  # never an array
COURSE_LIBRARY = "MX790"  # `from d2l import mxnet as d2l`: reported, never rewritten
ARRAY_INDEX = "[array]"  # the operator rule for `x[idx]` with an MXNet array idx (MX085)
GRAD_WRITE = "[...]="  # ... for an in-place write to an array with a gradient (MX545)
ND_ELEMENT = "[element]"  # ... for `x[i, j]` of integers alone read from an NDArray (MX017)
BACK_SLICE = "[::-k]"  # ... for a slice with a negative step of an MXNet array (MX007)
ITEM_WRITE = "[idx]="  # ... for `x[idx] = v` into an MXNet array x (MX747: the value takes x's dtype)
UNTYPED_COMPARE = "(untyped)"  # ... for `a == b` (any comparison) where neither side is typed (MX542)
DTYPE_EQUAL = ".dtype=="  # ... for `x.dtype == v` / `!=`, a converted value's torch dtype compared (MX806)
BLOCK_WITHOUT_INIT = "[block class without __init__]"  # ... for a Gluon block class that inherits Gluon's __init__ (MX177)
FEATURE_PROBE = "hasattr(mxnet)"  # ... for `hasattr(contrib.cnn, 'Name')`, MXNet's API probed for a feature (MX191)
NP_DTYPE_ARG = "numpy(.dtype)"  # ... for `np.f(x.dtype)`, a converted value's torch dtype handed to NumPy (MX809)
# MXNet functions a package passes as values whose calls the catalogue translates (Note [functions as
# values] in func_values.py): operators, contexts, the numpy dialect, and autograd's scopes
# (`mode = autograd.train_mode if training else autograd.predict_mode`; `with mode():`)
FUNCTION_VALUE_ROOTS = ("mxnet.ndarray.", "mxnet.context.", "mxnet.autograd.", *names.NP_ROOTS)
PACKAGE_FROM_HELPER = "MX891"  # `nlp = try_import_gluonnlp()`: MXNet's package a helper returns (names.py)
NAMESPACE_BY_NAME = "MX174"
NAMESPACE_VALUE = "MX113"
CACHED_METHOD = "MX184"
NESTED_HYBRID_FORWARD = "MX601"


def _dotted(node: cst.BaseExpression, heads: Optional[frozenset] = None) -> Optional[str]:
    """`a.b.c` for a Name/Attribute chain (None otherwise, or when its head is not in `heads`)."""
    parts = []
    while isinstance(node, cst.Attribute):
        parts.append(names.ident(node.attr.value))
        node = node.value
    if isinstance(node, cst.Name) and (heads is None or names.ident(node.value) in heads):
        parts.append(names.ident(node.value))
        return ".".join(reversed(parts))
    return None


def _chain(node: cst.BaseExpression, memo: dict) -> Optional[str]:
    """_dotted without `heads`, remembered per node: the links of `a.b.c...` are left inner
    first, so each is one step from the last (walking every link down to its head was O(n^2))."""
    if isinstance(node, cst.Name):
        return names.ident(node.value)
    if not isinstance(node, cst.Attribute):
        return None
    found = memo.get(id(node))
    if found is not None and found[0] is node:
        return found[1]
    inner = _chain(node.value, memo)
    dotted = None if inner is None else inner + "." + names.ident(node.attr.value)
    memo[id(node)] = (node, dotted)
    return dotted


# Type rules that translate a run-time test themselves: `gluon.ParameterDict` is made by the program
# (MX188's helper) but met as `collect_params()`'s class, which its type rule names
_RUNTIME_TYPE_TRANSFORMS = frozenset({"type_parameter_dict"})


def _tests_by_type_rule(rules, resolved: str) -> bool:
    rule = rules.types.get(resolved)
    return rule is not None and rule.transform in _RUNTIME_TYPE_TRANSFORMS


class Converter(Applying, Statements, FStrings, Leftovers, func_values.FunctionValues, TypePositions, Rebindings,
                FastTransformer):
    def __init__(self, module: cst.Module, analysis: names.Analysis, rules: RuleSet, *, long_names: frozenset,
                 options: Optional[dict] = None):
        super().__init__()
        self.options = options or {}  # user choices rules read (`hybridize`: "drop" or "compile")
        self.module = module
        self.analysis = analysis
        self.rules = rules
        self.long_names = long_names
        self.scopes: list[tuple] = [()]
        self.counts: list[dict] = [{}]
        self.found: list[tuple[cst.CSTNode, str, str, str]] = []  # node, code, status, message
        self.anchors: dict[int, cst.CSTNode] = {}  # id(reported node) -> the line, def or class it was reported in
        self.torch_uses: set[str] = set()
        self._scoped: Optional[bool] = None  # the file opens a Gluon name scope (_name_scopes)
        self.helpers: list[str] = []
        self.survivors: Counter = Counter()  # MXNet import names still referenced
        self.inner: set[int] = set()  # Name/Attribute nodes that are part of a longer chain
        self.call_funcs: set[int] = set()
        self.shaped: set[int] = set()  # original calls whose result is reshaped to (1,) or read with .item()
        self.store_depth = 0
        self.store_saved: list[tuple] = []  # (store_depth, written_into) set aside while a target's subscript is read
        self.written_into = 0  # > 0 inside the array of `x[i] = v` (x is read, then written in place)
        self.suppress: list[Optional[frozenset]] = []
        self.statement_stack: list[cst.SimpleStatementLine] = []
        # id(line or one-line block body) -> {index of a small statement: what replaces it}
        self.statement_rewrites: dict[int, dict[int, list[cst.BaseSmallStatement]]] = {}
        self.rewrite_at: dict[int, int] = {}  # id(line or suite) -> the small statement statement_of found
        self.suites: list[cst.SimpleStatementSuite] = []  # one-line block bodies being visited
        self.emptied: set[int] = set()  # one-line block bodies whose every statement a rule deleted
        # Emitted nodes are looked up by id, and kept alive by these maps: a freed node's id
        # is reused by the next node made, which would then look like it.
        self.full_reductions: dict[int, cst.Call] = {}  # emitted `.reshape(1)` calls (see MX033)
        self.loose: dict[int, cst.BaseExpression] = {}  # emitted operator expressions that may need parentheses
        self.value_lambdas: dict[int, tuple] = {}  # function values made lambdas (Note [functions compared as values])
        self.layers: dict[int, tuple] = {}  # id(emitted constructor) -> (it, layerinfo.LayerInfo)
        self.unwrap: set[int] = set()  # With statements whose body replaces them (name_scope)
        self.around: dict[int, tuple[list, list]] = {}  # With id -> statements before and after it
        self.insertions: dict[int, list] = {}  # open statement id -> statements to put before it
        self.block_stack: list = []  # the statement lists being visited (Module, IndentedBlock bodies)
        self.compound_stack: list = []  # the compound statements being visited (for, while, if, with, try, def, class)
        self.with_stack: list[cst.With] = []
        self.removed: dict[int, cst.CSTNode] = {}  # statement lines a rule deleted (their comments stay)
        # Straight-line order of simple statements: the one left just before each statement,
        # None after any compound statement boundary (see Note [deferred input sizes]).
        self.last_line: Optional[int] = None
        self.line_before: dict[int, Optional[int]] = {}
        self.chains: dict[tuple, tuple] = {}  # (scope, container code) -> (statement id, Shape)
        self.helper_uses: Counter = Counter()  # helper name -> uses emitted and still in the tree
        self.type_tests: set[int] = set()  # class expressions tested by isinstance/issubclass
        self.kept_bool: set[int] = set()  # comparisons MX542 leaves (Note [comparisons of untyped values])
        self.index_masks: set[int] = set()  # comparisons that are an index's element (`x[x > 0]`)
        self.none_tests: set[int] = set()  # left sides of `... is None` / `... is not None`
        self.array_scopes: dict = {}  # scope key -> it handles MXNet arrays (the same Note)
        self.defined_functions: Optional[frozenset] = None  # names of the module's defs (array_methods._defined)
        self.array_compares: set[int] = set()  # comparisons computed with as arrays (the same Note)
        # class expressions compared with a type: `type(x) == C`, `[type(l) for l in f].index(C)`
        self.type_compares: set[int] = set()
        self.arguments: set[int] = set()  # expressions passed as a call's argument
        self.looked_up: set[int] = set()  # the namespace in `getattr(F, name)` (Note [operators by name])
        self.alias_values: set[int] = set()  # `mx.ndarray` in `F = mx.ndarray` (Note [namespace aliases])
        self.own_reads: set[int] = set()  # `F` in `F = getF(x) if F is None else F` (the same Note)
        self.decorator_exprs: set[int] = set()  # the expressions of decorators (`@use_np`)
        self.dropped_decorators: set[int] = set()  # ... that a rule removes
        self.fstring_quotes: list[str] = []  # quotes of the f-strings being visited, outermost first
        self.fstring_marks: list[int] = []  # len(found) where each f-string replacement field began
        self.left_nodes: dict[int, tuple] = {}  # id -> (MXNet expression left, its report, NDArray-valued?)
        self.left_outers: dict[int, tuple] = {}  # report index -> (its message, constructs left with it)
        self.left_names: set[tuple] = set()  # (scope, name) assigned a left NDArray expression
        self.shapes: dict[int, tuple] = {}  # _shape's memo
        self.chains_seen: dict[int, tuple] = {}  # _chain's memo

    # -- utilities used by rules ------------------------------------------
    def code_for(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)

    def dotted(self, node: cst.BaseExpression, heads: Optional[frozenset] = None) -> Optional[str]:
        """`a.b.c` for a Name/Attribute chain of the module (None otherwise, or when its head
        is not in `heads`)."""
        dotted = _chain(node, self.chains_seen)
        if dotted is None or heads is None:
            return dotted
        return dotted if dotted.partition(".")[0] in heads else None

    def resolve_expr(self, node: cst.BaseExpression) -> Optional[str]:
        dotted = self.dotted(node)
        if dotted is None:
            return None
        resolved = self.analysis.resolve(self.scopes[-1], dotted)
        return None if resolved is names.AMBIGUOUS else resolved

    def classify(self, node: cst.BaseExpression) -> Optional[str]:
        return self.analysis.classify(self.scopes[-1], _shape(node, self.shapes))

    def kinds_of(self, node: cst.BaseExpression) -> set:
        """What may have made `node` (a name or attribute): kinds.py's canonical MXNet names."""
        return self.analysis.constructed_by(self.scopes[-1], _shape(node, self.shapes))

    def is_number(self, node: cst.BaseExpression) -> bool:
        return self.analysis.number(self.scopes[-1], _shape(node, self.shapes))

    def use_helper(self, name: str) -> None:
        if name not in self.helpers:
            self.helpers.append(name)
        self.helper_uses[name] += 1

    def dropped(self, node: cst.CSTNode) -> None:
        """A node a later rewrite threw away: its helpers lose a use each, and MXNet code left
        in it is no longer there to report, nor to keep its import."""
        for name in HELPER_RE.findall(self.module.code_for_node(node)):
            self.helper_uses[name] -= 1
        self.forget_left(node)

    def replaced(self, old: cst.CSTNode, new: cst.CSTNode) -> None:
        """`old` gave way to `new`, built from it (a layer rebuilt with its deferred size): the helpers
        `new` names count again, or a helper only `new` still calls was never imported."""
        self.dropped(old)
        for name in HELPER_RE.findall(self.module.code_for_node(new)):
            self.use_helper(name)

    def drop_decorator(self, expr: cst.CSTNode) -> bool:
        """Remove the decorator whose expression `expr` is (False: it is not a decorator)."""
        if id(expr) not in self.decorator_exprs:
            return False
        self.dropped_decorators.add(id(expr))
        return True

    def retract(self, node: cst.CSTNode, code: Optional[str] = None, *, within: bool = False) -> None:
        """Take back what was reported at `node` (or anywhere inside it), of `code` only where given: a later
        rewrite replaced it and says what it did itself. Entries become None in place (reports are referred
        to by their index)."""
        nodes = {id(node)}
        if within:
            stack = [node]
            while stack:
                sub = stack.pop()
                nodes.add(id(sub))
                stack.extend(sub.children)
        self.found[:] = [None if f is not None and id(f[0]) in nodes and (code is None or f[1] == code) else f
                         for f in self.found]

    def report(self, node: cst.CSTNode, code: str, status: str, message: str) -> None:
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            node = node.name  # a definition's text starts with the blank lines and decorators above it
        anchor = self.statement_stack or self.defs  # where positions.locate looks for it first
        if anchor:
            self.anchors.setdefault(id(node), anchor[-1])
        self.found.append((node, code, status, message))

    @property
    def defs(self) -> list:
        """The defs and classes being visited, innermost last (from the compound statements)."""
        return [n for n in self.compound_stack if isinstance(n, (cst.FunctionDef, cst.ClassDef))]

    # -- scopes -------------------------------------------------------------
    def _enter(self, name: str) -> None:
        counts = self.counts[-1]
        n = counts.get(name, 0)
        counts[name] = n + 1
        self.scopes.append(self.scopes[-1] + ((name, n),))
        self.counts.append({})

    def _leave(self) -> None:
        self.scopes.pop()
        self.counts.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> Optional[bool]:
        self._enter(names.ident(node.name.value))
        self.last_line = None
        self.compound_stack.append(node)
        return not self._pasted_helper(node)

    def _pasted_helper(self, node) -> bool:
        """A module-level `_mx_*` helper a previous conversion pasted: torch code whose
        parameters are of unknown kind (`array.transpose(*axes)` is NumPy's there), never
        rewritten again."""
        return len(self.scopes) == 2 and names.ident(node.name.value) in helper_sources()

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        self.last_line = None
        rule = self.rules.defs.get(names.ident(original.name.value))
        if rule is not None and self._method() and self.analysis.gluon_class(self.scopes[-1]) is not None:
            # still on the stack: what the rule reports is looked for in this def (positions.py)
            updated = self._apply(Site(self, rule, original, updated, matched=original.name.value))
        elif rule is not None and rule.code == "MX103" and self.analysis.gluon_class(self.scopes[-1]) is not None \
                and self.rules.enabled(NESTED_HYBRID_FORWARD) and not self._suppressed(NESTED_HYBRID_FORWARD):
            self.report(original, NESTED_HYBRID_FORWARD, "manual",
                        "`def hybrid_forward` inside another method of a Gluon block: Gluon never calls it (the block "
                        "has no forward in MXNet either) -> left: dedent it into the class's body")
        if self._method() and self.analysis.gluon_class(self.scopes[-1]) is not None:
            self._cached_method(original)
        if self.scopes[-1] in self.analysis.guessed_namespaces and not self._suppressed(NAMESPACE_BY_NAME) \
                and self.rules.enabled(NAMESPACE_BY_NAME):  # Note [F by its name] in collect.py
            params = {p.name.value for p in original.params.params}
            self.report(original, NAMESPACE_BY_NAME, "review",
                        "parameter `F` taken as MXNet's operator namespace by its name (no hybrid_forward of this "
                        "file hands it out): its `F.*` calls are translated as MXNet's; check that callers pass it"
                        if "F" in params else
                        "abstract property `F` taken as MXNet's operator namespace by its name: the class's "
                        "`self.F.*` calls are translated as MXNet's; check that every subclass gives it"
                        if original.name.value == "F" and _abstract_body(original) else
                        "`self.F`, given by a base class of another module or handed on from another object, "
                        "taken as MXNet's operator namespace by its name (Note [F from elsewhere] in kinds.py): "
                        "its `F.*` calls are translated as MXNet's; check that it is")
        self.compound_stack.pop()
        self._leave()
        return updated

    def _cached_method(self, node: cst.FunctionDef) -> None:
        """MX184: `@lru_cache` on a method of a Gluon block that takes arguments (sockeye's
        `_take_slice(self, vocab_slice_ids)`): said at the decorator. Note [cached methods]: the cache
        keys on identity for tensors as for NDArrays, but keeps results with their autograd graph."""
        if len(node.params.params) < 2 or not self.rules.enabled(CACHED_METHOD) or self._suppressed(CACHED_METHOD):
            return
        for decorator in node.decorators:
            expr = decorator.decorator.func if isinstance(decorator.decorator, cst.Call) else decorator.decorator
            if (self.dotted(expr) or "").rsplit(".", 1)[-1] in ("lru_cache", "cache"):
                self.report(expr, CACHED_METHOD, "review",
                            "a cached method of a block that takes arrays: the cache is keyed on each tensor's "
                            "identity, as it was on NDArrays, and keeps its results with their autograd graph; a "
                            "result computed from parameters stays the value before an optimizer step, and a second "
                            "backward through it fails: cache only under torch.no_grad() (inference), or drop it")

    def _own_member(self, receiver: cst.BaseExpression, member: str) -> bool:
        """`self.<member>` where the enclosing class assigns `self.<member>` or defines it."""
        if not (isinstance(receiver, cst.Name) and receiver.value == "self" and member.startswith(".")):
            return False
        scope = self.analysis.scopes.get(self.scopes[-1])
        while scope is not None and not scope.is_class:
            scope = scope.parent
        return scope is not None and (member[1:] in scope.attrs or member[1:] in scope.other)

    def rewrite(self, site: Site):
        return _rewrite(site)

    def _method(self) -> bool:
        """The def being left sits right in a class body (a def nested in a method is no method)."""
        scope = self.analysis.scopes.get(self.scopes[-1])
        return scope is not None and scope.parent is not None and scope.parent.is_class

    def visit_ClassDef(self, node: cst.ClassDef) -> Optional[bool]:
        self._enter(names.ident(node.name.value))
        self.last_line = None
        self.compound_stack.append(node)
        return not self._pasted_helper(node)

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        self.last_line = None
        self.compound_stack.pop()
        scope = self.analysis.scopes.get(self.scopes[-1])
        self._leave()
        updated = sequential_base.rebase(self, original, updated)
        init_rule = self.rules.operators.get(BLOCK_WITHOUT_INIT)
        if init_rule is not None and scope is not None and scope.block_bases \
                and len(scope.block_bases) == len(original.bases) and isinstance(original.body, cst.IndentedBlock) \
                and not any(isinstance(s, cst.FunctionDef) and s.name.value == "__init__" for s in original.body.body):
            updated = self._apply(Site(self, init_rule, original, updated, matched=BLOCK_WITHOUT_INIT))
        if scope is not None and scope.derived_base and scope.block_bases and len(updated.bases) > 1:
            # `class E(HybridBlock, Encoder)` with Encoder a Gluon block of the tree: `nn.Module`
            # before its own subclass is no consistent MRO (TypeError at import); Encoder brings
            # nn.Module along, so that base goes
            kept = [b for i, b in enumerate(updated.bases) if i not in scope.block_bases]
            if kept and len(updated.bases) == len(original.bases):
                kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
                return updated.with_changes(bases=kept)
        return updated

    # Decorators, defaults, bases and annotations belong to the enclosing scope.
    def visit_FunctionDef_decorators(self, node: cst.FunctionDef) -> None:
        self._outer(True)

    def leave_FunctionDef_decorators(self, node: cst.FunctionDef) -> None:
        self._outer(False)

    # (parameter names are stores: only their defaults and annotations are read, out there)
    def visit_FunctionDef_params(self, node: cst.FunctionDef) -> None:
        self._outer(True)

    def leave_FunctionDef_params(self, node: cst.FunctionDef) -> None:
        self._outer(False)

    def visit_FunctionDef_returns(self, node: cst.FunctionDef) -> None:
        self._outer(True)

    def leave_FunctionDef_returns(self, node: cst.FunctionDef) -> None:
        self._outer(False)

    def visit_ClassDef_decorators(self, node: cst.ClassDef) -> None:
        self._outer(True)

    def leave_ClassDef_decorators(self, node: cst.ClassDef) -> None:
        self._outer(False)

    def visit_ClassDef_bases(self, node: cst.ClassDef) -> None:
        self._outer(True)

    def leave_ClassDef_bases(self, node: cst.ClassDef) -> None:
        self._outer(False)

    def _outer(self, entering: bool) -> None:
        if entering:
            self.scopes.append(self.scopes[-2])
        else:
            self.scopes.pop()

    # -- where a Name is not a load -----------------------------------------
    def _store_in(self, *_):
        self.store_depth += 1

    def _store_out(self, *_):
        self.store_depth -= 1

    def _store_out_node(self, original, updated):
        self.store_depth -= 1
        return updated

    # `x[i] = v` and `x.a[i] += v` read x, x.a and i: inside a target, a subscript's value and
    # slice are loads, translated as any other (`self._children[k] = b` is `self._modules[k] = b`)
    def _value_in(self, *_):
        written = bool(self.store_depth) or bool(self.written_into)
        self._load_in()
        self.written_into = int(written)

    def _load_in(self, *_):
        self.store_saved.append((self.store_depth, self.written_into))
        self.store_depth = self.written_into = 0

    def _load_out(self, *_):
        self.store_depth, self.written_into = self.store_saved.pop()

    visit_Subscript_value, leave_Subscript_value = _value_in, _load_out
    visit_Subscript_slice, leave_Subscript_slice = _load_in, _load_out

    # field hooks (visit_Node_field) return nothing; node hooks must return the node
    visit_Attribute_attr = visit_Arg_keyword = visit_Param_name = _store_in
    leave_Attribute_attr = leave_Arg_keyword = leave_Param_name = _store_out
    visit_FunctionDef_name = visit_ClassDef_name = visit_AssignTarget_target = _store_in
    leave_FunctionDef_name = leave_ClassDef_name = leave_AssignTarget_target = _store_out
    visit_AugAssign_target = visit_AnnAssign_target = visit_For_target = _store_in
    leave_AugAssign_target = leave_AnnAssign_target = leave_For_target = _store_out
    visit_CompFor_target = visit_NamedExpr_target = visit_Del_target = _store_in
    leave_CompFor_target = leave_NamedExpr_target = leave_Del_target = _store_out
    visit_AsName = visit_Global = visit_Nonlocal = _store_in
    leave_AsName = leave_Global = leave_Nonlocal = _store_out_node

    def visit_Decorator(self, node: cst.Decorator) -> None:
        self.decorator_exprs.add(id(node.decorator))

    def leave_Decorator(self, original: cst.Decorator, updated: cst.Decorator):
        return cst.RemovalSentinel.REMOVE if id(original.decorator) in self.dropped_decorators else updated

    def visit_Import(self, node: cst.Import) -> bool:
        for alias in node.names:
            self._course_library(node, cst.helpers.get_full_name_for_node(alias.name) or "")
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        if not node.relative and node.module is not None and not isinstance(node.names, cst.ImportStar):
            module = cst.helpers.get_full_name_for_node(node.module) or ""
            for alias in node.names:
                self._course_library(node, f"{module}.{cst.helpers.get_full_name_for_node(alias.name)}")
        return False

    def _course_library(self, node: cst.CSTNode, dotted: str) -> None:
        """A course's helper library with an MXNet backend (`from d2l import mxnet as d2l`):
        left, and reported with what to do (Note [course libraries] in names.py)."""
        if names.course_library(dotted) and not self._suppressed(COURSE_LIBRARY):
            rule = self.rules.all.get(COURSE_LIBRARY)
            if rule is not None and self.rules.enabled(COURSE_LIBRARY):
                self.report(node, COURSE_LIBRARY, "manual", rule.summary.replace("`d2l.mxnet`", f"`{dotted}`"))

    # -- references -----------------------------------------------------------
    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.inner.add(id(node.value))
        untyped_compare.note_array_use(self, node.value)  # `(x != 0).mean()`

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if isinstance(node.operator, untyped_compare.ARITHMETIC):  # `(x > 0) - 1`; `&` wants torch's bool
            untyped_compare.note_array_use(self, node.left)
            untyped_compare.note_array_use(self, node.right)

    def visit_BooleanOperation(self, node: cst.BooleanOperation) -> None:
        self.note_or_tests(node)

    # Note [comparisons of untyped values]: what only a comparison's truth is read from, or what it indexes
    def visit_IfExp(self, node: cst.IfExp) -> None:
        untyped_compare.note_truth_value(self, node.test)

    def visit_Assert(self, node: cst.Assert) -> None:
        untyped_compare.note_truth_value(self, node.test)

    def visit_CompIf(self, node: cst.CompIf) -> None:
        untyped_compare.note_truth_value(self, node.test)

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
        if isinstance(node.operator, cst.Not):
            untyped_compare.note_truth_value(self, node)

    def visit_SubscriptElement(self, node: cst.SubscriptElement) -> None:
        if isinstance(node.slice, cst.Index) and isinstance(node.slice.value, cst.Comparison):
            self.kept_bool.add(id(node.slice.value))
            self.index_masks.add(id(node.slice.value))  # Note [a comparison as an index] in compare_dtype.py

    def visit_Call(self, node: cst.Call) -> None:
        self.call_funcs.add(id(node.func))
        untyped_compare.note_proven(self, node)
        self.arguments.update(id(a.value) for a in node.args)
        if namespace_getattr.namespace_of(self, node) is not None:  # Note [operators by name]
            self.looked_up.add(id(node.args[0].value))
        self.note_type_call(node)
        if isinstance(node.func, cst.Name) and node.func.value in ("isinstance", "issubclass") \
                and len(node.args) == 2:
            tested = node.args[1].value
            items = [e.value for e in tested.elements] if isinstance(tested, cst.Tuple) else [tested]
            self.type_tests.update(id(t) for t in items)
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in ("index", "count", "remove") \
                and len(node.args) == 1 and isinstance(node.func.value, (cst.ListComp, cst.GeneratorExp)) \
                and _type_of(node.func.value.elt):
            self.type_compares.add(id(node.args[0].value))  # `[type(l) for l in feat].index(C)`
        # `x.mean().reshape(1)`, `x.mean().item()`, `.asscalar()`: the reduction's 0-d result is never seen
        func = node.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Call) and (
                func.attr.value in ("item", "asscalar") and not node.args
                or func.attr.value == "reshape" and len(node.args) == 1 and node_literal(node.args[0].value) in (1, (1,))):
            self.shaped.add(id(func.value))
        elif isinstance(func, cst.Name) and func.value == "_mx_asscalar" and len(node.args) == 1 \
                and isinstance(node.args[0].value, cst.Call):
            self.shaped.add(id(node.args[0].value))  # the same, converted once already (a second pass)

    def leave_Name(self, original: cst.Name, updated: cst.Name):
        name = names.ident(original.value)
        if name not in self.analysis.imported or self.store_depth \
                or id(original) in self.inner or id(original) in self.call_funcs:
            return updated
        return self._reference(original, updated, name)

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute):
        if self.store_depth:
            return self._stored_attribute(original, updated)
        if id(original) not in self.call_funcs:  # `mod._exec_group`: Note [symbol and Module values]
            left = legacy_values.left_attribute(self, original, updated)
            if left is not None:
                return left
        chained = id(original) in self.inner or id(original) in self.call_funcs
        if self.analysis.namespace_values and isinstance(original.value, cst.Name):
            self._namespace_maybe(original)
        dotted = self.dotted(original, self.analysis.imported)
        if dotted is not None:
            head = dotted.split(".", 1)[0]
            if self.analysis.lookup(self.scopes[-1], head) is not None or self._self_namespace_member(dotted):
                return updated if chained else self._reference(original, updated, dotted)
        member = "." + names.ident(original.attr.value)
        rule, member = self._member_rule(self.rules.references, member, original.value)
        if rule is None or (chained and not rule.chained):  # `x.context.device_type` is no context
            return updated
        site = Site(self, rule, original, updated, matched=member, receiver=updated.value)
        site.args = {rule.signature[0] if rule.signature else "data": cst.Arg(updated.value)}
        return self._apply(site, receiver_node=original.value)

    def _self_namespace_member(self, dotted: str) -> bool:
        """`self.F.sample_normal` passed as a value (`partial(self.F.sample_normal, dtype=d)`) where
        `self.F` is MXNet's namespace (Note [F kept on self]): a function reference like `F.op`."""
        if not dotted.startswith("self.") or dotted.count(".") < 2:
            return False
        resolved = self.analysis.resolve(self.scopes[-1], dotted)
        return isinstance(resolved, str) and names.is_mxnet(resolved)

    def _namespace_maybe(self, original: cst.Attribute) -> None:
        """`F.concat(x, y)` where `F` holds MXNet's namespace on one path and something else on
        another (bound twice, at module level, global): neither translated nor silent."""
        name = names.ident(original.value.value)
        scope = self.analysis.scopes.get(self.scopes[-1])
        while scope is not None and name not in scope.values and name not in scope.imports:
            scope = scope.parent
        scope = scope.declared.get(name, scope) if scope is not None else None  # `global F`
        if scope is None or (scope.key, name) not in self.analysis.namespace_values or self._suppressed(NO_RULE):
            return
        self.report(original, NO_RULE, "manual",
                    f"`{name}.{names.ident(original.attr.value)}`: `{name}` may hold MXNet's operator namespace (it is "
                    "bound to it and to something else, or at module level), so this stays as written: give the "
                    "namespace one binding in the function, or translate by hand")

    def _stored_attribute(self, original: cst.Attribute, updated: cst.Attribute):
        """`mx.autograd = autograd`, `del nd.foo`, `gluon.x += 1`: a statement that writes into an
        MXNet module reads its import, which must stay (and the write has no translation)."""
        if id(original) in self.inner:
            return updated  # `mx.nd` of `mx.nd.x = v`: the whole target is reported
        dotted = _dotted(original, self.analysis.imported)
        resolved = self.analysis.resolve(self.scopes[-1], dotted) if dotted else None
        if not names.is_mxnet(resolved):
            return updated
        head = dotted.split(".", 1)[0]
        self.survivors[head] += 1
        if not self._suppressed(NO_RULE):
            self.report(original, NO_RULE, "manual",
                        f"`{dotted}` is written to: MXNet's module `{resolved.rsplit('.', 1)[0]}` changed at run time "
                        "has no PyTorch translation; the MXNet import stays for it (remove the write, or port it by hand)")
        return updated

    def _reference(self, original, updated, dotted: str):
        """A Name/Attribute chain that is not called: `nd.NDArray`, a context passed around."""
        if id(original) in self.looked_up:  # `getattr(F, name)`: the lookup is translated whole
            return updated
        resolved = self.analysis.resolve(self.scopes[-1], dotted)
        if resolved is None:
            return updated
        if id(original) in self.alias_values and isinstance(resolved, str) and sub_namespace(resolved) \
                and self.rules.enabled(NAMESPACE_VALUE):  # `ops = F.contrib` (Note [namespace aliases])
            self.report(original, NAMESPACE_VALUE, "fixed",
                        f"`{dotted}` (a module of MXNet's operator namespace) bound to a name of its own -> `None`: "
                        "the calls made through that name are translated where they are made")
            return cst.Name("None")
        head = dotted.split(".", 1)[0]
        if resolved is names.AMBIGUOUS:
            return self._ambiguous(original, updated, head)
        if not names.is_mxnet(resolved):
            return updated
        if self.type_position(original) is not None and not (
                (id(original) in self.type_tests or id(original) in self.type_compares)
                and resolved in self.rules.classes and not _tests_by_type_rule(self.rules, resolved)):
            typed = self.type_reference(original, updated, head, resolved)
            if typed is not None:
                return typed
        rule = self.rules.references.get(resolved)
        if rule is None and resolved in self.rules.classes:
            return self._class_value(original, updated, head, resolved)
        if rule is None:
            called = self.rules.calls.get(resolved)
            if called is not None and resolved.startswith(FUNCTION_VALUE_ROOTS):
                return self.function_value(original, updated, head, resolved, called)
            return self._no_rule(original, updated, head, resolved)
        return self._apply(Site(self, rule, original, updated, matched=resolved), head=head)

    def visit_Comparison(self, node: cst.Comparison) -> None:
        """`type(x) == C`, `type(x) is not C` (a class compared with another class value, as in
        `norm_layer != nn.BatchNorm`, stays the value both sides translate to)."""
        sides = [node.left] + [t.comparator for t in node.comparisons]
        if len(node.comparisons) == 1 and isinstance(node.comparisons[0].operator, (cst.Is, cst.IsNot)) \
                and isinstance(node.comparisons[0].comparator, cst.Name) and node.comparisons[0].comparator.value == "None":
            self.none_tests.add(id(node.left))  # `param._data is not None` (MX178: whether it is initialised)
        if any(_type_of(side) for side in sides) and all(
                isinstance(t.operator, (cst.Equal, cst.NotEqual, cst.Is, cst.IsNot)) for t in node.comparisons):
            self.type_compares.update(id(side) for side in sides)
            for side in sides:  # `type(arg) != mx.gluon.ParameterDict`: the class is tested as a type
                if not _type_of(side):
                    self.mark_type(side, TEST)

    def _class_value(self, original, updated, head: str, resolved: str):
        """A Gluon layer class used as a value (`norm_layer=nn.BatchNorm`, a base class): its
        Gluon-signature helper, which takes the same arguments; in isinstance, the torch class
        every translation of the layer is."""
        rule = self.rules.classes[resolved]
        if self._suppressed(rule.code) or not self.rules.enabled(rule.code):
            self.survivors[head] += 1
            if not self._suppressed(rule.code):
                self.report(original, rule.code, "manual", f"{rule.name}: rule not selected")
            return updated
        short = resolved.rsplit(".", 1)[-1]
        site = Site(self, rule, original, updated, matched=resolved)
        if id(original) in self.type_tests and rule.instance_for(resolved):
            target = rule.instance_for(resolved)
            message = f"`{short}` in a type test -> `{target}`, the torch class every translation of it is"
        elif id(original) in self.type_compares and layer_types.in_use(self) and rule.runtime_for(resolved):
            target = rule.runtime_for(resolved)  # `_mx_type(m) == _mx_Conv2D`: Note [exact layer types]
            message = f"`{short}` compared as a type -> `{target}`, as `_mx_type` gives for every translation of it"
        elif id(original) in self.type_compares and rule.instance_for(resolved):
            # an exact type: a layer xlate built from literal arguments is the torch class, one
            # built from run-time arguments its Gluon-signature subclass
            target = rule.instance_for(resolved)
            self.report(original, rule.code, "review",
                        f"`{short}` compared as a type -> `{target}`, the class of its translations whose "
                        f"arguments xlate knew; one built from run-time arguments is `{rule.runtime_for(resolved)}`, "
                        f"a subclass: if both can occur, test with isinstance")
            return site.emit(target)
        else:
            target = rule.runtime_for(resolved)
            message = (f"`{short}` as a value -> `{target}`, which takes Gluon's own arguments "
                       "(Note [Gluon-signature modules])")
        # a sampler's helper draws from torch's stream (MX800): review, as its calls are
        self.report(original, rule.code, "review" if rule.applicability == "review" else "fixed", message)
        return site.emit(target)

    def leave_Call(self, original: cst.Call, updated: cst.Call):
        if isinstance(original.func, cst.Name) and original.func.value == "type":  # Note [exact layer types]
            typed = layer_types.type_call(self, original, updated)
            if typed is not None:
                return typed
        if original.args and id(original.args[0].value) in self.looked_up:  # Note [operators by name]
            return namespace_getattr.rewrite(self, original, updated)
        probe = self.rules.operators.get(FEATURE_PROBE)
        if probe is not None and isinstance(original.func, cst.Name) and original.func.value == "hasattr":
            return self._apply(Site(self, probe, original, updated, matched=FEATURE_PROBE))
        dotted = self.dotted(original.func, self.analysis.imported)
        if dotted is not None:
            head = dotted.split(".", 1)[0]
            resolved = self.analysis.resolve(self.scopes[-1], dotted)
            if resolved is names.AMBIGUOUS:
                return self._ambiguous(original, updated, head)
            if resolved is not None and names.is_mxnet(resolved):
                rule = self.rules.calls.get(resolved) or base_call.base_rule(self.rules, resolved)
                if rule is None and self.type_position(original.func) is not None:  # `raise mx.base.MXNetError(m)`
                    typed = self.type_reference(original.func, updated.func, head, resolved)
                    if typed is not None:
                        return updated.with_changes(func=typed)
                if rule is None:
                    return self._no_rule(original, updated, head, resolved)
                site = Site(self, rule, original, updated, matched=resolved, receiver_kind="nd")
                return self._bound(site, head=head)
            if resolved is not None:
                return self._numpy_call(original, updated, resolved)
        if isinstance(original.func, cst.Attribute):
            left = legacy_values.left_method(self, original, updated)  # Note [symbol and Module values]
            if left is not None:
                return left
            member = "." + names.ident(original.func.attr.value)
            rule, member = self._member_rule(self.rules.calls, member, original.func.value)
            if rule is not None:
                site = Site(self, rule, original, updated, matched=member, receiver=updated.func.value)
                return self._bound(site, receiver_node=original.func.value)
            left = array_methods.leave_method(self, original, updated)  # Note [array methods without a method rule]
            if left is not None:
                return left
        return merged_classes(original, updated)  # Note [tests the translation made one]

    def _numpy_call(self, original: cst.Call, updated: cst.Call, resolved: str):
        """`np.issubdtype(x.dtype, ...)`: a `.dtype` handed to NumPy (MX809, np_dtype_arg.py)."""
        rule = self.rules.operators.get(NP_DTYPE_ARG)
        if rule is None or not (resolved == "numpy" or resolved.startswith("numpy.")) or not any(
                isinstance(a.value, cst.Attribute) and a.value.attr.value == "dtype" for a in original.args):
            return updated
        return self._apply(Site(self, rule, original, updated, matched=NP_DTYPE_ARG))

    _COMPARISONS = {cst.Equal: "==", cst.NotEqual: "!=", cst.LessThan: "<", cst.LessThanEqual: "<=",
                    cst.GreaterThan: ">", cst.GreaterThanEqual: ">="}

    def leave_Comparison(self, original: cst.Comparison, updated: cst.Comparison):
        """`a == b` on arrays (the operator rules: MXNet compares to float 0/1, torch to bool)."""
        self.compared_lambdas(original, updated)  # Note [functions compared as values]
        if len(original.comparisons) != 1:
            return updated
        folded = param_grad_req.fold(updated)  # `p.grad_req == 'null'` -> `not p.requires_grad`
        if folded is not None:
            return folded
        op = self._COMPARISONS.get(type(original.comparisons[0].operator))
        if isinstance(original.comparisons[0].operator, (cst.Is, cst.IsNot)) and any(
                (self.resolve_expr(s) or "").startswith("numpy.") for s in (original.left, original.comparisons[0].comparator)):
            op = "is"  # `x.dtype is np.float32`: an NDArray's dtype is that very NumPy type (MX806)
        dtype_rule = self.rules.operators.get(DTYPE_EQUAL) if op in ("==", "!=", "is") else None
        if dtype_rule is not None and any(isinstance(s, cst.Attribute) and s.attr.value == "dtype"
                                          for s in (original.left, original.comparisons[0].comparator)):
            site = Site(self, dtype_rule, original, updated, matched=DTYPE_EQUAL)
            site.args = {"lhs": cst.Arg(updated.left), "rhs": cst.Arg(updated.comparisons[0].comparator)}
            return self._apply(site)
        rule = self.rules.operators.get(op) if op and op != "is" else None
        if rule is None:
            return updated
        site = Site(self, rule, original, updated, matched=op)
        site.args = {"lhs": cst.Arg(updated.left), "rhs": cst.Arg(updated.comparisons[0].comparator)}
        new = self._apply(site)
        untyped = self.rules.operators.get(UNTYPED_COMPARE)
        if new is not updated or untyped is None or not self.rules.enabled(untyped.code):
            return new
        site = Site(self, untyped, original, updated, matched=UNTYPED_COMPARE + op)  # Note [comparisons of untyped values]
        site.args = {"lhs": cst.Arg(updated.left), "rhs": cst.Arg(updated.comparisons[0].comparator)}
        return self._apply(site)

    # An emitted operator expression starts out parenthesised; where its parent cannot
    # change how it binds (a whole right-hand side, an argument, an element), drop them.
    def _unwrap(self, original, updated):
        value = updated.value
        if value is None or self.loose.get(id(value)) is not value:
            return updated
        return updated.with_changes(value=self._moved(value, value.with_changes(lpar=[], rpar=[])))

    leave_Return = _unwrap

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript):
        """`x[idx]` with an MXNet array idx (MX085: float indices); `x[::-1]` (MX007)."""
        rule = self.rules.operators.get(ARRAY_INDEX)
        if rule is not None and any(isinstance(e.slice, cst.Index) and not isinstance(e.slice.value, PLAIN_INDEX)
                                    for e in original.slice):
            updated = self._apply(Site(self, rule, original, updated, matched=ARRAY_INDEX))
        rule = self.rules.operators.get(BACK_SLICE)
        if rule is not None and isinstance(updated, cst.Subscript) \
                and any(back_slice.negative(e) for e in original.slice) \
                and back_slice.array_like(self, original.value):
            if not self.store_depth and not self.written_into:
                return self._apply(Site(self, rule, original, updated, matched=BACK_SLICE))
            if self.rules.enabled(rule.code) and not self._suppressed(rule.code):
                self.report(original, rule.code, "manual", "a write through a slice with a negative step: torch's "
                            "slices refuse one; write at the mirrored positions of the array itself")
        rule = self.rules.operators.get(ND_ELEMENT)
        if rule is not None and isinstance(updated, cst.Subscript) and not self.store_depth \
                and not self.written_into and nd_element.integers_only(original) \
                and (self.classify(original.value) == "nd" or nd_element.untyped_element(self, original)):
            return self._apply(Site(self, rule, original, updated, matched=ND_ELEMENT))
        return updated

    def _grad_write(self, original, updated):
        """`p[...] = v` / `p -= v` where this scope reads `p.grad` (MX545)."""
        rule = self.rules.operators.get(GRAD_WRITE)
        written = grad_update.written_name(original)
        scope = self.analysis.scopes.get(self.scopes[-1])
        if rule is None or written is None or scope is None or names.ident(written.value) not in scope.grad_reads:
            return updated
        return self._apply(Site(self, rule, original, updated, matched=GRAD_WRITE))

    def leave_AugAssign(self, original: cst.AugAssign, updated: cst.AugAssign):
        return self._grad_write(original, self._element_update(original, self._unwrap(original, updated)))

    def _element_update(self, original: cst.AugAssign, updated: cst.AugAssign):
        """`x[i] += v` on an NDArray's element (MX017): MXNet's element is (1,), and so is what adds
        to it (`nd.dot` of two vectors, a full sum); torch's element is 0-d, and an in-place
        operator refuses a (1,) operand there. `_mx_as_element(v)` gives a one-element vector's
        value as 0-d and any other value as it is."""
        rule = self.rules.operators.get(ND_ELEMENT)
        target = original.target
        if rule is None or not isinstance(target, cst.Subscript) or not nd_element.integers_only(target) \
                or self.classify(target.value) != "nd" or not self.rules.enabled(rule.code) \
                or self._suppressed(rule.code) or self.is_number(original.value):
            return updated  # `p[i] += 1`: a number is no (1,) operand
        self.use_helper("_mx_as_element")
        self.report(original, rule.code, "fixed", "an in-place update of an NDArray's element: what updates it "
                    "goes through `_mx_as_element(...)` (MXNet's (1,) operand to torch's 0-d element)")
        return updated.with_changes(value=cst.Call(cst.Name("_mx_as_element"), [cst.Arg(updated.value)]))

    def visit_Assign(self, node: cst.Assign) -> None:
        self.note_rebinding(node)  # Note [an MXNet module given its own submodule]
        untyped_compare.note_assigned(self, node)  # `pos = ct > 0`, then `pos - 1`
        if len(node.targets) == 1:
            self._alias_value(node.targets[0].target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._alias_value(node.target, node.value)

    def _alias_value(self, target: cst.BaseExpression, value) -> None:
        if isinstance(target, cst.Name) and value is not None:
            scope = self.analysis.scopes.get(self.scopes[-1])
            if scope is not None and target.value in scope.aliases:
                self.alias_values.add(id(value))
                if target.value in scope.mx_params:  # the parameter read in its own rebinding stays itself
                    self.own_reads.update(id(n) for n in _own_reads(value, target.value))
                package = scope.imports.get(target.value)
                if package in PACKAGES and isinstance(value, cst.Call) and self.rules.enabled(PACKAGE_FROM_HELPER):
                    # Note [a package returned by a helper] in collect.py
                    self.report(value, PACKAGE_FROM_HELPER, "review",
                                f"`{target.value}` is MXNet's `{package}`, which `{cst.Module([]).code_for_node(value.func)}()` returns: "
                                f"its uses are translated where they are made; the call still imports `{package}` and "
                                f"fails without it: drop it once nothing left reads `{target.value}`")

    def leave_AnnAssign(self, original: cst.AnnAssign, updated: cst.AnnAssign):
        """`n: T = value` flows as `n = value` (names.py binds it the same way)."""
        if isinstance(original.target, cst.Name) and updated.value is not None:
            self.left_assigned(names.ident(original.target.value), updated.value)
        return self._unwrap(original, updated)

    def leave_Assign(self, original: cst.Assign, updated: cst.Assign):
        """`obj.attr = value` with a rule for `.attr` (`p.grad_req = 'null'`): the rule's
        transform returns the replacement statement."""
        target = original.targets[0].target if len(original.targets) == 1 else None
        dropped = self.drop_rebinding(original, updated)
        if dropped is not None:
            return dropped
        if isinstance(target, cst.Attribute):
            member = "." + target.attr.value
            rule = self.rules.assigns.get(member)
            if rule is not None and self._own_member(target.value, member) \
                    and self.analysis.gluon_class(self.scopes[-1]) is None:
                rule = None  # `self.lr_mult = {}` in a class of its own (the optimizer helpers)
            if rule is not None:
                receiver = updated.targets[0].target.value
                site = Site(self, rule, original, updated, matched=member, receiver=receiver)
                site.args = {"target": cst.Arg(receiver), "value": cst.Arg(updated.value)}
                return self._apply(site, receiver_node=target.value)
        if isinstance(target, cst.Name):
            self.left_assigned(names.ident(target.value), updated.value)
        if isinstance(target, cst.Subscript):
            rule = self.rules.operators.get(ITEM_WRITE)
            if rule is not None and self.classify(target.value) in ("nd", "mxnp"):
                updated = self._apply(Site(self, rule, original, updated, matched=ITEM_WRITE))
            return self._grad_write(original, self._unwrap(original, updated))
        return self._unwrap(original, updated)
    leave_Arg = leave_Element = leave_DictElement = leave_Expr = _unwrap

    def leave_Param(self, original: cst.Param, updated: cst.Param):
        """A default value binds as a whole: `def f(act=lambda data: ...)` needs no parentheses."""
        default = updated.default
        if default is None or self.loose.get(id(default)) is not default:
            return updated
        return updated.with_changes(default=self._moved(default, default.with_changes(lpar=[], rpar=[])))


def _own_reads(value: cst.BaseExpression, name: str) -> list:
    """The reads of `name` among the branches of `F = getF(x) if F is None else F`, `F = F or mx.nd`."""
    if isinstance(value, cst.Name):
        return [value] if value.value == name else []
    if isinstance(value, cst.IfExp):
        return _own_reads(value.body, name) + _own_reads(value.orelse, name) + [
            n for n in _names_in(value.test) if n.value == name]
    if isinstance(value, cst.BooleanOperation):
        return _own_reads(value.left, name) + _own_reads(value.right, name)
    return []


def _names_in(node: cst.CSTNode) -> list:
    """`F` of `F is None`, `F is not None`, `not F`, `F` (an IfExp's test)."""
    if isinstance(node, cst.Name):
        return [node]
    if isinstance(node, cst.UnaryOperation):
        return _names_in(node.expression)
    if isinstance(node, cst.Comparison):
        return _names_in(node.left)
    return []


def _shape(node: cst.BaseExpression, memo: Optional[dict] = None) -> ast.expr:
    """The parts of an expression names.Analysis.classify looks at, as `ast` nodes, built
    structurally (re-parsing the rendered text cost 0.2x parse + render on dense code).
    With `memo` (id -> (node, shape)), a node shaped before gives the same `ast` node, whose
    kind Analysis remembers: a chain of n calls is shaped and classified in O(n), not O(n^2)."""
    if memo is None:
        return _shaped(node, lambda n: _shape(n))
    found = memo.get(id(node))
    if found is not None and found[0] is node:
        return found[1]
    shape = _shaped(node, lambda n: _shape(n, memo))
    memo[id(node)] = (node, shape)
    return shape


def _shaped(node: cst.BaseExpression, _shape) -> ast.expr:
    if isinstance(node, cst.Name):
        return ast.Name(id=names.ident(node.value))
    if isinstance(node, cst.Attribute):
        return ast.Attribute(value=_shape(node.value), attr=names.ident(node.attr.value))
    if isinstance(node, cst.Call):
        return ast.Call(func=_shape(node.func), args=[], keywords=[])
    if isinstance(node, cst.Subscript):
        return ast.Subscript(value=_shape(node.value), slice=ast.Constant(None))
    if isinstance(node, cst.UnaryOperation):
        return ast.UnaryOp(op=ast.USub(), operand=_shape(node.expression))
    if isinstance(node, cst.BinaryOperation):
        return ast.BinOp(left=_shape(node.left), op=ast.Add(), right=_shape(node.right))
    if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:  # `a < b`: an array of a's kind
        return ast.BinOp(left=_shape(node.left), op=ast.Add(), right=_shape(node.comparisons[0].comparator))
    if isinstance(node, (cst.Integer, cst.Float)):  # a number takes the other operand's kind
        return ast.Constant(0)
    return ast.Constant(None)


def _type_of(node: cst.CSTNode) -> bool:
    """`type(x)`."""
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "type" \
        and len(node.args) == 1


def _abstract_body(node: cst.FunctionDef) -> bool:
    """A def whose body (past a docstring) is one `raise`."""
    body = node.body.body if isinstance(node.body, cst.IndentedBlock) else [node.body]
    stmts = [s for s in body if not (isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1
                                     and isinstance(s.body[0], cst.Expr)
                                     and isinstance(s.body[0].value, (cst.SimpleString, cst.ConcatenatedString)))]
    return len(stmts) == 1 and isinstance(stmts[0], cst.SimpleStatementLine) and isinstance(stmts[0].body[0], cst.Raise)


