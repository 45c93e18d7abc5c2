"""`p.data()` / `p.grad()` of a Gluon Parameter -> the tensor (`p` or `p.data`) / `p.grad`."""
import libcst as cst

from xlate.convert.rulectx import Manual, Site
from xlate.convert.transforms import param_evidence
from xlate.convert.visiting import FastVisitor

_GRAD_FNS = ("forward", "hybrid_forward", "__call__")
_RECORDING = ("mxnet.autograd.record", "mxnet.autograd.train_mode")


def _recorded(site: Site) -> bool:
    """Lexically inside a forward method or an `autograd.record()` block: MXNet records
    operations on `p.data()` there, so gradients reach the parameter."""
    if any(name in _GRAD_FNS for name, _ in site.conv.scopes[-1]):
        return True
    for with_node in site.conv.with_stack:
        for item in with_node.items:
            call = item.item
            if isinstance(call, cst.Call) and site.conv.resolve_expr(call.func) in _RECORDING:
                return True
    return False


def _block_method(site: Site) -> bool:
    """In a method of a Gluon block class (`_spectral_norm`, a CRF's `_forward_alg`): such methods
    compute the block's outputs or its loss, called from forward or under autograd.record, where
    `.data()` stays on the tape in MXNet. `.data` would cut the gradient silently; the Parameter
    itself keeps it (an in-place write to it under autograd raises in torch, loudly)."""
    key = site.conv.scopes[-1]
    return len(key) >= 2 and site.conv.analysis.gluon_class(key) is not None \
        and site.conv.analysis.scopes.get(key[:1]) is not None and site.conv.analysis.scopes[key[:1]].is_class


def _grads_read(site: Site) -> bool:
    """The function reads `.grad` of a name (d2l's grad_clipping: `params = [p.data() for p in
    ...]`, then `p.grad`): the arrays it takes from `.data()` are read for their gradients."""
    scope = site.conv.analysis.scopes.get(site.conv.scopes[-1])
    return bool(site.conv.scopes[-1]) and scope is not None and bool(scope.grad_reads)


class _AttributeOf(FastVisitor):
    def __init__(self, target, attr: str):
        super().__init__()
        self.target, self.attr, self.found = target, attr, False

    def visit_Attribute(self, node: cst.Attribute) -> None:
        value = node.value.value if isinstance(node.value, cst.Subscript) else node.value  # `p.list_data()[0].grad`
        self.found |= value is self.target and node.attr.value == self.attr


def _attribute_taken(site: Site, attr: str) -> bool:
    """`p.data().<attr>` (or `p.list_data()[i].<attr>`) in the statement."""
    if not site.conv.statement_stack:
        return False
    seen = _AttributeOf(site.original, attr)
    seen.walk(site.conv.statement_stack[-1])
    return seen.found


def _size_taken(site: Site) -> bool:
    """`p.data().size` in the statement: torch's `.size` is a method (NDArray's an int)."""
    return _attribute_taken(site, "size")


def _runtime(site: Site) -> bool:
    """`p.data()` whose receiver is not evident, read where the Parameter's gradient does not
    matter (no forward, record block, gradient read or in-place write around it), in a file
    that imports MXNet: `_mx_param_data` can decide it."""
    return site.matched == ".data" and param_evidence.mxnet_file(site.conv.analysis) and not (
        site.conv.store_depth or site.conv.written_into or _recorded(site) or _block_method(site)
        or _grads_read(site) or _attribute_taken(site, "grad"))


def _runtime_recorded(site: Site) -> bool:
    """`p.data()` whose receiver is not evident, read in a forward or a record block (a Parameter
    handed to a loss block as an input: MXNet's embedding-learning example), in a file that imports
    MXNet: `_mx_param_value` decides it (an NDArray has no `data()`, so a tensor there is a
    converted Parameter). Not where it is written into or its gradient read."""
    return site.matched == ".data" and param_evidence.mxnet_file(site.conv.analysis) and not (
        site.conv.store_depth or site.conv.written_into or _grads_read(site)) and (
        _recorded(site) or _block_method(site) or _attribute_taken(site, "grad"))


def transform(site: Site):
    original = param_evidence.receiver(site)
    evident = param_evidence.is_param(original, param_evidence.facts(site.conv))
    site.bind("param", "ctx", evident=evident)
    param = site.value("param")
    if not evident and _runtime(site):
        # Note [parameter evidence]: a value from another cell or a dict (`d[k].data()`) decides
        # at run time; only a plain read, where `.data` is what the evident case gives too
        site.fixed(f"`{site.matched}()` on a value xlate could not type -> `_mx_param_data(...)`, decided at run "
                   "time: a torch tensor (a converted Gluon Parameter) gives `.data`, any other value its own "
                   f"`{site.matched}()`")
        call = site.emit("_mx_param_data({p})", p=param)
        if site.has("ctx"):
            call = call.with_changes(args=[call.args[0].with_changes(comma=cst.Comma(
                whitespace_after=cst.SimpleWhitespace(" "))), cst.Arg(site.value("ctx"))])
        return call
    if not evident and _runtime_recorded(site):
        site.fixed(f"`.data()` in a forward / autograd.record() or read for its `.grad`, on a value xlate could not type -> "
                   "`_mx_param_value(...)`, decided at run time: a torch tensor (a converted Gluon Parameter: an "
                   "MXNet array has no data()) is the Parameter itself, so the gradient reaches it as in MXNet; any "
                   "other value its own `.data()`")
        call = site.emit("_mx_param_value({p})", p=param)
        if site.has("ctx"):
            call = call.with_changes(args=[call.args[0].with_changes(comma=cst.Comma(
                whitespace_after=cst.SimpleWhitespace(" "))), cst.Arg(site.value("ctx"))])
        return call
    if not evident:
        what = site.code(param).strip()
        raise Manual(f"could not tell whether `{what}` is a Gluon Parameter; if it is, `{site.matched}()` -> "
                     f"`{what}.{site.matched.lstrip('.').replace('list_', '')}`")
    ctx = " (the context argument goes: a torch parameter lives on one device)" if site.has("ctx") else ""
    if site.matched in (".grad", ".list_grad"):
        # MXNet's gradient array exists from initialisation on (zeros); torch's is None until
        # the first backward: `_mx_with_grad` stores zeros first, as MXNet holds them
        site.fixed(f"`{site.matched}()` -> `_mx_with_grad(p).grad`{ctx}: zeros before the first backward, as MXNet's")
        grad = site.emit("_mx_with_grad({p}).grad", p=param)
        return cst.List([cst.Element(grad)]) if site.matched == ".list_grad" else grad
    if site.conv.store_depth or site.conv.written_into:  # `p.data()[:] = v`: an in-place write, never recorded
        out = site.emit("{p}.data", p=param)
        site.fixed(f"`.data()` written in place -> `.data`{ctx}")
    elif _recorded(site):
        out = param
        site.fixed(f"`.data()` in a forward / autograd.record() -> the Parameter itself, so the gradient "
                   f"reaches it as in MXNet{ctx}")
    elif _block_method(site):
        out = param
        site.fixed(f"`.data()` in a method of a Gluon block -> the Parameter itself: a block's methods run inside "
                   f"its forward or a loss recorded by autograd.record, where MXNet's gradient reaches the "
                   f"parameter{ctx}")
    elif _grads_read(site) or _attribute_taken(site, "grad"):  # `p.data().grad`: MXNet's gradient of p
        out = site.emit("_mx_with_grad({p})", p=param)
        site.fixed(f"`.data()` in a function that reads `.grad` -> `_mx_with_grad(p)`, the Parameter itself: torch "
                   f"keeps the gradient on the Parameter (`p.data.grad` is always None), MXNet on the data array, "
                   f"zeros until a backward reaches it (torch's None){ctx}")
    else:
        out = site.emit("{p}.data", p=param)
        msg = f"`.data()` -> `.data`, a view without gradient{ctx}"
        if site.conv.scopes[-1]:
            site.review(msg + "; if it feeds a loss computed under autograd.record (in a function called "
                        "there), use the Parameter itself so the gradient reaches it")
        else:
            site.fixed(msg)
    if _size_taken(site):
        site.review("`.data().size` is an element count in MXNet; torch's `.size` is a method: use "
                    "`.numel()` (the NDArray rule rewrites it only where it knows the receiver is an array)")
    return cst.List([cst.Element(out)]) if site.matched == ".list_data" else out
