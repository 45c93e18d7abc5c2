"""`def hybrid_forward(self, F, x, weight)` -> `def forward(self, x)` using `self.weight`.

Gluon calls hybrid_forward with its operator namespace F (already resolved to MXNet's
ndarray namespace, so `F.xxx` calls go through the NDArray rules) and with every parameter
the block holds as an attribute, as a keyword argument named after that attribute (Note
[parameters in **kwargs]).
"""
import ast

import libcst as cst

from xlate.convert.rulectx import Manual, Site
from xlate.convert.transforms.forward_device import on_input_device
from xlate.convert.transforms.forward_params import (FromKwargs, Rename, ToSelf, assigned_always, bind_first,
                                                     layer_params, reads_name)


# Note [F left]
# A hybrid_forward with one operator xlate has no rule for (an int8-only branch, a contrib
# kernel), or that uses F as a value (`print(F.__name__)`), used to be kept whole: the converted
# nn.Module then had no forward at all, and every other line of it was dead. The method becomes
# forward all the same; the reads of F that are left (each reported at its line) read `_mx_F`,
# a stand-in for MXNet's namespace whose operators raise when called, naming themselves. The
# lines that need a human fail there, and only when they run.
# Note [hybrid_forward called with something else than F]
# A block with a forward of its own may call its hybrid_forward itself, with something other than
# MXNet's namespace first: sockeye's LengthPenalty runs `self.hybrid_forward(None, lengths)` on
# Python numbers, and its body asks `if F is None: return 1.0`. Dropping F there would pass None
# as `lengths`, and `_mx_F is None` is never true. Such a class keeps F as hybrid_forward's first
# parameter: its operators are translated as ever (F is MXNet's namespace wherever it is one), a
# read of F as a value reads what the caller passed, and the calls Gluon made with its namespace
# (`super().forward(x)`, `self.hybrid_forward(F, x)`) pass `_mx_F`.
def keeps_namespace(cls) -> bool:
    """The class defines forward and hybrid_forward and calls `<self>.hybrid_forward(v, ...)` with
    a first argument that is no namespace (`None`, a number)."""
    if cls is None or cls.node is None or not {"forward", "hybrid_forward"} <= set(cls.values):
        return False
    for node in ast.walk(cls.node):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "hybrid_forward" and isinstance(node.func.value, ast.Name) \
                and node.func.value.id == "self" and node.args and not isinstance(node.args[0], ast.Starred) \
                and isinstance(node.args[0], ast.Constant):
            return True
    return False


# Note [a forward above hybrid_forward]
# Gluon runs a block's hybrid_forward from a forward: HybridBlock's own, or one the class or a base
# writes (`def forward(self, x): return super().forward(x) * 2`, whose super() reaches HybridBlock's,
# which calls `self.hybrid_forward`). torch runs `forward` alone, so a hybrid_forward becomes the
# class's forward only where no such forward is above it; beside one it keeps its name, without F
# (Note [explicit base calls]). A subclass that defines hybrid_forward alone, below a base of this
# file that writes forward, inherits that forward in Gluon: its hybrid_forward keeps its name too, or
# its torch forward would replace the base's, and the base's work around the call (the `* 2`) was lost.
def keeps_name(analysis, cls) -> bool:
    """The class's hybrid_forward stays `hybrid_forward`: the class, or a base of this file that Python's
    lookup reaches before MXNet's classes, defines forward (Note [a forward above hybrid_forward])."""
    todo, seen = [cls], set()
    while todo:
        scope = todo.pop(0)
        if scope.key in seen:
            continue
        seen.add(scope.key)
        if "forward" in scope.values:
            return True
        for base in scope.node.bases if isinstance(scope.node, ast.ClassDef) else ():
            found = class_scope(analysis, base.id) if isinstance(base, ast.Name) else None
            if found is not None:
                todo.append(found)
    return False


def class_scope(analysis, name: str):
    """The scope of the class `name` defines at the module's top level (its last definition), or None."""
    keys = [k for k in analysis.scopes if len(k) == 1 and k[0][0] == name]
    scope = analysis.scopes[max(keys, key=lambda k: k[0][1])] if keys else None
    return scope if scope is not None and scope.is_class else None


def transform(site: Site):
    fn: cst.FunctionDef = site.node
    conv = site.conv
    cls = conv.analysis.gluon_class(conv.scopes[-1])
    # Note [explicit base calls]: beside a forward of the class's own, or a base's, it keeps its name
    name = "hybrid_forward" if keeps_name(conv.analysis, cls) else "forward"
    params = list(fn.params.params)
    star = fn.params.star_arg
    if len(params) == 1 and not fn.params.posonly_params and isinstance(star, cst.Param) \
            and not reads_name(fn.body, star.name.value):
        # `def hybrid_forward(self, *args, **kwargs): raise NotImplementedError` (a stub of MXNet's own
        # SequentialRNNCell): F arrives in *args, which the body never reads, so torch's call is the same
        site.fixed(f"`hybrid_forward(self, *{star.name.value}, ...)` whose body never reads "
                   f"`{star.name.value}` -> `{name}`")
        return fn.with_changes(name=cst.Name(name))
    if fn.params.posonly_params or len(params) < 2:
        raise Manual("hybrid_forward without (self, F, ...) parameters")
    me, namespace = params[0].name.value, params[1].name.value
    left_f = ""
    kept_f = name == "hybrid_forward" and keeps_namespace(cls)
    if kept_f:  # Note [hybrid_forward called with something else than F]
        left_f = (f"; `{namespace}` stays its first parameter: the class calls it with other values there "
                  f"(`self.hybrid_forward(None, ...)`), and its own calls in Gluon's place pass `_mx_F`")
    elif reads_name(fn.body, namespace):  # Note [F left]
        fn = fn.with_changes(body=fn.body.visit(Rename(namespace, site.helper("_mx_F"))))
        left_f = (f"; `{namespace}` is still read by code left for a human (reported at its lines): "
                  f"those reads are `_mx_F`, whose operators raise naming themselves when called")
    registered = set(conv.analysis.block_params(cls)) | layer_params(conv, cls)
    listed = [p for p in params[2:] + list(fn.params.kwonly_params) if p.name.value in registered]
    missing = registered - {p.name.value for p in listed}
    body = fn.body
    passed_in = []
    if isinstance(fn.params.star_kwarg, cst.Param):
        # `gamma = kwargs['gamma']`: Gluon passes its parameters in **kwargs
        star = fn.params.star_kwarg.name.value
        reader = FromKwargs(star, missing, params[0].name.value)
        body = body.visit(reader)
        if reader.other_uses:  # Note [parameters in **kwargs]
            if not isinstance(body, cst.IndentedBlock):
                raise Manual(f"parameters arrive through **{star} in a one-line hybrid_forward that uses it "
                             f"otherwise: read them as `self.<name>` by hand")
            listed_names = tuple(sorted(p.name.value for p in listed))
            exclude = f", {listed_names!r}" if listed_names else ""
            passed_in = [f"{star}.update({site.helper('_mx_reg_params')}({me}{exclude}))"]
    names = {p.name.value for p in listed}
    keep = [p for p in params[2:] if p.name.value not in names]
    kwonly = [p for p in fn.params.kwonly_params if p.name.value not in names]
    if keep:
        keep[-1] = keep[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    if kwonly:
        kwonly[-1] = kwonly[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    star = fn.params.star_arg
    if not kwonly and isinstance(star, cst.ParamStar):
        star = cst.MaybeSentinel.DEFAULT
    if kept_f:
        keep = [params[1].with_changes(comma=cst.MaybeSentinel.DEFAULT if not keep else params[1].comma), *keep]
    new_params = fn.params.with_changes(params=[params[0], *keep], kwonly_params=kwonly, star_arg=star)
    rebound: set = set()
    optional = {p.name.value: p.default for p in listed if p.default is not None
                and not assigned_always(cls, p.name.value)}  # Note [optional parameters]
    if names:
        renamer = ToSelf(names, me, optional)
        renamed = body.visit(renamer)
        rebound = renamer.stored & names
        if rebound:  # `offsets = F.slice_like(offsets, ...)`: read once into the local name
            if not isinstance(body, cst.IndentedBlock):
                raise Manual(f"`{', '.join(sorted(rebound))}` is rebound inside a one-line hybrid_forward: "
                             f"read the parameter as `{me}.<name>` by hand")
            first = [f"{n} = getattr({me}, {n!r}, {cst.Module([]).code_for_node(optional[n])})" if n in optional
                     else f"{n} = {me}.{n}" for n in sorted(rebound)]
            renamed = bind_first(body.visit(ToSelf(names - rebound, me, optional)), first)
        body = renamed
    if passed_in:
        body = bind_first(body, passed_in)
    placed = ""
    if not kept_f:  # Note [devices in hybrid_forward]
        inputs = [p.name.value for p in keep] + ([f"*{star.name.value}"] if isinstance(star, cst.Param) else [])
        body, placed = on_input_device(site, body, inputs, bind_first)
    moved = f"; {', '.join(sorted(names - rebound))} -> {me}.<name>" if names - rebound else ""
    if rebound:
        moved += f"; {', '.join(sorted(rebound))} (rebound in the body) read once at its top: `<name> = {me}.<name>`"
    if optional:
        moved += (f"; {', '.join(sorted(optional))} (held on some paths only, a default in the signature) -> "
                  f"`getattr({me}, name, default)`")
    if passed_in:
        moved += f"; **{passed_in[0].split('.', 1)[0]} gets the block's own parameters as Gluon passes them (`{passed_in[0]}`)"
    site.fixed(f"`hybrid_forward({me}, {namespace}, ...)` -> `{name}({me}, ...)`{moved}{placed}{left_f}")
    return fn.with_changes(name=cst.Name(name), params=new_params, body=body)
