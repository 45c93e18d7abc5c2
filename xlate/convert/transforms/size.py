"""`x.size` -> `x.numel()` on a known NDArray; on a receiver of unknown kind `_mx_size(x)`,
which decides at run time (a torch tensor's `.size` is a method, numpy's and MXNet's the count)."""
from xlate.convert.rulectx import Site, Skip


def transform(site: Site):
    x = site.value("data")
    if site.receiver_kind in ("nd", "mxnp"):
        return site.emit("{x}.numel()", x=x)
    if site.conv._own_member(site.receiver, site.matched):
        raise Skip()  # `self.size` the class sets itself
    if any(d.name.value.startswith("_mx_") for d in site.conv.defs):
        raise Skip()  # a pasted helper (converting converted code again): `_mx_size`'s own `x.size`
    site.fixed("`x.size` -> `_mx_size(x)`: xlate could not tell what `x` is, so it is decided at run time: "
               "the element count (`numel()`) of a torch tensor, `x.size` of anything else (numpy arrays, "
               "images), both exact")
    return site.emit("_mx_size({x})", x=x)
