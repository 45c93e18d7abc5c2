"""Counting GPUs, and their memory."""
from xlate.convert.rulectx import Site


def transform(site: Site):
    if site.matched == "mxnet.test_utils.list_gpus":
        return site.emit("list(range(torch.cuda.device_count()))")
    if site.matched == "mxnet.context.gpu_memory_info":  # MXNet's device_id defaults to 0, torch's to the current
        return site.emit("torch.cuda.mem_get_info({d})", d=site.value("device_id") or "0")
    return site.emit("torch.cuda.device_count()")
