"""Gluon internals that model code reads off its blocks: `._children` (torch's `._modules`,
the same ordered name -> child mapping), and `.name` / `.prefix` (`_mx_block_name` /
`_mx_block_prefix`, Gluon's names for the converted model)."""
import ast

import libcst as cst

from xlate.convert.rulectx import Manual, Site, Skip
from xlate.convert import names
from xlate.convert.transforms import param_evidence


def transform(site: Site):
    what = param_evidence.block_kind(site, param_evidence.receiver(site))
    receiver = site.code(site.receiver).strip()
    if site.matched == "._children":
        if what == "no":
            raise Skip()
        if what == "unknown":
            raise Manual(f"could not tell whether `{receiver}` is a Gluon block; if it is, `._children` -> "
                         "`._modules` (the same name -> child mapping)")
        site.fixed("`._children` -> `._modules`: the block's children by name, in the order they were added")
        return site.emit("{b}._modules", b=site.receiver)
    if what == "unknown" and site.matched == ".name" and (_block_argument(site) or _tested_block(site)):
        site.fixed("`name` of what may be a block (given to a Gluon class's method, or tested with isinstance "
                   "against a Gluon block) -> `_mx_block_name(...)`, decided at run time: Gluon's name for a torch "
                   "module (Note [Gluon names]), any other value's own `.name`")
        return site.emit("_mx_block_name({b})", b=site.receiver)
    if what == "unknown" and site.matched == ".name" \
            and param_evidence.is_param(param_evidence.receiver(site), param_evidence.facts(site.conv)):
        # `for p in net.collect_params().values(): p.name`: a tensor's `.name` is None in torch
        site.fixed("`name` of a Gluon Parameter -> `_mx_block_name(...)`, decided at run time: the full Gluon name "
                   "of the tensor in the model that holds it (`dense0_weight`), any other value's own `.name`")
        return site.emit("_mx_block_name({b})", b=site.receiver)
    if what == "no" or (what == "unknown" and site.matched != "._prefix"):
        raise Skip()  # `.name` is everybody's attribute: only a Gluon block's is Gluon's
    if what == "unknown":
        raise Manual(f"could not tell whether `{receiver}` is a Gluon block; if it is, `{receiver}._prefix` -> "
                     f"`_mx_block_prefix({receiver})`")
    if _in_init(site) and site.matched in (".prefix", ".name") and _naming_only(site):
        # Note [names while building]
        helper = "_mx_block_name" if site.matched == ".name" else "_mx_block_prefix"
        site.review(f"`{receiver}{site.matched}` while the block is being built, only to name what it builds or to log "
                    f"-> `{helper}(...)`, the block's name as a top-level one: Gluon's had the scope of the model "
                    "around it in front, which does not exist yet (Note [Gluon names]); torch names the children "
                    "by attribute path, so no number depends on it")
        return site.emit(f"{helper}({{b}})", b=site.receiver)
    if _in_init(site):
        raise Manual(f"`{receiver}{site.matched}` while the block is being built: Gluon knows a block's name from "
                     "its construction, the translation from the finished model it is part of (Note [Gluon names]); "
                     "use a name of your own here")
    helper = "_mx_block_name" if site.matched == ".name" else "_mx_block_prefix"
    site.fixed(f"`{site.matched[1:]}` -> `{helper}(...)`: the name Gluon gives the block in the model it is part "
               f"of (Note [Gluon names])")
    return site.emit(f"{helper}({{b}})", b=site.receiver)


# Note [names while building]
# sockeye's models name their children after themselves while building them
# (`encoder.Embedding(config, prefix=self.prefix + 'source_embed_')`) and log their own name. The
# translation drops `prefix=` where a block hands it to Gluon (MX101), so such a string names
# nothing that holds numbers; the block's name as a top-level block stands in for it, reviewed.
# Any other read while building (a selection of parameters by name, a file name) stays manual.
_LOGGERS = ("debug", "info", "warning", "warn", "error", "exception", "critical", "log", "print")


def _naming_only(site: Site) -> bool:
    """The read sits in a `prefix=`/`name=` argument, or in the arguments of a logging call or
    print, of the statement being converted."""
    stmt = site.conv.statement_stack[-1] if site.conv.statement_stack else None
    if stmt is None:
        return False
    found = []

    class _Find(cst.CSTVisitor):
        def __init__(self):
            super().__init__()
            self.context: list = []

        def visit_Call(self, node):
            func = node.func
            name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", None)
            self.context.append("log" if name in _LOGGERS else None)

        def leave_Call(self, node):
            self.context.pop()

        def visit_Arg(self, node):
            keyword = node.keyword.value if node.keyword is not None else None
            self.context.append("name" if keyword in ("prefix", "name") else None)

        def leave_Arg(self, node):
            self.context.pop()

        def visit_Attribute(self, node):
            if node is site.original:
                found.append(any(c is not None for c in self.context[-2:]) if self.context else False)

    stmt.visit(_Find())
    return bool(found) and all(found)


def _in_init(site: Site) -> bool:
    """Inside a Gluon class's `__init__`, where the model around the block does not exist yet."""
    key = site.conv.scopes[-1]
    return bool(key) and key[-1][0] == "__init__" and site.conv.analysis.gluon_class(key) is not None


def _block_argument(site: Site) -> bool:
    """`block.name` where `block` is a parameter of a method (not `__init__`) of a Gluon class of
    this file: d2l's `MySequential.add(self, block)` keys its children by it. `_mx_block_name`
    gives any value that is no torch module its own `.name`, so the guess costs nothing where it
    is wrong."""
    key = site.conv.scopes[-1]
    receiver = site.original.value
    if not key or key[-1][0] == "__init__" or site.conv.analysis.gluon_class(key) is None \
            or not hasattr(receiver, "value") or not isinstance(receiver.value, str):
        return False
    node = site.conv.analysis.scopes[key].node
    args = getattr(node, "args", None)
    return args is not None and receiver.value in {a.arg for a in args.args[1:] + args.kwonlyargs}


def _tested_block(site: Site) -> bool:
    """`block.name` where the function tests `isinstance(block, (Block, HybridBlock))` (MXFusion's
    `if not isinstance(block, (Block, HybridBlock)): raise ...` before `func_name=block.name`): the
    value is meant to be a Gluon block. `_mx_block_name` gives any other value its own `.name`, so the
    guess costs nothing where it is wrong."""
    key = site.conv.scopes[-1]
    receiver = site.original.value
    scope = site.conv.analysis.scopes.get(key) if key else None
    if scope is None or not isinstance(receiver, cst.Name):
        return False
    known = param_evidence.facts(site.conv)
    for node in ast.walk(scope.node):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance" \
                and len(node.args) == 2 and isinstance(node.args[0], ast.Name) and node.args[0].id == receiver.value:
            classes = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
            if any(param_evidence._gluon(site.conv, names._dotted(c), known.gluon_classes) for c in classes):
                return True
    return False
