"""`except mx.base.MXNetError` -> `RuntimeError`; around a device probe, `(RuntimeError, AssertionError)`.

Note [device probes]
Tutorial code finds its GPUs by trying them: d2l's `try_gpu` and `try_all_gpus` create an array
on `mx.gpu(i)` inside `try:` and fall back to `mx.cpu()` on `except mx.base.MXNetError`. torch
raises RuntimeError where the CUDA build finds no device or driver, but a CPU-only build of torch
raises AssertionError ("Torch not compiled with CUDA enabled"), so the translated probe crashed
every program that called it on such a machine, where MXNet's fell back to the CPU. An `except`
whose `try:` body asks MXNet for a GPU catches both; any other catches RuntimeError (MX149's notes).
"""
import libcst as cst

from xlate.convert.rulectx import Site

_GPU = frozenset({"mxnet.gpu", "mxnet.context.gpu", "mxnet.context.Context"})


class _GpuCalls(cst.CSTVisitor):
    def __init__(self, conv):
        super().__init__()
        self.conv, self.found = conv, False

    def visit_Call(self, node: cst.Call) -> None:
        self.found = self.found or self.conv.resolve_expr(node.func) in _GPU


def _handled_by(site: Site) -> "cst.Try | None":
    """The innermost `try` whose `except` clause names the class being translated."""
    for node in reversed(site.conv.compound_stack):
        if isinstance(node, cst.Try):
            for handler in node.handlers:
                kind = handler.type
                if kind is site.original or (isinstance(kind, cst.Tuple)
                                             and any(e.value is site.original for e in kind.elements)):
                    return node
            return None
    return None


def transform(site: Site):
    probe = _handled_by(site)
    if probe is not None:
        calls = _GpuCalls(site.conv)
        probe.body.visit(calls)
        if calls.found:
            site.fixed("`except mx.base.MXNetError` around a GPU probe -> `except (RuntimeError, AssertionError)`: "
                       "torch raises RuntimeError where CUDA finds no device, AssertionError where torch was built "
                       "without CUDA; MXNet raised MXNetError for both")
            return site.emit("(RuntimeError, AssertionError)")
    return site.emit(site.rule.target)
