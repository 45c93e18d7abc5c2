"""Gluon `InstanceNorm` -> `_mx_InstanceNorm` with the call's own arguments. torch's
InstanceNormNd(affine=False) drops the beta MXNet learns and the gamma it multiplies by even
with scale=False, and takes one rank only."""
from xlate.convert.rulectx import Site
from xlate.convert.transforms import norm_args


def transform(site: Site):
    return norm_args.helper(site, 1)
