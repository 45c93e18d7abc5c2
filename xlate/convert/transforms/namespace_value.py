"""MXNet's operator namespace passed as a value: `self.upsample(F, x)` inside hybrid_forward, or
bound to a name of a function's own, `F = mx.ndarray` (Note [namespace aliases] in names.py).

The callee's `F` parameter resolves to the same namespace (xlate.convert.names), so its `F.*`
calls are translated where it is defined and it no longer needs the namespace; its parameter
list stays as it is (other callers, in other modules too, pass arguments by position), so the
argument becomes `None`."""
from xlate.convert.rulectx import Manual, Site


def transform(site: Site):
    if id(site.original) in site.conv.alias_values:  # `F = mx.ndarray` (Note [namespace aliases])
        site.fixed(f"`{site.code(site.original)}` (MXNet's operator namespace) bound to a name of its own -> `None`: "
                   "the calls made through that name are translated where they are made")
        return site.emit("None")
    if id(site.original) not in site.conv.arguments:
        raise Manual(f"MXNet's operator namespace `{site.code(site.original)}` used as a value: translate "
                     "what is done with it by hand")
    site.fixed(f"`{site.code(site.original)}` (MXNet's operator namespace) passed on -> `None`: the callee's "
               "`F.*` calls are translated where it is defined")
    return site.emit("None")
