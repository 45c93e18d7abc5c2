"""Counting GPUs."""
from xlate.convert.rulectx import Site


def transform(site: Site):
    if site.matched == "mxnet.test_utils.list_gpus":
        return site.emit("list(range(torch.cuda.device_count()))")
    return site.emit("torch.cuda.device_count()")
