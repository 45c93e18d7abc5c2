"""`block.hybrid_forward = function` -> `_mx_set_hybrid_forward(block, function)`.

# Note [hybrid_forward patched]
Gluon packages patch a layer's computation per instance: a quantization library keeps the layer's
own `origin = m.hybrid_forward` and puts in `m.hybrid_forward = types.MethodType(quantized, m)`,
whose body fake-quantizes the weight and calls `origin(F, x, weight_q, bias)`. Gluon's forward
calls whatever hybrid_forward the instance holds, with the block's parameters as keywords named as
Gluon names them. A converted layer is a torch module, which never reads an attribute called
hybrid_forward: the assignment kept as written ran without error and changed nothing, in silence.
So the assignment becomes `_mx_set_hybrid_forward`, which gives the module a forward calling the
function as Gluon would (its parameters and running statistics by Gluon's names, read at each
call), and the read `m.hybrid_forward` (MX839) gives the forward as of that read, which takes
parameters after the inputs and computes with them in place of the module's own. On anything
that is not a torch module both keep the plain attribute."""
import libcst as cst

from xlate.convert.rulectx import Site


def transform(site: Site):
    site.fixed("`block.hybrid_forward = f` -> `_mx_set_hybrid_forward(block, f)`: the module's forward calls "
               "f(F, *inputs, **params) as Gluon's does, with its parameters by Gluon's names")
    call = site.emit(site.helper("_mx_set_hybrid_forward") + "({b}, {f})", b=site.value("target"),
                     f=site.value("value"))
    return cst.Expr(call)
