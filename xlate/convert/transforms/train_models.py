"""Which Gluon models a block of code runs, and MXNet's autograd state around it (used by the
autograd mode rules, MX532-MX534, and is_training()).

Note [training mode]
MXNet takes BatchNorm's and Dropout's behaviour from autograd's global training flag
(`autograd.record()` sets it, `predict_mode()` clears it, outside any record a model
predicts); torch from each module's `.train()` / `.eval()`. The translation keeps MXNet's
rule by putting each model a block runs in the mode MXNet's block sets, before the block,
and back in the enclosing mode after it (eval at the top level: MXNet predicts outside
record()). `_mx_initialize` leaves a model in eval mode for the same reason. The models are
found statically: what the block calls or passes on (`net(x)`, `loss(net(x), y)`,
`forward(net, x)`) that is a Gluon block by construction (xlate.convert.kinds), or whose
name the file uses as one (`net.collect_params()`, `net.initialize()`, ...: a parameter
`net` of a training function is usually known only so). Where none is found, the report
says so: the user must set the mode by hand.
"""
from __future__ import annotations

import ast
from typing import Optional

import libcst as cst

from xlate.convert import astwalk
from xlate.convert.kinds import ast_dotted as _ast_dotted
from xlate.convert.rulectx import Site
from xlate.convert.visiting import FastVisitor

# methods only a Gluon block has (or that a training script calls only on one)
_BLOCK_METHODS = frozenset("collect_params initialize hybridize save_parameters load_parameters save_params "
                           "load_params export summary register_child name_scope cast reset_ctx".split())
_NOT_MODELS = (".loss", ".data", ".metric", ".utils", ".Trainer", ".Parameter", ".optimizer", ".lr_scheduler")
AUTOGRAD = "mxnet.autograd."

# the autograd state a With statement sets: (recording, training) given the enclosing one;
# None keeps the enclosing value; a string names the call's argument holding the value
_STATES = {
    "record": (True, "train_mode"),
    "pause": (False, "train_mode"),
    "train_mode": (None, True),
    "predict_mode": (None, False),
}
_DEFAULTS = {"record": True, "pause": False}


def dotted(node) -> Optional[str]:
    parts = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if isinstance(node, cst.Name):
        parts.append(node.value)
        return ".".join(reversed(parts))
    return None


def _ast_of(analysis, text: str) -> ast.expr:
    """An `ast` expression for `text`, kept alive on the analysis: kinds_of memoises by id()."""
    cache = analysis.__dict__.setdefault("_xlate_exprs", {})
    if text not in cache:
        cache[text] = ast.parse(text, mode="eval").body
    return cache[text]


def _evidence(analysis) -> set[str]:
    """Names (and `self.x` chains) the file calls a Gluon-block-only method on."""
    found = getattr(analysis, "_xlate_block_names", None)
    if found is None:
        found = set()
        for node in astwalk.walk(analysis.tree):
            if isinstance(node, ast.Attribute) and node.attr in _BLOCK_METHODS:
                text = _ast_dotted(node.value)
                if text is not None:
                    found.add(text)
        analysis._xlate_block_names = found
    return found




def is_model_kind(name: str) -> bool:
    return name.startswith(("mxnet.gluon.", "gluonnlp.", "gluoncv.")) and not any(n in name for n in _NOT_MODELS)


class _Used(FastVisitor):
    """Name / attribute chains a block calls or passes as arguments, in order; nested
    functions and classes are not the block's code."""

    def __init__(self):
        self.found: list[str] = []

    def _add(self, node) -> None:
        text = dotted(node)
        if text is not None and text not in self.found:
            self.found.append(text)

    def visit_Call(self, node: cst.Call) -> None:
        self._add(node.func)
        for arg in node.args:
            self._add(arg.value)

    def visit_FunctionDef(self, node) -> bool:
        return False

    def visit_ClassDef(self, node) -> bool:
        return False


def models_in(site: Site, body: cst.CSTNode) -> list[str]:
    """The model expressions a block runs (Note [training mode])."""
    used = _Used()
    used.walk(body)
    analysis, scope = site.conv.analysis, site.conv.scopes[-1]
    evidence = _evidence(analysis)
    models = []
    for text in used.found:
        head = text.split(".", 1)[0]
        if analysis.lookup(scope, head) is not None:  # an import: `nd.relu`, `gluon.loss.L2Loss`
            continue
        kinds = analysis.constructed_by(scope, _ast_of(analysis, text))
        if kinds:
            if all(is_model_kind(k) for k in kinds):
                models.append(text)
            continue
        if text in evidence:
            models.append(text)
    return models


def exits_early(body: cst.CSTNode) -> bool:
    """The block may leave before its end (return, break, continue, raise, yield)."""
    class Exits(cst.CSTVisitor):
        found = False

        def visit_Return(self, node) -> None:
            self.found = True

        visit_Break = visit_Continue = visit_Raise = visit_Yield = visit_Return

        def visit_FunctionDef(self, node) -> bool:
            return False

        def visit_For(self, node) -> bool:  # break / continue there stay in the block
            return not _loop_only(node)

        visit_While = visit_For

    finder = Exits()
    body.visit(finder)
    return finder.found


def _loop_only(loop) -> bool:
    """A loop whose body leaves only by break/continue (which end the loop, not the block)."""
    class Leaves(cst.CSTVisitor):
        found = False

        def visit_Return(self, node) -> None:
            self.found = True

        visit_Raise = visit_Yield = visit_Return

        def visit_FunctionDef(self, node) -> bool:
            return False

    finder = Leaves()
    loop.visit(finder)
    return not finder.found


def autograd_call(site: Site, with_node: cst.With) -> Optional[tuple[str, cst.Call]]:
    """(record | pause | train_mode | predict_mode, the call) when `with_node` is a plain
    `with autograd.X(...):` statement."""
    if len(with_node.items) != 1 or with_node.items[0].asname is not None:
        return None
    call = with_node.items[0].item
    if not isinstance(call, cst.Call):
        return None
    name = site.conv.resolve_expr(call.func)
    if name is None or not name.startswith(AUTOGRAD) or name[len(AUTOGRAD):] not in _STATES:
        return None
    return name[len(AUTOGRAD):], call


def flag(site: Site, kind: str, call: cst.Call):
    """The training flag a With sets: True/False, or source text for a value known at run
    time."""
    recording, training = _STATES[kind]
    if not isinstance(training, str):
        return training
    arg = next((a for a in call.args if a.keyword is not None and a.keyword.value == training), None)
    arg = arg or next((a for a in call.args if a.keyword is None), None)
    if arg is None:
        return _DEFAULTS[kind]
    value = site.evaluate(arg.value)
    return value if isinstance(value, bool) else site.code(arg.value)


def step(kind: str, enclosing: tuple, flag) -> tuple:
    """The state (recording, training, no_grad) inside a `with autograd.<kind>():` given the
    enclosing one; `no_grad` says whether the translation wrote a `torch.no_grad()` around it."""
    recording, _, no_grad = enclosing
    if kind == "record":
        return True, flag, False
    if kind == "pause":
        return False, flag, True
    return recording, flag, no_grad or not recording


def state(site: Site, withs: list) -> tuple:
    """(recording, training, no_grad) lexically in force inside `withs` (outermost first),
    from MXNet's default: not recording, predicting."""
    current = (False, False, False)
    for node in withs:
        found = autograd_call(site, node)
        if found is not None:
            kind, call = found
            current = step(kind, current, flag(site, kind, call))
    return current
