"""mx.Context(device_type, device_id) -> torch's device, as MX501/MX502 write mx.cpu()/mx.gpu(i)."""
from xlate.convert.rulectx import NOT_LITERAL, Dynamic, Site

_CPU = ("cpu", "cpu_pinned", "cpu_shared")  # MXNet's CPU memory pools: torch has one CPU device


def transform(site: Site):
    kind = site.literal("device_type")
    if kind is NOT_LITERAL or (kind not in _CPU and kind != "gpu"):
        raise Dynamic("the device type is known only at run time")
    if kind == "gpu":
        return site.emit('torch.device("cuda", {i})', i=site.value("device_id") if site.has("device_id") else "0")
    return site.emit('torch.device("cpu")')
