"""Arrays made inside a converted hybrid_forward go on the device of its first input array.

Note [devices in hybrid_forward]
Gluon's HybridBlock.forward runs hybrid_forward inside `with ctx:`, ctx being the context of the
first NDArray among the block's positional inputs (nested lists searched; mxnet/gluon/block.py,
_gather_type_ctx_info). So `F.arange(n)`, `F.zeros(shape)`, `F.random.uniform(...)` written
without `ctx=` make their arrays next to the input: the anchors and index grids that detectors
build in hybrid_forward. torch's creation functions use the default device, so the converted
forward would mix a CPU tensor into a CUDA computation and raise on the first GPU run. The
converted forward binds `_mx_device = _mx_input_device(<its positional inputs>)` once (the
runtime helper searches them as Gluon does) and passes `device=_mx_device` to each creation call
that names no device. On the CPU nothing changes. A plain Block's forward runs under no such
`with`, and is left as it is; so are the helpers a body calls (a runtime helper that makes an
array follows its own array arguments).
"""
import libcst as cst

from xlate.convert.visiting import FastVisitor

# torch's creation functions the NDArray rules write, all taking `device=`
CREATORS = frozenset({"arange", "zeros", "ones", "full", "empty", "eye", "linspace", "logspace", "rand", "randn",
                      "randint", "tensor", "as_tensor"})
LOCAL = "_mx_device"


def _creator(call: cst.Call) -> bool:
    f = call.func
    return isinstance(f, cst.Attribute) and isinstance(f.value, cst.Name) and f.value.value == "torch" \
        and f.attr.value in CREATORS and not any(a.keyword is not None and a.keyword.value == "device"
                                                 for a in call.args) \
        and not any(a.star for a in call.args)


class _Finds(FastVisitor):
    def __init__(self):
        super().__init__()
        self.found = False

    def visit_Call(self, node):
        if _creator(node):
            self.found = True


class _AddDevice(cst.CSTTransformer):
    def __init__(self, device: cst.BaseExpression):
        super().__init__()
        self.device = device

    def leave_Call(self, original, updated):
        if not _creator(updated):
            return updated
        args = list(updated.args)
        if args:
            args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        return updated.with_changes(args=[*args, cst.Arg(self.device, keyword=cst.Name("device"),
                                                           equal=cst.AssignEqual(cst.SimpleWhitespace(""),
                                                                                 cst.SimpleWhitespace("")))])


def on_input_device(site, body, inputs: list[str], bind_first):
    """`body` with `device=` given to its creation calls, and a note for the report ('' when none)."""
    finder = _Finds()
    body.visit(finder)
    if not finder.found:
        return body, ""
    helper = site.helper("_mx_input_device")
    located = f"{helper}({', '.join(inputs)})"
    if isinstance(body, cst.IndentedBlock):
        body = bind_first(body.visit(_AddDevice(cst.Name(LOCAL))), [f"{LOCAL} = {located}"])
    else:
        body = body.visit(_AddDevice(cst.parse_expression(located)))
    return body, (f"; arrays it makes without `ctx=` go on its first input array's device, as Gluon makes them "
                  f"(`{located}`)")
