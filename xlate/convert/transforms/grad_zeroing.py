"""Where `trainer.zero_grad()` goes for a backward call (MX536, Note [Gluon's Trainer] in
xlate/runtime/optim.py).

MXNet's default grad_req='write' makes each backward overwrite the gradients; torch adds to
them, so left alone every step would use the sum of all gradients so far (0.12 apart after 3
steps, layers.md 8.3). A step consumes the gradients of the backward calls since the previous
step: `trainer.zero_grad()` goes right before the statement, in the block that holds the
step, that contains this backward (the `for l in losses:` loop of a multi-device loop, whose
per-device gradients MXNet sums: they must add up). The search climbs out of nested blocks
(if, with, try) but not out of the function, nor out of any other loop: a step after a loop
sees only the last iteration's gradients in MXNet, and a step in a later loop belongs to
other backward calls (a from-scratch loop before the Gluon one: a `zero_grad()` put before
it would run before the trainer exists). Where no step follows, `_mx_array_backward` zeroes
what the backward reaches.
"""
from __future__ import annotations

import ast
from typing import Optional

import libcst as cst

from xlate.convert import astwalk
from xlate.convert.rulectx import Site
from xlate.convert.transforms.train_models import _ast_of, dotted
from xlate.convert.visiting import FastVisitor

_STEPS = ("step", "update")


def _is_trainer(site: Site, text: str) -> bool:
    analysis = site.conv.analysis
    kinds = analysis.constructed_by(site.conv.scopes[-1], _ast_of(analysis, text))
    if kinds:
        return any(k.startswith("mxnet.gluon.Trainer") for k in kinds)
    return "trainer" in text.rsplit(".", 1)[-1].lower()


class _Steps(FastVisitor):
    def __init__(self, site: Site):
        self.site = site
        self.found: Optional[str] = None

    def visit_Call(self, node: cst.Call) -> Optional[bool]:
        if self.found is None and isinstance(node.func, cst.Attribute) and node.func.attr.value in _STEPS:
            text = dotted(node.func.value)
            if text is not None and _is_trainer(self.site, text):
                self.found = text
        return self.found is None

    def visit_FunctionDef(self, node) -> bool:
        return False

    visit_ClassDef = visit_FunctionDef


def _step_in(site: Site, stmts) -> Optional[str]:
    finder = _Steps(site)
    for stmt in stmts:
        finder.walk(stmt)
        if finder.found:
            return finder.found
    return None


def place(site: Site, head: Optional[cst.BaseExpression] = None) -> tuple[Optional[str], bool]:
    """Put `trainer.zero_grad()` before the statement holding this backward in the block of
    the step that follows it; (the trainer's expression, or None when no step follows; whether
    the call was added, False when it is there already)."""
    conv = site.conv
    open_statements = list(conv.compound_stack) + list(conv.statement_stack[-1:])
    inner = True
    for block in reversed(conv.block_stack):
        holder = next((s for s in reversed(open_statements) if any(s is b for b in block)), None)
        if holder is None:
            continue
        if isinstance(holder, (cst.FunctionDef, cst.ClassDef)):
            return None, False
        if not inner and isinstance(holder, (cst.For, cst.While)) and not _loops_over(holder, head):
            return None, False  # the loop's other iterations would overwrite these gradients first
        inner = False
        index = next(i for i, b in enumerate(block) if b is holder)
        trainer = _step_in(site, block[index + 1:])
        if trainer is not None:
            zero = cst.Expr(site.emit(f"{trainer}.zero_grad()"))
            previous = block[index - 1] if index else None
            there = isinstance(previous, cst.SimpleStatementLine) and len(previous.body) == 1 \
                and site.code(previous.body[0]).strip() == f"{trainer}.zero_grad()"
            if not there:
                conv.insert_before(holder, [zero])  # (a converted file converted again has it)
            return trainer, not there
    return None, False


def _loops_over(loop, head) -> bool:
    """`for l in losses:` with `l.backward()` inside: one backward per device."""
    if not isinstance(loop, cst.For) or not isinstance(head, cst.Name):
        return False
    targets = [loop.target] + (list(e.value for e in loop.target.elements)
                               if isinstance(loop.target, (cst.Tuple, cst.List)) else [])
    return any(isinstance(t, cst.Name) and t.value == head.value for t in targets)


def per_device(site: Site, head: cst.BaseExpression) -> bool:
    """`for l in losses: l.backward()`: one backward per device, whose gradients MXNet sums
    (each device has its own copy of the parameters; torch has one, so they must add up)."""
    for node in reversed(site.conv.compound_stack):
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            return False
        if isinstance(node, cst.For):
            return _loops_over(node, head)
    return False


def in_loop(site: Site) -> bool:
    """The backward runs in a loop of its function."""
    for node in reversed(site.conv.compound_stack):
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            return False
        if isinstance(node, (cst.For, cst.While)):
            return True
    return False


def attaches_grad(site: Site) -> bool:
    """The file calls MXNet's `attach_grad()` (gone from a converted file)."""
    analysis = site.conv.analysis
    found = getattr(analysis, "_xlate_attaches_grad", None)
    if found is None:
        found = any(isinstance(n, ast.Attribute) and n.attr == "attach_grad" for n in astwalk.walk(analysis.tree))
        analysis._xlate_attaches_grad = found
    return found


def uses_trainer(site: Site) -> bool:
    """The file builds a Gluon Trainer somewhere (then every backward feeds one)."""
    analysis = site.conv.analysis
    found = getattr(analysis, "_xlate_uses_trainer", None)
    if found is None:
        found = any((isinstance(n, ast.Attribute) and n.attr == "Trainer") or (isinstance(n, ast.Name) and
                    n.id == "Trainer") for n in astwalk.walk(analysis.tree))
        analysis._xlate_uses_trainer = found
    return found
