"""`x.repeat(n, axis)` (MX047): each element repeated, as NumPy does; torch's Tensor.repeat tiles
the whole tensor instead. On an MXNet array it is `torch.repeat_interleave`; on a value xlate
cannot type (a helper's parameter, YOLO's `_upsample(x)`), numpy's method and MXNet's mean the
same, so `_mx_np_method(x, "repeat", ...)` decides at run time: a tensor (an MXNet array,
converted) is repeated by `torch.repeat_interleave`, anything else (a NumPy array) keeps its own
method."""
from xlate.convert import table
from xlate.convert.rulectx import Site
from xlate.convert.transforms.op_args import method_at_run_time


def transform(site: Site):
    if site.receiver is not None and site.receiver_kind is None:
        return method_at_run_time(site, "repeat", "a tensor (an MXNet array, converted) repeats each element "
                                                  "(`torch.repeat_interleave`, not torch's tiling `Tensor.repeat`), "
                                                  "anything else (a NumPy array) keeps its own method")
    return table.apply(site)
