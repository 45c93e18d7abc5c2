"""A Context's `.device_type` / `.device_id` / `.device_typeid` -> `_mx_context_field(c, name)`.

Note [a Context's fields]
MXNet's Context names its device 'cpu' or 'gpu' and numbers it from 0, the CPU included; the
torch.device a Context becomes says 'cuda' and has no number for the CPU (`index` is None), and
has no attribute of these names at all: `c.device_type == 'gpu'` (sockeye's GPU list, gluonts'
serde, Mask R-CNN's script) raised AttributeError, silently left. Contexts flow through lists,
arguments and attributes xlate does not type, and the names are common enough elsewhere, so the
helper decides at run time: a torch.device gives MXNet's values, anything else its own attribute.
`self.device_id` is an object's own setting and stays as written."""
from xlate.convert.rulectx import Site, Skip
from xlate.convert.transforms.context_attr import _on_self


def transform(site: Site):
    name = site.matched.lstrip(".")
    if _on_self(site.receiver):
        raise Skip()
    return site.emit(f"_mx_context_field({{x}}, '{name}')", x=site.value("data"))
