"""MX583: a Gluon block's own method named like one of torch.nn.Module's (`parameters`, `train`,
`children`, ...). Gluon has no such method, so in MXNet only the program calls it; in the translated
class it replaces torch's, which torch itself (zero_grad, requires_grad_, an optimizer built from
`net.parameters()`) and translated code (`collect_params().values()` -> `.parameters()`) call
expecting torch's meaning. d2l's v1.0.3 `Module.parameters()` returns a ParameterDict or a list of
arrays: iterated by a translated `collect_params().values()` it gives the names. Said at the def;
the code stays as written (which callers mean which method is the program's to say)."""
from xlate.convert.rulectx import Site


def transform(site: Site):
    name = site.matched
    site.review(f"`{name}` replaces torch.nn.Module.{name} in the translated class, which torch and translated "
                f"code call with torch's meaning (`collect_params().values()` is `.parameters()`): rename it and its "
                f"callers, or keep torch's meaning")
    return site.node
