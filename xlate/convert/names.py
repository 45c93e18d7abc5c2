"""Resolve MXNet names from a file's imports, with one cheap `ast` pass.

Note [name resolution]
LibCST's QualifiedNameProvider costs about 5x parse + render, so xlate resolves names
itself: `ast.parse` (C speed) gives every import and every other binding of the same
names, grouped by scope. A scope is keyed by its path of enclosing `def`/`class` names
with occurrence counts, which the CST transformer rebuilds as it walks the same source in
the same order, so the two trees never need to be matched node by node. Lambdas and
comprehensions count as part of the enclosing function, which can only make a name look
rebound (and so not rewritten), never the other way round.

A name bound to an MXNet import and bound some other way in the same scope is ambiguous:
it is not rewritten and the use is reported. The same analysis records, per scope, the
values assigned to plain names, so a receiver can be classified as an NDArray, a numpy
array or unknown without type inference.

Note [numpy dialect]
MXNet 1.6+ has a second array API beside `nd`: `mx.np` / `mx.npx` (canonical names
`mxnet.numpy.*`, `mxnet.numpy_extension.*`; `F.np` in a hybrid_forward and `mx.nd.np` are
re-exports). Its arrays follow NumPy where NumPy has the method (`x.flatten()` is 1-D, a full
`x.sum()` 0-d, `x.reshape` has no codes, `x.argmax()` int64), so `classify` tells three kinds
apart: 'nd' (a legacy NDArray), 'mxnp' (an mx.np array) and 'np' (real NumPy). The converter
sends a method that numpy shares, on an 'mxnp' receiver, to the dialect's rule for
`mxnet.numpy.ndarray.<method>` and never to nd's. A file is in numpy mode (`np_mode`) when it
calls `npx.set_np()` or uses `use_np`, or imports the dialect and not `nd`: there the inputs of
a Gluon block's forward, what a Gluon layer returns and a Parameter's `data()` are mx.np
arrays, as MXNet makes them under set_np().
"""
from __future__ import annotations

import ast
from typing import Optional

from xlate.convert import mx_api, namespace_flow
from xlate.convert.context import ALIAS, AMBIGUOUS, GLUON_ROOTS, LOCAL, REEXPORT, FileContext, is_mxnet
from xlate.convert.kinds import NAMESPACES as _NAMESPACES, ast_dotted as _dotted, kinds_of, namespace_of
from xlate.convert.scopes import (ARRAY_ARGUMENT, BLOCK_CLASSES, PARAMETER_CLASSES, SHADOWED_MODULES, Scope, ScopeKey,
                                  TORCH_MODULE_METHODS, _REEXPORTS, canonical, course_library, ident)


# modules of MXNet, which a module-level alias leaves a plain value (Note [module aliases])
_MODULE_NAMES = frozenset("mxnet gluon nn rnn nd ndarray numpy numpy_extension np npx sym symbol autograd init loss "
                          "data vision contrib image random linalg utils model_zoo optimizer metric context".split())
NP_ARRAY = "mxnet.numpy.ndarray"  # dialect method rules match NP_ARRAY + ".method" (Note [numpy dialect])
# NDArray's methods that an mx.np array defines only to raise AttributeError (MXNet 1.9.1,
# mxnet/numpy/multiarray.py; measured: their code is that raise). A receiver calling one works in
# MXNet only as a legacy NDArray, whatever the file's numpy mode says, so NDArray's rule is right.
MXNP_ABSENT = frozenset("""
    abs arccos arccosh arcsin arcsinh arctan arctanh argmax_channel asscalar broadcast_axes
    broadcast_like cbrt ceil cos cosh degrees depth_to_space diag exp expand_dims expm1 fix flip
    floor log log10 log1p log2 log_softmax nanprod nansum norm one_hot ones_like pad pick radians
    rcbrt reciprocal relu reshape_like rint rsqrt shape_array sigmoid sign sin sinh size_array slice
    slice_axis slice_like softmax softmin space_to_depth split split_v2 sqrt square tan tanh tile
    topk tostype trunc zeros_like
""".split())


# Note [re-exported MXNet names]
# One user's scripts keep their imports in one module and take them with `from capsule import *`:
# capsule.py imports `mxnet.gluon as gluon`, model.py derives `gluon.HybridBlock` without
# importing anything of MXNet itself. Converted, capsule.py no longer binds `gluon`, and model.py's
# class stayed a Gluon block with nothing said. The package pass records each MXNet name a
# module's top level imports (a fact of kind REEXPORT + the name); a file that reads a name it
# never binds, which a module it imports `*` from re-exports, reads MXNet's, as Python would.
def _star_reexports(analysis) -> dict:
    """{star module: {name: MXNet target}} for the names the file reads and never binds that a
    module it imports `*` from re-exports."""
    root = analysis.scopes[()]
    if not root.star_local:
        return {}
    bound = {n for scope in analysis.scopes.values() for n in (*scope.values, *scope.imports, *scope.other)}
    free = {n.id for n in ast.walk(analysis.tree) if isinstance(n, ast.Name) and n.id not in bound}
    found: dict = {}
    for name in sorted(free):
        for star in root.star_local:
            kinds = analysis.facts.get(f"{star}.{name}") or ()
            if len(kinds) == 1 and next(iter(kinds)).startswith(REEXPORT):
                found.setdefault(star, {})[name] = next(iter(kinds))[len(REEXPORT):]
                break
    return found


class Analysis:
    """What the pre-pass learnt about one file."""

    def __init__(self, tree: ast.Module, *, context: Optional[FileContext] = None, _stars: Optional[dict] = None,
                 _receives: bool = False):
        self.tree = tree
        self.star_names = _stars or {}  # Note [re-exported MXNet names]: star module -> {name: MXNet target}  # rules that need file-wide facts walk it (C speed) instead of the CST
        self.context = context or FileContext()  # the tree around the file (Note [package facts])
        self.facts = self.context.facts
        self.scopes: dict[ScopeKey, Scope] = {}
        self.mx_imports: list[tuple[int, str]] = []  # (line, canonical) of every MXNet import
        self.dotted_imports: set[str] = set()  # `import pkg.mod`: the tree's modules named in full (LOCAL + name)
        self.uses_mxnet = False
        # Note [modules that receive MXNet values]: the first call of a method only MXNet's values have, in
        # a module that imports nothing of MXNet (it is converted as MXNet code)
        self.receives_mxnet = _receives
        self.mxnet_value_call: Optional[ast.Call] = None
        self._kinds: dict = {}  # memo of kinds_of (Note [package facts])
        self._self_attrs: dict = {}  # (scope key, attr) -> (namespace `self.attr` always is, or None; its node)
        self.attr_scopes: dict = {}  # id of the value of `self.x = value` -> the key of the method assigning it
        self._aliasing: set = set()  # Note [module aliases]: names being resolved
        self.guessed_namespaces: set = set()  # function scopes whose `F` is taken as MXNet's namespace by its name
        self.guessed_outer: list = []  # lines of imports climbing out of the tree into a guessed `mxnet`
        self.namespace_values: set = set()  # (scope key, name): may hold MXNet's namespace, among other values
        from xlate.convert.collect import _Collector, _namespace_aliases, _nonlocal_homes  # they import this module
        collector = _Collector(self)
        collector.run(tree)
        if not self.uses_mxnet and collector.mxnet_only:  # Note [modules that receive MXNet values]
            self.__init__(tree, context=context, _stars=_stars, _receives=True)
            self.mxnet_value_call = collector.mxnet_only[0]
            return
        if _stars is None:  # Note [re-exported MXNet names]: the names bind where `import *` stands
            stars = _star_reexports(self)
            if stars:
                self.__init__(tree, context=context, _stars=stars, _receives=_receives)
                return
        _nonlocal_homes(self)
        _namespace_aliases(self)
        if namespace_flow.propagate(self):  # Note [namespace by flow]
            _namespace_aliases(self)  # `G = ops` in a function whose `ops` is the namespace now
        # every name some import binds, in any scope: a name outside it never resolves
        self.imported = frozenset(name for scope in self.scopes.values() for name in scope.imports)
        if self._namespace_on_self():  # Note [F kept on self]: `self.F.op(...)` is looked up too
            self.imported |= {"self"}
        root = self.scopes[()]  # and the module's aliases of MXNet names (Note [module aliases])
        self.module_aliases = frozenset(n for n in root.other - set(root.imports)
                                        if self._own_module((), n) or self._function_alias(root, n) is not None)
        self.imported |= self.module_aliases
        self._kinds: dict = {}  # (scope key, name) -> classify's answer (a name's values never change)
        self._expr_kinds: dict = {}  # (scope key, id(expr)) -> (expr, classify's answer)
        self.np_mode = _numpy_mode(self)  # Note [numpy dialect]
        self._np_names = None
        self.array_kind = "mxnp" if self.np_mode else "nd"  # what Gluon blocks take and return here

    @property
    def uses_gluon(self) -> bool:
        """The file may build Gluon blocks: it imports Gluon (or all of mxnet), or defines one."""
        return any(c == "mxnet" or c.startswith(GLUON_ROOTS) or c == "mxnet.gluon" for _, c in self.mx_imports) \
            or any(scope.gluon for scope in self.scopes.values())

    # -- names -------------------------------------------------------------
    def lookup(self, key: ScopeKey, name: str) -> Optional[str]:
        """Canonical dotted name bound to `name` as seen from scope `key`.

        None: not an import (or unbound); AMBIGUOUS: an import and another binding.
        """
        scope = self.home(key, name)
        if scope is None:
            return None
        imported = scope.imports.get(name)
        if name in scope.other and imported is None and scope.parent is None:
            alias = self._function_alias(scope, name)
            if alias is not None:
                return alias
        if name in scope.other:  # rebound here: only an MXNet import makes that worth a report
            if scope.is_class and imported is None:
                # a class body reads the module's binding until it assigns its own
                imported = self.scopes[()].imports.get(name)
            return AMBIGUOUS if is_mxnet(imported) else None
        return imported

    def home(self, key: ScopeKey, name: str) -> Optional[Scope]:
        """The scope whose binding of `name` a read in scope `key` sees, as Python resolves it
        (Note [scopes]); None where no scope of the file binds it (a builtin, or unbound)."""
        scope = self.scopes.get(key)
        first = True
        while scope is not None:
            if scope.is_class and not first:
                scope = scope.parent
                continue
            first = False
            if scope.declared.get(name, scope) is not scope:
                scope = scope.declared[name]
                continue
            if name in scope.values or name in scope.imports or name in scope.other:
                return scope
            scope = scope.parent
        return None

    # Note [module aliases]
    # d2l's library binds MXNet functions to module-level names (`zeros = np.zeros`, `matmul =
    # np.dot`) and calls them by those names or through the module itself (`d2l =
    # sys.modules[__name__]`, `d2l.zeros((3, 4))`). A module-level name bound once, to an MXNet
    # name, is that name wherever it is read: each call is translated with its own arguments, as
    # the MXNet function's own call would be (the binding itself is a function passed as a value,
    # Note [functions as values]). `d2l.x` through the module's own reference is the module's `x`.
    # The same holds in the tree's other modules (the notebooks: `from d2l import mxnet as d2l`,
    # `d2l.zeros(...)`): the package pass gives each alias as a fact (ALIAS + the MXNet name), and
    # a file of the numpy dialect resolves `d2l.zeros` to it, so the call is translated in place
    # and its value is known to be an MXNet array (`features[d2l.tensor(idx)]` indexes as MXNet).
    # A file outside the dialect keeps the call: it runs the library's converted binding.
    def _function_alias(self, scope: Scope, name: str) -> Optional[str]:
        values = scope.values.get(name, ())
        # bound once, or again to the same name (v1.0.3's library binds `nn_Module = nn.Block` twice)
        if not values or not all(_pure_dotted(v) for v in values) \
                or len({ast.unparse(v) for v in values}) != 1 or name in self._aliasing:
            return None
        self._aliasing.add(name)  # `a = b; b = a` resolves to nothing, not a cycle
        try:
            resolved = self.resolve(scope.key, ast.unparse(values[0]))
        finally:
            self._aliasing.discard(name)
        if resolved is AMBIGUOUS or not is_mxnet(resolved) or resolved in _NAMESPACES \
                or resolved.rsplit(".", 1)[-1] in _MODULE_NAMES:
            return None  # a namespace bound at module level stays a value (Note [namespace aliases])
        return resolved

    def _own_module(self, key: ScopeKey, name: str) -> bool:
        """`name` is the module itself: `d2l = sys.modules[__name__]` at its top level, bound once."""
        scope = self.home(key, name)
        values = scope.values.get(name, ()) if scope is not None and scope.parent is None else ()
        return len(values) == 1 and isinstance(values[0], ast.Subscript) \
            and ast.unparse(values[0]) == "sys.modules[__name__]"

    def resolve(self, key: ScopeKey, dotted: str) -> Optional[str]:
        head, _, rest = dotted.partition(".")
        if head == "self" and "." in rest:  # `self.F.where(...)`: Note [F kept on self]
            attr, _, tail = rest.partition(".")
            namespace = self._self_namespace(key, attr)
            if namespace is not None:
                return canonical(f"{namespace}.{tail}")
        if rest and self._own_module(key, head):
            return self.resolve((), rest)
        base = self.lookup(key, head)
        if base is None or base is AMBIGUOUS:
            return base
        resolved = canonical(base + ("." + rest if rest else ""))
        if resolved.startswith(LOCAL) and getattr(self, "np_mode", False):
            return self._other_alias(resolved) or resolved
        return resolved

    def _other_alias(self, dotted: str) -> Optional[str]:
        """The MXNet function another module of the tree binds `dotted` to at its top level
        (`from d2l import mxnet as d2l; d2l.zeros(...)`: Note [module aliases])."""
        kinds = self.facts.get(dotted) or ()
        if len(kinds) == 1 and next(iter(kinds)).startswith(ALIAS):
            return next(iter(kinds))[len(ALIAS):]
        return None

    # Note [F kept on self]
    # Gluon helpers keep MXNet's namespace on the instance and call through it: gluonts' kernels and
    # Gaussian process store it (`self.F = F if F else getF(x)`), its distributions give it from a
    # property (`def F(self): return getF(self.mu)`). Where every value `self.F` may hold is the
    # namespace (kinds.py), `self.F.op(...)` resolves as `F.op(...)` does, so its calls go through
    # the rules instead of staying MXNet calls on a value.
    def _self_namespace(self, key: ScopeKey, attr: str) -> Optional[str]:
        memo = self._self_attrs.get((key, attr))
        if memo is not None:
            return memo[0]
        node = ast.Attribute(value=ast.Name(id="self", ctx=ast.Load()), attr=attr, ctx=ast.Load())
        self._self_attrs[(key, attr)] = (None, node)  # a cycle through kinds_of answers None
        namespace = namespace_of(kinds_of(self, key, node)) if self.home(key, "self") is not None else None
        self._self_attrs[(key, attr)] = (namespace, node)  # the node is kept: kinds_of's memo is by id
        return namespace

    def _namespace_on_self(self) -> bool:
        """Whether some class keeps MXNet's namespace on its instances (an attribute or a property)."""
        for key, scope in self.scopes.items():
            if not scope.is_class:
                continue
            methods = [k for k, s in self.scopes.items() if s.parent is scope and isinstance(s.node, ast.FunctionDef)]
            if not methods:
                continue
            attrs = set(scope.attrs) | {k[-1][0] for k in methods}
            if any(self._self_namespace(methods[0], attr) for attr in attrs if not attr.startswith("__")):
                return True
        return False

    # -- Gluon blocks --------------------------------------------------------
    def gluon_class(self, key: ScopeKey) -> Optional[Scope]:
        """The Gluon block class whose method (or body) `key` is in, if any."""
        scope = self.scopes.get(key)
        while scope is not None and not scope.is_class:
            scope = scope.parent
        return scope if scope is not None and scope.gluon else None

    def block_params(self, cls: Scope, _seen: frozenset = frozenset()) -> dict[str, ast.Call]:
        """Attributes a Gluon class assigns from `self.params.get(...)`, `get_constant(...)`,
        `gluon.Parameter(...)` or a function handed `self.params`: Gluon passes them to hybrid_forward
        as keyword arguments under these names. Those its base classes of the same file register
        count too: Gluon passes every parameter the instance registered (SSD's VGGAtrousExtractor
        reads its base's `init_scale`)."""
        found = {}
        for base in (cls.node.bases if isinstance(cls.node, ast.ClassDef) and not cls.parent.is_class else ()):
            keys = [k for k in self.scopes if len(k) == len(cls.key) and k[:-1] == cls.key[:-1]
                    and isinstance(base, ast.Name) and k[-1][0] == base.id]
            scope = self.scopes[max(keys, key=lambda k: k[-1][1])] if keys else None
            if scope is not None and scope.is_class and scope.key not in _seen and scope is not cls:
                found.update(self.block_params(scope, _seen | {cls.key}))
        for attr, values in cls.attrs.items():
            # `self.bias = self.params.get('bias', ...) if use_bias else None`: a parameter the block may
            # not hold is still passed under its name when it does (and the signature's default stands in)
            values = [b for v in values for b in ((v.body, v.orelse) if isinstance(v, ast.IfExp) else (v,))]
            for v in values:
                if not isinstance(v, ast.Call):
                    continue
                if isinstance(v.func, ast.Attribute) and v.func.attr in ("get", "get_constant") \
                        and isinstance(v.func.value, ast.Attribute) and v.func.value.attr == "params":
                    found[attr] = v
                elif (dotted := _dotted(v.func)) is not None and self.resolve(cls.key, dotted) in PARAMETER_CLASSES:
                    found[attr] = v
                elif any(isinstance(a, ast.Attribute) and a.attr == "params" and isinstance(a.value, ast.Name)
                         and a.value.id == "self" for a in [*v.args, *(k.value for k in v.keywords)]):
                    found[attr] = v  # made by a helper handed the block's ParameterDict (`register(self.params, 'w')`)
        return found

    def constructed_by(self, key: ScopeKey, expr: ast.expr) -> set[str]:
        """Canonical names of the MXNet classes and calls that may have made `expr` (a name or
        `self.attr`), a class or factory of this tree counting as the Gluon classes it is or
        returns (Note [package facts]); empty when anything else may have."""
        if not isinstance(expr, (ast.Name, ast.Attribute)):
            return set()
        return set(kinds_of(self, key, expr) or ())

    # -- NDArray-ness ------------------------------------------------------
    def classify(self, key: ScopeKey, expr: ast.expr, _seen: Optional[set] = None) -> Optional[str]:
        """'nd' for an MXNet NDArray, 'np' for a numpy array, 'pt' for a torch tensor (made by
        `torch.*` or by a helper of converted code), None when unknown."""
        seen = _seen if _seen is not None else set()
        if expr is ARRAY_ARGUMENT:
            return self.array_kind
        if not seen and not isinstance(expr, ast.Name):
            # with nothing on the way yet, the answer is what a call of its own gives: each
            # link of a chain is classified once (converter._shape hands the same nodes again)
            memo = self._expr_kinds.get((key, id(expr)))
            if memo is not None and memo[0] is expr:
                return memo[1]
            kind = self._classify(key, expr, seen)
            if kind == _CYCLE and _seen is None:
                kind = None  # only bindings that say nothing: no kind is proven
            self._expr_kinds[(key, id(expr))] = (expr, kind)  # kept with its node: ids are reused
            return kind
        return self._classify(key, expr, seen, _seen)

    def _classify(self, key: ScopeKey, expr: ast.expr, seen: set, _seen: Optional[set] = True) -> Optional[str]:
        if isinstance(expr, ast.Name) and _seen is None:
            # A name assigned on every line of a long file has as many values: each use would
            # read them all again.
            cached = self._kinds.get((key, expr.id), self)
            if cached is self:
                cached = self._kinds[(key, expr.id)] = self.classify(key, expr, seen)
            return cached
        if isinstance(expr, ast.Name):
            scope = self.home(key, expr.id)
            if scope is None or expr.id in scope.imports or expr.id not in scope.values:
                return None
            if (scope.key, expr.id) in seen:
                return _CYCLE  # `x = x.T`: this binding adds nothing to what the others say
            seen.add((scope.key, expr.id))
            kinds = {self.classify(scope.key, v, seen) if v is not None else None
                     for v in scope.values[expr.id]} - {_CYCLE}
            return kinds.pop() if len(kinds) == 1 else None
        if isinstance(expr, ast.Call):
            func = _dotted(expr.func)
            if isinstance(expr.func, (ast.Name, ast.Attribute)):
                made = self.constructed_by(key, expr.func)  # calling a Gluon layer gives an NDArray
                if made and all(m.startswith("mxnet.gluon.") for m in made):
                    return self.array_kind
            if func is not None:
                resolved = self.resolve(key, func)
                if resolved and resolved.startswith("mxnet.ndarray.") and not resolved.endswith(_NOT_ARRAYS):
                    return "nd"
                if resolved and resolved.startswith(_NP_ROOTS) and not resolved.endswith(_NP_NOT_ARRAYS):
                    return "mxnp"
                if resolved and resolved.startswith("numpy."):
                    return "np"
                if resolved and resolved.startswith("torch.") and not resolved.startswith(_NOT_TENSORS) \
                        or func.startswith("_mx_") and "." not in func:
                    return "pt"
            if isinstance(expr.func, ast.Attribute):
                method = expr.func.attr
                if method in _CONVERTS:  # `numpy()`: a tensor's; numpy arrays have none of these
                    return _CONVERTS[method]
                if method in TORCH_MODULE_METHODS:
                    return "pt"
                if method in _FIXED_KIND:  # a Parameter's data(): what Gluon makes in this file
                    return self.array_kind
                if method in _MOVES:  # MXNet-only: an MXNet array of the receiver's kind
                    kind = self.classify(key, expr.func.value, seen)
                    return kind if kind in ("nd", "mxnp") else self.array_kind
                if method in ND_METHODS or (mx_api.fluent_op(method) and method not in _LIST_METHODS):
                    # an NDArray fluent method (`x.cbrt()`, `x.depth_to_space(2)`) gives an array of the receiver's kind
                    return self.classify(key, expr.func.value, seen)
                receiver = self.classify(key, expr.func.value, seen)
                if receiver in ("pt", "np"):  # what torch values give is torch's; NumPy's (a Generator's draws) NumPy's
                    return receiver
            return None
        if isinstance(expr, ast.Attribute) and (expr.attr == "T" or self.classify(key, expr.value, seen) == "pt"):
            return self.classify(key, expr.value, seen)
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "self":
            # `self.w = _mx_parameter(...)` in a method: a torch value wherever the class reads it
            scope = self.scopes.get(key)
            while scope is not None and not scope.is_class:
                scope = scope.parent
            values = scope.attrs.get(expr.attr, []) if scope is not None else []
            if ("self", scope.key if scope is not None else None, expr.attr) in seen:
                return None  # `self.n = self.n + 1`: this binding adds nothing to what the others say
            seen.add(("self", scope.key if scope is not None else None, expr.attr))
            # `self.emb = nd.empty(...)` in every binding the class makes: an MXNet array wherever the class reads it
            # (dgl-ke's `self.emb.context` stayed as written, taken for an object's setting: Note [sound kinds])
            kinds = {self.classify(scope.key, v, seen) if v is not None else None for v in values}
            if values and len(kinds) == 1 and kinds <= {"pt", "nd", "mxnp"}:
                return kinds.pop()
        if isinstance(expr, ast.Subscript):
            return self.classify(key, expr.value, seen)
        if isinstance(expr, ast.UnaryOp):
            return self.classify(key, expr.operand, seen)
        if isinstance(expr, ast.Compare) and len(expr.comparators) == 1:  # `a < b`: as `a - b`
            expr = ast.BinOp(left=expr.left, op=ast.Sub(), right=expr.comparators[0])
        if isinstance(expr, ast.BinOp):
            # a Python number takes the other side's kind (`0.5 * X[:, 1]` is NumPy's when X is)
            sides = [side for side in (expr.left, expr.right) if not self.number(key, side)] or [expr.left]
            kinds = {self.classify(key, side, seen) for side in sides}
            if _CYCLE in kinds:  # `y = y * 2`: what y's other bindings say, with a number
                # Note [sound kinds]: a name met again is not always a cycle (`X[:, 0] + X[:, 1]`
                # meets X twice); with an unknown side beside it, the result is unknown
                if None in kinds:
                    return None
                if kinds == {_CYCLE}:
                    return _CYCLE
                kinds.discard(_CYCLE)
            if "pt" in kinds and kinds <= {"pt", None}:
                return "pt"
            mx = kinds & {"nd", "mxnp"}  # an MXNet array with a number (or unknown) is that array's kind
            return mx.pop() if len(mx) == 1 and "np" not in kinds else ("np" if kinds == {"np"} else None)
        return None


    def number(self, key: ScopeKey, expr: ast.expr, _seen: Optional[set] = None) -> bool:
        """A Python number for sure: a numeric literal, arithmetic on numbers, `int(...)`,
        `len(...)`, or a name only ever assigned those."""
        seen = _seen if _seen is not None else set()
        if not seen and isinstance(expr, (ast.UnaryOp, ast.BinOp)):  # each link of `a + b + ...` once
            memo = self._expr_kinds.get(("number", key, id(expr)))
            if memo is not None and memo[0] is expr:
                return memo[1]
            found = self._number(key, expr, seen)
            self._expr_kinds[("number", key, id(expr))] = (expr, found)
            return found
        return self._number(key, expr, seen)

    def _number(self, key: ScopeKey, expr: ast.expr, seen: set) -> bool:
        if isinstance(expr, ast.Constant):
            return isinstance(expr.value, (int, float)) and not isinstance(expr.value, bool)
        if isinstance(expr, ast.UnaryOp):
            return self.number(key, expr.operand, seen)
        if isinstance(expr, ast.BinOp):
            return self.number(key, expr.left, seen) and self.number(key, expr.right, seen)
        if isinstance(expr, ast.Call):
            return isinstance(expr.func, ast.Name) and expr.func.id in ("int", "len", "round") \
                and self.lookup(key, expr.func.id) is None and not self._defined(key, expr.func.id)
        if isinstance(expr, ast.Name):
            scope = self.home(key, expr.id)
            if scope is None or expr.id in scope.imports or expr.id not in scope.values or (scope.key, expr.id) in seen:
                return False
            seen.add((scope.key, expr.id))
            values = scope.values[expr.id]
            return bool(values) and all(v is not None and self.number(scope.key, v, seen) for v in values)
        return False

    def _defined(self, key: ScopeKey, name: str) -> bool:
        scope = self.home(key, name)
        return scope is not None and name in scope.other


# Methods that return an array of the receiver's kind (numpy has most of them too).
ND_METHODS = frozenset(
    "reshape astype transpose swapaxes flatten expand_dims squeeze sum mean max min prod "
    "abs exp log sqrt square relu sigmoid tanh softmax log_softmax clip copy as_in_context "
    "as_in_ctx copyto broadcast_to tile repeat one_hot argmax argmin topk data grad "
    "std var cumsum round argsort dot take detach".split()
)
# fluent methods that give a list of arrays (or one, by their arguments), not an array
_LIST_METHODS = frozenset("split split_v2 topk".split())
# A Gluon Parameter's `data()` and `grad()` (numpy has neither method): the arrays Gluon makes.
_FIXED_KIND = frozenset("data grad".split())
# MXNet-only methods that move an array, store it otherwise, or give one of its shape: an MXNet
# array of the receiver's kind (`x.shape_array().split(num_outputs=4, axis=0)` is MXNet's split,
# `x.tostype('csr').tostype('default')` an array twice).
_MOVES = frozenset("as_in_context as_in_ctx copyto shape_array size_array tostype".split())
# Methods that convert between the three kinds (Note [numpy dialect]).
_CONVERTS = {"asnumpy": "np", "numpy": "np", "as_np_ndarray": "mxnp", "as_nd_ndarray": "nd"}
_NOT_ARRAYS = ("waitall", "save", "load", "split", "NDArray", "array_split")
_NP_ROOTS = ("mxnet.numpy.", "mxnet.numpy_extension.")
# dialect calls that give something else than one array: lists, tuples, None, devices, flags
_NP_NOT_ARRAYS = ("split", "array_split", "hsplit", "vsplit", "dsplit", "nonzero", "where", "unique", "shuffle",
                  "seed", "set_np", "reset_np", "waitall", "save", "savez", "load", "cpu", "gpu", "cpu_pinned",
                  "num_gpus", "current_context", "is_np_array", "is_np_shape", "topk", "meshgrid", "ndarray",
                  "shape", "ndim", "size", "use_np")


def _numpy_mode(analysis: "Analysis") -> bool:
    """Note [numpy dialect]: set_np()/use_np anywhere, or the dialect imported and `nd` not."""
    dialect = legacy = False
    for _, canon in analysis.mx_imports:
        if canon.startswith(("mxnet.numpy", "mxnet.util.use_np")):
            dialect = True
        elif canon.startswith("mxnet.ndarray"):
            legacy = True
    if not analysis.mx_imports:
        return False
    found = {d if isinstance(d, str) else _dotted(d) for d in analysis._np_names}  # `mx.np.zeros`, `npx.set_np`
    found.discard(None)
    for dotted in sorted(found):
        resolved = analysis.resolve((), dotted)
        if not resolved or resolved is AMBIGUOUS:
            continue
        if resolved in ("mxnet.numpy_extension.set_np", "mxnet.util.use_np"):
            return True
        if resolved.startswith(("mxnet.numpy", "mxnet.numpy_extension")):
            dialect = True
        elif resolved.startswith("mxnet.ndarray"):
            legacy = True
    return dialect and not legacy


NOT_ARRAYS = _NOT_ARRAYS  # nd.* functions that make no NDArray
NP_ROOTS, NP_NOT_ARRAYS = _NP_ROOTS, _NP_NOT_ARRAYS  # the same for the dialect
# torch calls whose result is no tensor (the rest of `torch.*` makes tensors or torch objects,
# which no MXNet rule applies to either)
_NOT_TENSORS = ("torch.save", "torch.load", "torch.split", "torch.chunk", "torch.unbind")


# Note [sound kinds]
# A value is an MXNet array ('nd', 'mxnp') only when that is proven; otherwise classify says
# None and the rules that depend on it emit a helper that decides at run time (`_mx_astype`),
# since a NumPy array has methods of the same names that mean other things. `_CYCLE` stands for
# "a name met again on the way" while one expression is classified: it adds nothing to what the
# name's other bindings say (`y = y * 2`), but a name met twice in one expression is met again
# without any cycle (`X[:, 0] + 0.5 * X[:, 1]`), so beside an unknown side it proves nothing,
# and it is never an answer of classify itself (a held-out program's NumPy labels became
# `.to(torch.float32)` through it).
_CYCLE = "<cycle>"


def _pure_dotted(node: ast.AST) -> bool:
    """`a.b.c`, names and attributes only: `nd.abs(x).T` is a value computed by a call, not a
    binding of MXNet's `abs` (Note [module aliases])."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


