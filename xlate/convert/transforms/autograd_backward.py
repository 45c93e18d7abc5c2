"""`y.backward()` -> `y.sum().backward()` (MXNet's backward of a vector is that of its sum),
`y.backward(g)` as it is, after `trainer.zero_grad()` (grad_zeroing); where no trainer step
follows, `_mx_array_backward(y)`, which zeroes the gradients it reaches first."""
import libcst as cst

from xlate.convert.rulectx import Site, Skip
from xlate.convert.transforms import grad_zeroing

_EQ = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))
_SUM = ("MXNet's backward of an array is the backward of its sum (a head gradient of ones); torch's backward "
        "raises on a tensor of more than one element")
_WRITE = "MXNet overwrites gradients (grad_req='write'), torch adds to them: 0.12 apart after 3 steps"


def transform(site: Site):
    head = site.value("data")
    grad = site.value("out_grad")
    args = [] if grad is None or site.literal("out_grad") is None else [cst.Arg(grad)]
    retain = site.value("retain_graph")
    if retain is not None and site.literal("retain_graph") is not False:
        args.append(cst.Arg(retain, keyword=cst.Name("retain_graph"), equal=_EQ))
    for a in args[:-1]:
        args[args.index(a)] = a.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    summed = isinstance(head, cst.Call) and isinstance(head.func, cst.Attribute) and head.func.attr.value == "sum" \
        and not head.args
    call = site.emit("{y}.backward()" if args or summed else "{y}.sum().backward()", y=head)
    call = call.with_changes(args=args)
    if args and grad is not None and site.literal("out_grad") is not None:
        what = "`y.backward(g)` kept"
    elif summed:
        what = "`y.sum().backward()` kept"
    else:
        what = "`y.backward()` -> `y.sum().backward()` (" + _SUM + ")"
    trainer, added = grad_zeroing.place(site, head)
    if (args or summed) and not added and not grad_zeroing.attaches_grad(site):
        raise Skip()  # torch's backward as it stands (a converted file converted again)
    if trainer is None and not grad_zeroing.per_device(site, head):
        return _written(site, head, args)
    if trainer is not None:
        site.fixed(f"{what}, after `{trainer}.zero_grad()` ({_WRITE}; the trainer's step then scales by "
                   "1/batch_size)")
    else:  # one backward per device (`for l in losses: l.backward()`): their gradients must add up
        site.review(f"{what}; no trainer step follows it in this function, so nothing zeroes the gradients: "
                    f"{_WRITE}. Zero them before the loop (`x.grad = None` for an array with attach_grad) unless "
                    "the code accumulates them on purpose (grad_req='add')")
    return call


def _written(site: Site, head: cst.BaseExpression, args: list) -> cst.Call:
    """`_mx_array_backward(y, ...)`: MXNet's grad_req='write' at run time (the helper zeroes
    the gradients of the arrays this backward reaches, then backs up y's sum or y with `g`)."""
    call = site.emit("_mx_array_backward({y})", y=head)
    if args:
        first = call.args[0].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        call = call.with_changes(args=[first, *args])
    site.fixed("`y.backward()` -> `_mx_array_backward(y)`: no trainer step follows in this function to zero the "
               f"gradients, so the helper zeroes those this backward reaches first ({_WRITE}), then backs up "
               "the sum of y (ones as the head gradient) or y with the given one")
    return call
