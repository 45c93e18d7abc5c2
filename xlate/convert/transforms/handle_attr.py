"""`x.handle` / `x.writable` (MX822, manual) only where `x` is proven an NDArray: both are common attribute
names (a file handle, a stream's flag), so on a value xlate cannot type they are that value's own."""
from xlate.convert.rulectx import Site, Skip


def transform(site: Site):
    if site.receiver_kind not in ("nd", "mxnp"):
        raise Skip()
