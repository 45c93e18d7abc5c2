"""`super().__init__(prefix=..., params=..., **kwargs)` in a Gluon block -> `super().__init__()`."""
import ast

import libcst as cst

from xlate.convert.rulectx import Manual, Site, Skip

# Gluon classes whose __init__ takes only naming arguments (prefix, params)
NAMING_ONLY = ("mxnet.gluon.Block", "mxnet.gluon.HybridBlock", "mxnet.gluon.SymbolBlock",
               "mxnet.gluon.nn.Sequential", "mxnet.gluon.nn.HybridSequential")


def _reached(analysis, cls, depth: int = 0) -> list:
    """The MXNet bases whose __init__ `super().__init__(...)` reaches: the class's own, or those of
    the Gluon classes of this file it derives from when they define no __init__ (sockeye's
    `SSRU(AutoregressiveLayer)`, an abstract block over HybridBlock); none when a base of the file
    takes its own arguments or is not known here."""
    if cls.mx_bases or depth > 10:
        return list(cls.mx_bases)
    found = []
    for base in cls.node.bases if isinstance(cls.node, ast.ClassDef) else []:
        local = [s for k, s in analysis.scopes.items() if s.is_class and s.parent is analysis.scopes.get(())
                 and isinstance(base, ast.Name) and k[-1][0] == base.id]
        if len(local) != 1 or not local[0].gluon or any(
                s.parent is local[0] and k[-1][0] == "__init__" for k, s in analysis.scopes.items()):
            return []
        found += _reached(analysis, local[0], depth + 1)
    return found


def _is_super(node) -> bool:
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "super"


def transform(site: Site):
    call = site.node
    cls = site.conv.analysis.gluon_class(site.conv.scopes[-1])
    bases = _reached(site.conv.analysis, cls) if cls is not None else []
    if not _is_super(site.receiver) or not bases or not call.args:
        raise Skip()  # a base class of this file takes its own arguments; nothing to drop
    others = [b for b in bases if b not in NAMING_ONLY]
    layers = [b for b in others if b in site.conv.rules.classes]  # Gluon-signature helpers
    if layers and len(layers) == len(others):
        raise Skip()  # `_mx_BatchNorm` & co. take Gluon's own arguments: the call stays as it is
    if others:
        raise Manual(f"a subclass of `{others[0]}`: map its constructor arguments to the PyTorch layer by hand")
    dropped = ", ".join(site.code(a).strip().rstrip(",") for a in call.args)
    shared = [a for a in call.args if a.keyword is not None and a.keyword.value == "params"
              and not (isinstance(a.value, cst.Name) and a.value.value == "None")]
    if shared:
        # Note [params= on a block of the tree]: a caller that hands the block another's
        # ParameterDict (gluonnlp's one-step decoder, `params=decoder.collect_params()`) means the
        # two to be one set of weights; the converted block makes its own
        site.review(f"dropped `{dropped}`: a caller passing `params=` (another block's parameters) gets a "
                    "block with parameters of its own, where Gluon shared them: share by reusing the "
                    "module or assigning its tensors")
    prefix = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "prefix"), None)
    stmt = site.conv.statement_stack[-1] if site.conv.statement_stack else None
    me = _self_name(site)
    if prefix is not None and me is not None and stmt is not None and len(stmt.body) == 1 \
            and isinstance(stmt.body[0], cst.Expr) and stmt.body[0].value is site.original:
        # Note [a block's own prefix]
        for a in call.args:
            if a.value is not prefix:
                site.conv.dropped(a)
        named = site.emit(site.helper("_mx_named") + "({me}, prefix={p})", me=cst.Name(me), p=prefix)
        if not shared:
            site.fixed(f"dropped `{dropped}` from nn.Module's __init__; the block's `prefix=` kept for Gluon's "
                       f"names: `{site.helper('_mx_named')}({me}, prefix=...)` (Note [Gluon names])")
        site.conv.replace_statement(stmt, [cst.Expr(call.with_changes(args=())), cst.Expr(named)])
        return site.node
    for a in call.args:
        site.conv.dropped(a)
    if not shared:
        site.fixed(f"dropped `{dropped}`: Gluon's prefix/params naming has no nn.Module counterpart "
                   "(torch names parameters by attribute path)")
    return call.with_changes(args=())


# Note [a block's own prefix]
# `super().__init__(prefix=name)` gives the block the name Gluon prefixes its parameters with
# (sockeye's losses are named 'cross-entropy', its models by the prefix their caller passes).
# nn.Module's __init__ takes none, so the prefix goes to `_mx_named(self, prefix=...)`, which
# `_mx_block_name` / `_mx_collect_params` read as they read a layer's `prefix=` (Note [Gluon
# names] in xlate/runtime/naming.py). Only an explicit `prefix=` keyword: one arriving in
# **kwargs is a caller's, and the translation of that call keeps it for its own block.
def _self_name(site: Site):
    key = site.conv.scopes[-1]
    scope = site.conv.analysis.scopes.get(key)
    node = scope.node if scope is not None else None
    args = getattr(node, "args", None)
    return args.args[0].arg if args is not None and args.args else None
