"""x.astype(dtype) -> x.to(dtype, copy=True): MXNet's astype always copies by default."""
from xlate.convert.rulectx import Manual, Site, unknown_receiver
from xlate.convert.table import convert_dtype


def transform(site: Site):
    if site.receiver_kind is None:
        raise Manual(unknown_receiver(site))
    dtype = convert_dtype(site, site.value("dtype"))
    copy = site.literal("copy", True)
    if copy is True:
        return site.emit("{x}.to({dtype}, copy=True)", x=site.value("data"), dtype=dtype)
    if copy is False:
        return site.emit("{x}.to({dtype})", x=site.value("data"), dtype=dtype)
    raise Manual("`copy=` is not a literal")
