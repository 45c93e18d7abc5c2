"""`x.context` / `x.ctx` -> `x.device` on an NDArray; on a value xlate cannot type,
`_mx_device_of(x, 'context')`, which gives a tensor's device and any other value's own attribute
(`args.ctx`, a config's context). `self.ctx` is an object's own setting, never an array's, and
stays as written; `self.<attr>.ctx` goes by what `self.<attr>` is (an NDArray where the class binds
it to arrays alone, else decided at run time: dgl-ke's `self.state_sum.context`)."""
import libcst as cst

from xlate.convert.rulectx import Site, Skip


def _on_self(node) -> bool:
    return isinstance(node, cst.Name) and node.value in ("self", "cls")


def transform(site: Site):
    name = site.matched.lstrip(".")
    if site.receiver_kind is not None:
        return site.emit("{x}.device", x=site.value("data"))
    if _on_self(site.receiver):
        raise Skip()
    site.fixed(f"`.{name}` on a value xlate could not type -> `_mx_device_of(x, '{name}')`, decided at run time: a "
               f"tensor's device, any other value's own `{name}`")
    return site.emit(f"_mx_device_of({{x}}, '{name}')", x=site.value("data"))
