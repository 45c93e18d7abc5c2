"""MXNet's autograd calls that take several heads or return gradients, in torch.

Copied as text into converted programs (xlate/runtime/__init__.py): torch and other `_mx_*`
helpers only. Compared with MXNet in tests/test_numeric_training.py.

MXNet's backward of a non-scalar head is the backward of its sum (a head gradient of ones);
torch raises for a non-scalar tensor without `gradient=`. MXNet's `autograd.grad` always
returns a list (even for one variable: its code re-binds `variables` before testing it).
"""
import torch


def _mx_head_grads(heads, head_grads):
    """Heads as a list, with ones where MXNet would use them."""
    heads = [heads] if isinstance(heads, torch.Tensor) else list(heads)
    if head_grads is None:
        head_grads = [None] * len(heads)
    elif isinstance(head_grads, torch.Tensor):
        head_grads = [head_grads]
    grads = [torch.ones_like(h) if g is None else g for h, g in zip(heads, head_grads)]
    return heads, grads


def _mx_backward(heads, head_grads=None, retain_graph=False, train_mode=True):
    """`mx.autograd.backward(heads, head_grads)`: gradients of the heads (ones where no head
    gradient is given) into every leaf that requires them."""
    heads, grads = _mx_head_grads(heads, head_grads)
    torch.autograd.backward(heads, grads, retain_graph=retain_graph)


def _mx_grad(heads, variables, head_grads=None, retain_graph=None, create_graph=False, train_mode=True):
    """`mx.autograd.grad`: the gradients of the heads with respect to `variables`, as a list;
    retain_graph defaults to create_graph, as in MXNet."""
    heads, grads = _mx_head_grads(heads, head_grads)
    variables = [variables] if isinstance(variables, torch.Tensor) else list(variables)
    if not variables:
        raise AssertionError("variables cannot be an empty list.")
    retain = create_graph if retain_graph is None else retain_graph
    return list(torch.autograd.grad(heads, variables, grads, retain_graph=retain, create_graph=create_graph))


def _mx_attach_grad(array, grad_req="write", stype=None):
    """`x.attach_grad(grad_req)`: x becomes a leaf that collects gradients; with 'add' the
    Trainer's zero_grad leaves its gradient alone, as Gluon accumulates it."""
    if grad_req == "null":
        return array.requires_grad_(False)
    array.requires_grad_()
    array._mx_grad_req = grad_req
    return array


def _mx_array_backward(array, out_grad=None, retain_graph=False, train_mode=True):
    """`y.backward(out_grad)` where no Trainer step follows to zero the gradients first: MXNet's
    default grad_req='write' overwrites the gradient of every array this backward reaches,
    torch adds to it, so those gradients are zeroed first (in place, as MXNet writes into the
    same array); one attached with grad_req='add' keeps adding (`_mx_attach_grad`). The head
    gradient defaults to ones (the backward of the sum)."""
    leaves, seen, stack = [], set(), [array.grad_fn]
    if array.grad_fn is None and array.requires_grad:
        leaves.append(array)
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        if hasattr(fn, "variable"):  # an AccumulateGrad node: its leaf receives a gradient
            leaves.append(fn.variable)
        stack.extend(f for f, _ in fn.next_functions)
    for leaf in leaves:
        if leaf.grad is not None and getattr(leaf, "_mx_grad_req", "write") != "add":
            leaf.grad.zero_()
    array.backward(torch.ones_like(array) if out_grad is None else out_grad, retain_graph=retain_graph)
