"""`gluon.utils.split_and_load(...)` / `split_data(...)` -> the helper with the call's own
arguments (Note [one process, several devices] in xlate/runtime/parallel.py); with
`--multi-device distributed`, the one-process-per-device helper (Note [one process per device])."""
from xlate.convert.rulectx import Site


def transform(site: Site):
    name = site.matched.rsplit(".", 1)[-1]
    if name == "split_data":
        site.fixed("`split_data(data, n, batch_axis, even_split)` -> `_mx_split_data(...)`: MXNet's slice sizes "
                   "(the first size % n slices one longer; torch.chunk cuts others)")
    elif site.conv.options.get("multi_device") == "distributed":
        site.review("`split_and_load(data, ctx_list, ...)` -> `_mx_split_and_load_distributed(...)`: launched with "
                    "torchrun, one process per context, each takes its own slice (MXNet's sizes) and the Trainer sums "
                    "the gradients over processes before dividing by batch_size, so the steps are MXNet's; values "
                    "computed from the slices (a summed loss) cover this process's slice only")
        return site.verbatim().with_changes(func=site.emit("_mx_split_and_load_distributed"))
    else:
        site.review("`split_and_load(data, ctx_list, ...)` -> `_mx_split_and_load(...)`: MXNet's slices, all on the "
                    "first device, where the model is; their backward calls add up to the gradients MXNet sums over "
                    "devices, so the steps are MXNet's, without a parallel speed-up; BatchNorm keeps each device's "
                    "running statistics apart, as MXNet does, for a model called on a slice itself)")
    return site.verbatim()
