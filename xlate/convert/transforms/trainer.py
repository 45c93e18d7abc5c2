"""`gluon.Trainer(params, optimizer, optimizer_params, kvstore, ...)` -> `_mx_Trainer(...)` with
the same arguments; the optimizer helpers a name given as a string needs are pasted too."""
from xlate.convert.rulectx import Manual, Site

# MXNet's registered optimizer names that have a helper (xlate/runtime/optim.py)
OPTIMIZERS = {n.lower(): f"_mx_{n}" for n in ("SGD", "NAG", "Adam", "AdaGrad", "RMSProp", "AdaDelta", "Adamax",
                                               "Nadam", "Ftrl", "Signum", "LAMB", "FTML", "DCASGD", "SGLD")}


def optimizer_helpers(site: Site, value) -> None:
    """Paste the optimizer class(es) `value` may name: one for a literal name, all of them for
    a name known only at run time (`args.optimizer`); none for an optimizer object."""
    if value is None:
        return
    name = site.evaluate(value)
    if isinstance(name, str):
        if name.lower() not in OPTIMIZERS:
            raise Manual(f"optimizer '{name}' has no exact translation yet (helpers exist for "
                         f"{', '.join(sorted(OPTIMIZERS))}): write its update rule as an `_mx_Optimizer` subclass")
        site.helper(OPTIMIZERS[name.lower()])
        return
    code = site.code(value)
    if code.startswith("_mx_") or "optimizer" in {k.rsplit(".", 1)[0].rsplit(".", 1)[-1] for k in _kinds(site, value)}:
        return
    for helper in OPTIMIZERS.values():
        site.helper(helper)


def _kinds(site: Site, value) -> set:
    from xlate.convert.transforms.train_models import _ast_of, dotted
    text = dotted(value)
    if text is None:
        return set()
    analysis = site.conv.analysis
    return set(analysis.constructed_by(site.conv.scopes[-1], _ast_of(analysis, text)))


def transform(site: Site):
    site.bind("params", "optimizer", "optimizer_params", "kvstore", "compression_params", "update_on_kvstore")
    kvstore = site.literal("kvstore", "device")
    if isinstance(kvstore, str) and kvstore.startswith("dist"):
        raise Manual(f"kvstore='{kvstore}' is MXNet's distributed training: run the model under "
                     "torch.nn.parallel.DistributedDataParallel (one process per device, gradients summed) and "
                     "keep `_mx_Trainer(params, ...)` for the update")
    if site.value("compression_params") is not None and site.literal("compression_params") is not None:
        raise Manual("gradient compression (2-bit / 1-bit kvstore compression) has no torch counterpart here: "
                     "drop it, or use a DDP communication hook")
    optimizer_helpers(site, site.value("optimizer"))
    site.fixed("`gluon.Trainer(...)` -> `_mx_Trainer(...)` with the same arguments: MXNet's update rule on "
               "torch tensors, step(batch_size) rescaling by 1/batch_size")
    return site.verbatim()
