"""npx.cpu()/gpu(i)/cpu_pinned()/num_gpus(): torch's devices and count (MX501-MX503's forms)."""
from xlate.convert.rulectx import Site


def transform(site: Site):
    op = site.matched.rsplit(".", 1)[1]
    if op == "num_gpus":
        site.bind()
        return site.emit("torch.cuda.device_count()")
    site.bind("device_id")
    if op == "gpu":
        return site.emit("torch.device(\"cuda\", {i})", i=site.value("device_id") if site.has("device_id") else "0")
    return site.emit("torch.device(\"cpu\")")
