"""`mx.kv.create(name)` -> `_mx_kv_create(name)`: MXNet's key-value store for one process
(xlate/runtime/parallel.py). A literal distributed type needs other processes: left, reported."""
from xlate.convert.rulectx import Manual, Site

DISTRIBUTED = ("dist", "horovod", "byteps")


def transform(site: Site):
    site.bind("name")
    name = site.literal("name", "local")
    if isinstance(name, str) and name.startswith(DISTRIBUTED):
        raise Manual(f"kvstore '{name}' is MXNet's distributed training: run the model under "
                     "torch.nn.parallel.DistributedDataParallel (torch.distributed gives the rank and world size)")
    return site.verbatim()
