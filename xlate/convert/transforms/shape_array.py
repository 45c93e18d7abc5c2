"""nd.shape_array(x) -> `torch.tensor(x.shape, device=x.device)` (int64, as MXNet's)."""
import libcst as cst

from xlate.convert.rulectx import Site
from xlate.convert.transforms import op_args as oa


def transform(site: Site):
    x = oa.required(site, "data")
    if isinstance(x, (cst.Name, cst.Attribute)):
        return site.emit("torch.tensor({x}.shape, device={x}.device)", x=x)
    return oa.run_time(site, "_mx_shape_array")  # an expression is evaluated once
