"""Gluon `BatchNorm` / contrib `SyncBatchNorm` -> `_mx_BatchNorm` / `_mx_SyncBatchNorm` with the
call's own arguments (Note [Gluon-signature modules]). A plain `nn.BatchNorm2d` is never exact:
its momentum means the opposite, it updates the running variance with the unbiased batch
variance and only accepts 4-D input on axis 1."""
from xlate.convert.rulectx import Site
from xlate.convert.transforms import norm_args


def transform(site: Site):
    return norm_args.helper(site, 1)
