"""The pass that reads one file's scopes for names.Analysis: every import and binding, by scope,
with the values assigned to plain names (Note [name resolution] in xlate/convert/names.py), then
the settling passes (nonlocal homes, namespace aliases) once every scope is known."""
from __future__ import annotations

import ast
from typing import Optional

from xlate.convert import astwalk
from xlate.convert.context import AMBIGUOUS, BLOCKS_MODULE, GLUON_ROOTS, LOCAL, REEXPORT, is_mxnet
from xlate.convert.kinds import NAMESPACES as _NAMESPACES, ast_dotted as _dotted, kinds_of, namespace_of, package_of
from xlate.convert.scopes import (ARRAY_ARGUMENT, BLOCK_CLASSES, Scope, TORCH_MODULE_METHODS, _missing_fallback,
                                  _paired, canonical, course_library)
from xlate.convert.unpacking import RETURNS_NAMESPACE, Element, may_return_namespace


# `self.blocks` filled by `self.blocks.append(b)` in the class's methods: a loop over it binds
# its target to `self.blocks<elements>`, whose values are what was appended
ELEMENTS = "<elements>"


def _appended(call: ast.expr):
    """(attr, value) for `self.<attr>.append(value)`."""
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "append" \
            and len(call.args) == 1 and not call.keywords and isinstance(call.func.value, ast.Attribute) \
            and isinstance(call.func.value.value, ast.Name) and call.func.value.value.id == "self":
        return call.func.value.attr, call.args[0]
    return None


def _elements(iterable: ast.expr):
    """What a `for` target over `iterable` is bound to: the elements of `self.<attr>`, else unknown."""
    if isinstance(iterable, ast.Attribute) and isinstance(iterable.value, ast.Name) and iterable.value.id == "self":
        return ast.Attribute(value=iterable.value, attr=iterable.attr + ELEMENTS)
    return None


# Note [modules that receive MXNet values]
# A module that imports nothing of MXNet may still be handed MXNet's values: a project's `utils.py`
# (`def show(x): return x.asnumpy()`, `def save(net, path): net.save_parameters(path)`) called by the
# modules that build the network. Converted, those modules hand it torch tensors and modules, and
# each such method failed there (it was only reported, MX905). The methods below belong to MXNet's
# arrays and Gluon's blocks alone (NumPy, torch and the standard library have none of them), so a
# call of one proves the module receives MXNet values: it is converted as MXNet code, its untyped
# receivers going to the run-time helpers that give a tensor MXNet's meaning and any other value
# its own method (Note [untyped receivers]). `initialize` is everybody's method name (MXFusion's
# Inference.initialize(**kwargs)): it counts only with a keyword Gluon's alone takes. A module's own
# function of such a name (`cupy.asnumpy(x)`, NumPy's `np.asscalar(a)`), a method of that name the module
# defines itself (GluonCV's video reader: `def asnumpy(self)`), the helpers an earlier conversion pasted
# (`_mx_asnumpy`), and any call in a module that imports torch, decord or TVM (decord's and TVM's arrays
# have `asnumpy()` too) are no proof. MX905 says at the first call why the module changed.
ARRAY_ONLY = frozenset({"asnumpy", "asscalar", "as_in_context", "attach_grad", "wait_to_read", "as_nd_ndarray",
                        "as_np_ndarray"})
BLOCK_ONLY = frozenset({"collect_params", "hybridize", "save_parameters", "load_parameters"})
# libraries whose own arrays have `asnumpy()` (decord's and TVM's NDArray, of MXNet's family), and torch: a
# module importing one is not taken as receiving MXNet's values on those names alone
_SAME_METHODS = frozenset({"torch", "decord", "tvm"})
_GLUON_INIT_KEYWORDS = frozenset({"ctx", "force_reinit"})


def mxnet_only_call(node: ast.Call) -> bool:
    """`x.asnumpy()`, `net.collect_params()`, `net.initialize(ctx=c)`: a method only MXNet's values have."""
    attr = node.func.attr
    if attr == "initialize":
        return any(k.arg in _GLUON_INIT_KEYWORDS for k in node.keywords)
    return attr in ARRAY_ONLY or attr in BLOCK_ONLY


def _mxnet_values(tree: ast.Module, calls: list, modules: set, defined: set) -> list:
    """The calls of `calls` that prove MXNet values reach the module (Note [modules that receive MXNet
    values]), in the order of the source."""
    calls = [c for c in calls if not (isinstance(c.func.value, ast.Name) and c.func.value.id in modules)
             and c.func.attr not in defined]
    pasted = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name.startswith("_mx_")]
    if calls and pasted:
        inside = {id(n) for part in pasted for n in astwalk.walk(part)}
        calls = [c for c in calls if id(c) not in inside]
    return sorted(calls, key=lambda c: (c.lineno, c.col_offset))


_MATCH_CASE = (ast.match_case,) if hasattr(ast, "match_case") else ()


class _Collector:
    def __init__(self, analysis):
        self.a = analysis
        self.gluon_names: set = set()  # classes of this file that are Gluon blocks
        self.named_hybrid: set = set()  # ids of `op = lambda F, x: ...` passed as `HybridLambda(op)`

    def _resolved(self, base: ast.expr, scope: Scope) -> Optional[str]:
        dotted = _dotted(base)
        resolved = self.a.resolve(scope.key, dotted) if dotted else None
        return None if resolved is AMBIGUOUS else resolved

    def _gluon_base(self, base: ast.expr, scope: Scope) -> bool:
        dotted = _dotted(base)
        if dotted is None:
            return False
        head, _, rest = dotted.partition(".")
        if dotted in self.gluon_names or rest in self.gluon_names and self.a._own_module(scope.key, head):
            return True  # `class Seq2SeqEncoder(d2l.Encoder)` through the module itself (Note [module aliases])
        resolved = self.a.resolve(scope.key, dotted)
        if not resolved or resolved is AMBIGUOUS:
            return False
        return resolved.startswith(GLUON_ROOTS) or any(k.startswith(GLUON_ROOTS) for k in self.a.facts.get(resolved, ()))

    def run(self, tree: ast.Module) -> None:
        # helpers taking F (Note in _gluon_namespace) only where hybrid_forward hands it out
        # one walk of the whole tree: hybrid_forward anywhere, and the dotted names numpy mode
        # is decided on (Note [numpy dialect]), each once
        self.hybrid = False
        dotted: set = set()
        inner: set = set()  # links inside a longer chain: its outermost link says as much (O(n), not O(n^2))
        calls: list = []  # calls of methods only MXNet's arrays and Gluon's blocks have
        modules: set = set()  # names `import` binds (`cupy.asnumpy(x)` is a module's function)
        libraries: set = set()  # the top-level packages imported
        defined: set = set()  # names of the functions and methods the module defines
        for n in astwalk.walk(tree):
            if isinstance(n, ast.Attribute):
                dotted.add(n)
                if isinstance(n.value, ast.Attribute):
                    inner.add(n.value)
            elif isinstance(n, ast.Name):
                if n.id in ("set_np", "use_np"):
                    dotted.add(n.id)
            elif isinstance(n, ast.FunctionDef) and n.name == "hybrid_forward":
                self.hybrid = True
            if isinstance(n, (ast.Name, ast.Attribute)) and getattr(n, "attr", getattr(n, "id", "")) == "HybridLambda":
                self.hybrid = True  # its function takes F first, as hybrid_forward does
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and mxnet_only_call(n):
                calls.append(n)
            elif isinstance(n, ast.Import):
                modules.update((a.asname or a.name).split(".")[0] for a in n.names)
                libraries.update(a.name.split(".")[0] for a in n.names)
            elif isinstance(n, ast.ImportFrom) and not n.level and n.module:
                libraries.add(n.module.split(".")[0])
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                defined.add(n.name)
        self.a._np_names = dotted - inner
        self.mxnet_only = _mxnet_values(tree, calls, modules, defined) if not libraries & _SAME_METHODS else []
        if self.a.receives_mxnet:
            self.a.uses_mxnet = True
        root = Scope((), None)
        self.a.scopes[()] = root
        self._body(tree.body, root)

    def _new_scope(self, parent: Scope, counts: dict, name: str, is_class: bool) -> Scope:
        n = counts.get(name, 0)
        counts[name] = n + 1
        scope = Scope(parent.key + ((name, n),), parent, is_class=is_class)
        self.a.scopes[scope.key] = scope
        return scope

    def _body(self, stmts, scope: Scope, counts: Optional[dict] = None) -> None:
        counts = {} if counts is None else counts  # def/class occurrences, per scope
        for node in stmts:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self._bind(scope, node.name, None)
                for dec in node.decorator_list:
                    self._expr(dec, scope)
                inner = self._new_scope(scope, counts, node.name, isinstance(node, ast.ClassDef))
                inner.node = node
                if isinstance(node, ast.ClassDef):
                    for b in node.bases + [k.value for k in node.keywords]:
                        self._expr(b, scope)
                    inner.gluon = any(self._gluon_base(b, scope) for b in node.bases)
                    resolved = [self._resolved(b, scope) for b in node.bases]
                    inner.mx_bases = tuple(r for r in resolved if is_mxnet(r))
                    inner.block_bases = tuple(i for i, r in enumerate(resolved) if r in BLOCK_CLASSES)
                    inner.derived_base = any(not is_mxnet(r) and self._gluon_base(b, scope)
                                             for b, r in zip(node.bases, resolved))
                    if inner.gluon:
                        self.gluon_names.add(node.name)
                else:
                    self._args(node.args, scope, inner)
                    self._gluon_namespace(node, scope, inner)
                    if node.returns is not None:
                        self._expr(node.returns, scope)
                self._body(node.body, inner)
            elif isinstance(node, ast.Import):
                local = self.a.context.localize
                for alias in node.names:
                    if alias.asname:
                        self._import(scope, alias.asname, local(alias.name), node.lineno)
                    else:
                        head = alias.name.split(".", 1)[0]
                        self._import(scope, head, local(head), node.lineno, full=local(alias.name))
            elif isinstance(node, ast.ImportFrom):
                module = "." * node.level + (node.module or "")
                beyond = self.a.context.beyond(node.level, node.module) if node.level else None
                if beyond:  # out of the tree into the packages around it (MXNet's own model_zoo)
                    module = self.a.context.localize(beyond)
                    if self.a.context.outer_guessed:  # Note [a tree of MXNet's own package]
                        self.a.guessed_outer.append(node.lineno)
                elif node.level:  # the tree's own code, named absolutely when the tree is known
                    absolute = self.a.context.absolute(node.level, node.module)
                    module = LOCAL + absolute if absolute else module
                else:
                    module = self.a.context.localize(module)
                for alias in node.names:
                    own = self.a.context.own_mxnet(node.level, node.module, alias.name, canonical) \
                        if node.level and not beyond and alias.name != "*" else None
                    if own:  # Note [a tree of MXNet's own package]
                        self._import(scope, alias.asname or alias.name, own, node.lineno)
                        if self.a.context.outer_guessed:
                            self.a.guessed_outer.append(node.lineno)
                    elif alias.name != "*":
                        self._import(scope, alias.asname or alias.name, f"{module}.{alias.name}", node.lineno)
                    elif module.startswith(LOCAL):
                        scope.star_local.append(module)
                        for name, target in self.a.star_names.get(module, {}).items():
                            self._import(scope, name, target, node.lineno)
                    elif is_mxnet(module):
                        scope.star_mx.append(node.lineno)
                        self.a.mx_imports.append((node.lineno, canonical(module)))
                        self.a.uses_mxnet = True
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                for name in node.names:  # the name lives elsewhere: never local here
                    if isinstance(node, ast.Global):
                        scope.declared[name] = self.a.scopes[()]
                    else:  # bound here until its home is known (a later def may bind it)
                        scope.nonlocals.add(name)
            elif isinstance(node, ast.Expr) and _appended(node.value) and scope.parent is not None \
                    and scope.parent.is_class:  # `self.blocks.append(Block(...))` in a method
                attr, value = _appended(node.value)
                scope.parent.attrs.setdefault(attr + ELEMENTS, []).append(value)
                self._expr(node.value, scope)
            elif isinstance(node, ast.Assign) and _missing_fallback(node):
                pass  # `nd = _mx_missing('mxnet.nd')`: the guarded import's stand-in, not a rebinding
            elif isinstance(node, ast.Assign):
                if isinstance(node.value, ast.Lambda) and len(node.targets) == 1 \
                        and isinstance(node.targets[0], ast.Name) and self._lambda_handed(node.targets[0].id, scope):
                    self.named_hybrid.add(id(node.value))
                for target in node.targets:
                    value = node.value if len(node.targets) == 1 else None
                    if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, ast.Call):
                        self._unpacked(target, scope, value)  # Note [namespace in a returned tuple]
                    else:
                        self._target(target, scope, value)
                    for attr, part in zip(target.elts, _paired(target, value)) \
                            if isinstance(target, (ast.Tuple, ast.List)) else ((target, value),):
                        self._self_attr(attr, scope, part)  # `self.a, self.b = x, y` too
                self._expr(node.value, scope)
            elif isinstance(node, ast.AnnAssign):  # `n: T = v` is `n = v`; `n: T` alone binds nothing
                if node.value is not None:
                    self._target(node.target, scope, node.value)
                    self._self_attr(node.target, scope, node.value)
                    self._expr(node.value, scope)
                elif not isinstance(node.target, ast.Name):
                    self._expr(node.target, scope)
            elif isinstance(node, ast.AugAssign):
                if isinstance(node.target, ast.Name):
                    scope.declared.get(node.target.id, scope).other.add(node.target.id)
                else:  # `x[idx] += v`: its index and receiver are read
                    self._expr(node.target, scope)
                self._expr(node.value, scope)
            else:
                self._compound(node, scope, counts)

    def _compound(self, node: ast.AST, scope: Scope, counts: dict) -> None:
        if isinstance(node, (ast.For, ast.AsyncFor)):
            # `for p in net.parameters()`: p is a torch parameter (a Gluon block has no such method)
            torch_items = isinstance(node.iter, ast.Call) and isinstance(node.iter.func, ast.Attribute) \
                and node.iter.func.attr in TORCH_MODULE_METHODS
            self._target(node.target, scope, node.iter if torch_items else _elements(node.iter))
            scope.grad_reads.update(_attached_in_loop(node, scope))
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                if item.optional_vars is not None:
                    self._target(item.optional_vars, scope, None)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            self._bind(scope, node.name, None)
        elif isinstance(node, ast.Delete):
            for t in node.targets:
                self._target(t, scope, None)
        # Fields of a statement come in source order, so recursion keeps def counts aligned
        # with the CST walk.
        for child in astwalk.children(node):
            if isinstance(child, ast.stmt):
                self._body([child], scope, counts)
            elif isinstance(child, (ast.excepthandler,) + _MATCH_CASE):
                self._compound(child, scope, counts)
            elif isinstance(child, ast.expr):
                self._expr(child, scope)

    def _gluon_namespace(self, node, scope: Scope, inner: Scope) -> None:
        """In a Gluon class, `hybrid_forward(self, F, ...)` receives mxnet.ndarray (or .symbol,
        whose operators mean the same) as F: resolve it like `import mxnet.ndarray as F`."""
        params = node.args.posonlyargs + node.args.args
        if node.name == "hybrid_forward" and scope.is_class and len(params) >= 2 and self.a.uses_mxnet:
            self._namespace_param(inner, params[1].arg)
        elif any(p.arg == "F" for p in params + node.args.kwonlyargs) \
                and is_mxnet(self.a.scopes[()].imports.get("F", "mxnet")) and "F" not in self.a.scopes[()].other:
            if self.hybrid and (scope.gluon or not scope.is_class):
                # a helper hybrid_forward hands its F to (`self.upsample(F, x)`): the same namespace
                self._namespace_param(inner, "F")
            elif self.a.uses_mxnet or _calls_through(node, "F"):
                # Note [F by its name]
                self._namespace_param(inner, "F")
                self.a.guessed_namespaces.add(inner.key)
                self.a.uses_mxnet = True
        if node.name in ("forward", "hybrid_forward") and scope.is_class and scope.gluon:
            # a Gluon block is called with NDArrays: its inputs are arrays unless a default
            # says otherwise (`training=True`); `valid_length=None` is an optional array
            skip = 2 if node.name == "hybrid_forward" else 1
            defaults = [None] * (len(params) - len(node.args.defaults)) + list(node.args.defaults)
            for p, default in list(zip(params, defaults))[skip:]:
                if default is None or (isinstance(default, ast.Constant) and default.value is None):
                    inner.values[p.arg] = [ARRAY_ARGUMENT]
            if node.args.vararg is not None:
                inner.values[node.args.vararg.arg] = [ARRAY_ARGUMENT]

    def _namespace_by_name(self, name: str) -> bool:
        """A lambda's `F` in a file whose hybrid_forward hands F out (`self.act = lambda F, x:
        F.relu(x)`, called with it): the namespace, as a helper def's `F` is (Note [F by its name])."""
        return name == "F" and self.hybrid and is_mxnet(self.a.scopes[()].imports.get("F", "mxnet")) \
            and "F" not in self.a.scopes[()].other

    def _hybrid_lambda(self, func: ast.expr, scope: Scope) -> bool:
        dotted = _dotted(func)
        return dotted is not None and dotted.rsplit(".", 1)[-1] == "HybridLambda" \
            and self.a.resolve(scope.key, dotted) == "mxnet.gluon.nn.HybridLambda"

    def _lambda_handed(self, name: str, scope: Scope) -> bool:
        """`HybridLambda(name)` in the scope binding `name = lambda F, x: ...`: Gluon calls the
        lambda with its namespace first, as for an inline one."""
        body = scope.node if scope.node is not None else self.a.tree
        return any(
            isinstance(n, ast.Call) and n.args and isinstance(n.args[0], ast.Name) and n.args[0].id == name
            and self._hybrid_lambda(n.func, scope) for n in astwalk.walk(body))

    @staticmethod
    def _namespace_param(inner: Scope, name: str) -> None:
        inner.other.discard(name)
        inner.values.pop(name, None)
        inner.imports[name] = "mxnet.ndarray"
        inner.mx_params.add(name)

    def _import(self, scope: Scope, name: str, dotted: str, line: int, full: str = "") -> None:
        scope = scope.declared.get(name, scope)
        if dotted.startswith(LOCAL):  # `from .common import nd` where common imports it: MXNet's
            kinds = self.a.facts.get(dotted) or ()  # (Note [re-exported MXNet names])
            if len(kinds) == 1 and next(iter(kinds)).startswith(REEXPORT):
                dotted = next(iter(kinds))[len(REEXPORT):]
        scope.imports[name] = canonical(dotted) if is_mxnet(dotted) else dotted
        if course_library(dotted) or course_library(full):  # Note [course libraries]
            self.a.uses_mxnet = True
        if not self.a.uses_mxnet and (any(k.startswith(GLUON_ROOTS) or k in _NAMESPACES
                                          for k in self.a.facts.get(dotted, ()))
                                      or self.a.facts.get(dotted + RETURNS_NAMESPACE)):
            # a Gluon block of the tree: `class Lrn(ConvBlock)` is Gluon code, and so is a module
            # unpacking the namespace another returns (the fact is read only when it can change
            # something: Note [one analysis per file])
            self.a.uses_mxnet = True
        if full.startswith(LOCAL) and full != dotted:
            self.a.dotted_imports.add(full)
        if not self.a.uses_mxnet and any(m and self.a.facts.get(m + BLOCKS_MODULE) for m in {dotted, full}):
            # `import sockeye.encoder`, then `sockeye.encoder.get_transformer_encoder(...).initialize()`:
            # a module of the tree that defines or returns Gluon blocks, used through its name
            self.a.uses_mxnet = True
        if is_mxnet(dotted) or is_mxnet(full):
            self.a.mx_imports.append((line, canonical(full or dotted)))
            self.a.uses_mxnet = True

    def _bind(self, scope: Scope, name: str, value) -> None:
        scope = scope.declared.get(name, scope)
        scope.other.add(name)
        scope.values.setdefault(name, []).append(value)

    def _target(self, target: ast.expr, scope: Scope, value) -> None:
        if isinstance(target, ast.Name):
            self._bind(scope, target.id, value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            # `a, b = pred[:, 0], pred[:, 1] + 1`: Python builds the right side's tuple first, so
            # each name is bound to its own element (the OCR IOU loss's comparisons stayed bool)
            for elt, part in zip(target.elts, _paired(target, value)):
                self._target(elt, scope, part)
        elif isinstance(target, ast.Starred):
            self._target(target.value, scope, None)
        else:
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                scope.item_writes.add(target.value.id)
            self._expr(target, scope)

    def _unpacked(self, target, scope: Scope, call: ast.Call) -> None:
        """`a, F, b = f(x)`: each name is bound to its place of what f returns (an Element)."""
        if any(isinstance(e, ast.Starred) for e in target.elts):
            self._target(target, scope, None)
            return
        for i, elt in enumerate(target.elts):
            if isinstance(elt, ast.Name):
                self._bind(scope, elt.id, Element(call, i, len(target.elts)))
            else:
                self._target(elt, scope, None)

    def _self_attr(self, target: ast.expr, scope: Scope, value) -> None:
        """Record `self.x = value` in a method on the class scope."""
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self" \
                and scope.parent is not None and scope.parent.is_class:
            scope.parent.attrs.setdefault(target.attr, []).append(value)
            if value is not None:
                self.a.attr_scopes[id(value)] = scope.key

    def _args(self, args: ast.arguments, outer: Scope, inner: Scope) -> None:
        for default in args.defaults + [d for d in args.kw_defaults if d is not None]:
            self._expr(default, outer)
        every = args.posonlyargs + args.args + args.kwonlyargs
        every += [a for a in (args.vararg, args.kwarg) if a is not None]
        for a in every:
            self._bind(inner, a.arg, None)

    def _expr(self, expr: ast.expr, scope: Scope) -> None:
        # Bindings inside expressions: walrus, lambda parameters, comprehension targets.
        hybrid = set()  # `HybridLambda(lambda F, x: F.relu(x))`: the lambda's F is MXNet's namespace
        for node in astwalk.walk(expr):
            if isinstance(node, ast.NamedExpr):
                self._target(node.target, scope, node.value)
            elif isinstance(node, ast.Lambda):
                params = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
                for i, a in enumerate(params):
                    handed = i == 0 and (id(node) in hybrid or id(node) in self.named_hybrid)
                    if (handed or self._namespace_by_name(a.arg)) and a.arg not in scope.other:
                        scope.imports.setdefault(a.arg, "mxnet.ndarray")
                        scope.mx_params.add(a.arg)
                    else:
                        self._bind(scope, a.arg, None)
            elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Lambda) \
                    and self._hybrid_lambda(node.func, scope):
                hybrid.add(id(node.args[0]))
            elif isinstance(node, ast.comprehension):
                self._target(node.target, scope, None)
            elif isinstance(node, ast.Attribute) and node.attr in ("grad", "attach_grad") \
                    and isinstance(node.value, ast.Name):
                scope.grad_reads.add(node.value.id)  # `w.attach_grad()`: w has a gradient from here on
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and isinstance(node.func.value, ast.Name):
                scope.method_receivers.add(node.func.value.id)  # Note [array methods without a method rule]
            elif isinstance(node, ast.Subscript):
                index = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
                # every name in it: `x[target[idx]]` is an array index when `target` is an array
                scope.index_names.update(n.id for i in index for n in astwalk.walk(i) if isinstance(n, ast.Name))
                if isinstance(node.value, ast.Name) and any(
                        isinstance(i, ast.Slice) and isinstance(i.step, ast.UnaryOp) for i in index):
                    scope.item_writes.add(node.value.id)  # `x[::-1]` (MX007)
                elif not any(isinstance(i, ast.Slice) for i in index):  # `x[i, j]`, `(x - 1)[i]` (MX017)
                    base = node.value
                    while isinstance(base, ast.Subscript):  # `x[0][1]`: the chain's array, walked once a level
                        base = base.value
                    scope.item_writes.update(n.id for n in astwalk.walk(base) if isinstance(n, ast.Name))
                    if isinstance(node.value, ast.Name) and len(index) >= 2:
                        scope.element_reads.add(node.value.id)  # Note [elements of untyped values]


# Note [F by its name]
# Gluon code names MXNet's operator namespace `F` everywhere, and hands it from hybrid_forward to
# helpers of every sort: methods of classes that are no blocks (a distribution's `log_prob(self,
# F, x)`), functions of modules that import nothing of MXNet (`def _attend(F, q, k)` in a
# utils module), constructors that store it (`self.F = F or getF(x)`). A parameter named `F`,
# in a module that uses MXNet or whose function calls through it (`F.exp(x)`), is taken as the
# namespace, unless the module binds `F` itself (`import torch.nn.functional as F`): its calls go
# through the rules. Where no hybrid_forward of the file hands it out, this is a guess by the
# name, and the converter says so at the function (MX174, review), so a module of such helpers
# is never passed through in silence.
def _calls_through(node: ast.AST, name: str) -> bool:
    """Whether the function calls `name.<something>(...)` (not inside a nested def or class)."""
    todo = list(node.body)
    while todo:
        sub = todo.pop()
        if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) \
                and isinstance(sub.func.value, ast.Name) and sub.func.value.id == name:
            return True
        todo.extend(astwalk.children(sub))
    return False


# Note [scopes]
# Python resolves a name read in a function through the enclosing functions to the module,
# skipping class bodies, and `global x` (at any depth) sends every read and binding of x in that
# scope to the module, `nonlocal x` to the nearest enclosing function that binds x anywhere in
# its body, possibly after the nested def, so nonlocal homes are settled after the walk.
# Analysis.home is that walk; every reader of `values` goes through it.
def _nonlocal_homes(analysis) -> None:
    for scope in sorted(analysis.scopes.values(), key=lambda s: len(s.key)):  # outer scopes first
        for name in scope.nonlocals:
            outer = scope.parent
            while outer is not None and outer.key and (outer.is_class or not (
                    name in outer.values or name in outer.other or name in outer.imports or name in outer.declared)):
                outer = outer.parent
            if outer is None or not outer.key:
                continue  # no function binds it (a SyntaxError in Python): it stays this scope's
            home = outer.declared.get(name, outer)
            home.other |= {name} & scope.other
            home.values.setdefault(name, []).extend(scope.values.pop(name, []))
            if name in scope.imports:
                home.imports[name] = scope.imports.pop(name)
            scope.other.discard(name)
            scope.declared[name] = home


# Note [namespace aliases]
# Model code outside hybrid_forward often names MXNet's operator namespace itself, `F = mx.ndarray`
# (or mx.nd, mx.sym, mx.np, mx.npx), and calls `F.reshape(...)`, `F.contrib.arange_like(...)`.
# A name a function binds exactly once, to one of these namespaces, resolves like
# `import mxnet.ndarray as F`, so its calls go through the rules; the assignment itself becomes
# `F = None` (MX113), as hybrid_forward's F passed on does. So does a name bound more than once
# where every binding is such a namespace with the same rules (MXNet's own rnn_cell.py: `F =
# symbol` if the inputs are Symbols, else `F = ndarray`): whichever path ran, it is that
# namespace. A parameter taken as the namespace (hybrid_forward's F, an `F` by its name) and
# bound in the function to the same namespace again (gluonts' NanMixture: `def __init__(self, p,
# F=None): F = getF(p)`; MXFusion's `F = get_default_MXNet_mode() if F is None else F`, where
# the parameter read in its own rebinding is the namespace it holds) is that namespace too. A
# name bound to something else too, declared global or nonlocal, or bound at module level (other
# modules may import it) stays a plain value.
#
# Note [a package returned by a helper]
# Packages import MXNet's libraries lazily through a helper that imports and returns one
# (autogluon: `def try_import_gluonnlp(): import gluonnlp; ...; return gluonnlp`) and bind what it
# returns in each function that needs it (`nlp = try_import_gluonnlp()`, then `nlp.data.batchify
# .Pad(...)`, `nlp.model.get_model(...)`). What the helper returns is known by kinds.py (MXNet's
# packages are kinds of their own, kinds.PACKAGES), in the same module or, through the package
# pass's facts, from another one; a name a function binds exactly once to such a call resolves as
# `import gluonnlp as nlp` would, so its uses go through the rules. Before, each use stayed MXNet's
# with no report at its line. The call stays (it may do more than import) and is reported (MX891).


def _namespace_aliases(analysis) -> None:
    for key, scope in analysis.scopes.items():
        if scope.is_class:
            continue
        function = key and isinstance(scope.node, (ast.FunctionDef, ast.AsyncFunctionDef))
        for name, values in list(scope.values.items()):
            if not any(isinstance(v, _MAY_BE_NAMESPACE) for v in values):
                continue
            if name in scope.imports:
                if name in scope.mx_params and function and name not in scope.declared \
                        and set().union(*(_rebound_namespaces(analysis, key, name, v, scope) for v in values)) \
                        == {_NAMESPACES.get(scope.imports[name])}:
                    # `def __init__(self, x, F=None): F = getF(x)`: the namespace taken as a parameter
                    # and bound to the same namespace again is that namespace wherever it is read
                    scope.other.discard(name)
                    scope.values.pop(name)
                    scope.aliases.add(name)
                continue
            sub = _sub_namespace(analysis, key, values)
            if sub is not None and function and name not in scope.declared:  # `ops = F.contrib`
                scope.other.discard(name)
                scope.values.pop(name)
                scope.imports[name] = sub
                scope.aliases.add(name)
                continue
            found = [kinds_of(analysis, key, v) if v is not None else None for v in values]
            # `F = mx.nd`, `F = getF(x)` (a function of the tree returning the namespace), `F = self.F`
            # or bound on each path to namespaces whose operators mean the same (`F = symbol` / `F = ndarray`)
            targets = {namespace_of(k) or package_of(k) for k in found}
            target = targets.pop() if len(targets) == 1 else None
            if target is None or not function or name in scope.declared:
                if any(k and k & _NAMESPACES.keys() for k in found) or any(  # the namespace or something else
                        isinstance(v, Element) and may_return_namespace(analysis, key, v) for v in values):
                    analysis.namespace_values.add((key, name))
                continue
            scope.other.discard(name)
            scope.values.pop(name)
            scope.imports[name] = target
            scope.aliases.add(name)


# the namespace's own modules, which code binds to a name of its own in a function (`ops = F.contrib`,
# `la = F.linalg`): their operators are those of the name written out (symbol's mean ndarray's)
SUB_NAMESPACES = frozenset(f"mxnet.ndarray.{m}" for m in ("contrib", "linalg", "random", "image", "op", "sparse"))


def sub_namespace(resolved: str) -> Optional[str]:
    """`mxnet.ndarray.contrib` for itself or `mxnet.symbol.contrib`; None for anything else."""
    if resolved.startswith("mxnet.symbol."):
        resolved = "mxnet.ndarray." + resolved[len("mxnet.symbol."):]
    return resolved if resolved in SUB_NAMESPACES else None


def _sub_namespace(analysis, key, values) -> Optional[str]:
    """The module of MXNet's namespace every value bound to a name is (`ops = F.contrib`), else None."""
    found = set()
    for value in values:
        dotted = _dotted(value) if isinstance(value, ast.Attribute) else None
        resolved = analysis.resolve(key, dotted) if dotted else None
        if not isinstance(resolved, str):
            return None
        resolved = sub_namespace(resolved)
        if resolved is None:
            return None
        found.add(resolved)
    return found.pop() if len(found) == 1 else None


def _rebound_namespaces(analysis, key, name: str, value, scope) -> set:
    """The namespaces a binding of the namespace parameter `name` may give, where `name` read in
    its own value is the parameter's namespace (`F = getF(x) if F is None else F`, `F = F or
    mx.nd`: Note [namespace aliases]); {None} where a branch may give something else."""
    if isinstance(value, ast.Name) and value.id == name:
        return {_NAMESPACES.get(scope.imports[name])}
    if isinstance(value, ast.IfExp):
        return _rebound_namespaces(analysis, key, name, value.body, scope) \
            | _rebound_namespaces(analysis, key, name, value.orelse, scope)
    if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or):
        return set().union(*(_rebound_namespaces(analysis, key, name, v, scope) for v in value.values))
    return {namespace_of(kinds_of(analysis, key, value)) if value is not None else None}


# what may give MXNet's namespace: a name or attribute, a call, a conditional
_MAY_BE_NAMESPACE = (ast.Name, ast.Attribute, ast.Call, ast.IfExp, ast.BoolOp, Element)


def _attached_in_loop(loop: ast.For, scope) -> set:
    """`for p in [w, b]: p.attach_grad()` (or `params = [w, b]` then the loop): w and b are arrays
    with a gradient, as `w.attach_grad()` makes w one (MX545's in-place writes outside record)."""
    if not isinstance(loop.target, ast.Name) or not any(
            isinstance(n, ast.Attribute) and n.attr == "attach_grad" and isinstance(n.value, ast.Name)
            and n.value.id == loop.target.id for stmt in loop.body for n in astwalk.walk(stmt)):
        return set()
    items = loop.iter
    if isinstance(items, ast.Name):
        values = scope.declared.get(items.id, scope).values.get(items.id, [])
        items = values[0] if len(values) == 1 else None
    if not isinstance(items, (ast.List, ast.Tuple)):
        return set()
    return {e.id for e in items.elts if isinstance(e, ast.Name)}
