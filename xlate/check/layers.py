"""Weight mappings of the gluon.nn layer families (dense, conv, the norms, embedding, PReLU).

Each table below is the measured correspondence of /work/shared/semantics/layers.md (section 4
and rows 1.x-6.x of section 6); the ids in the comments are that file's rows. Only parameters
are declared here: how the forward is translated (Dense's flatten, BatchNorm's axis and
momentum, `.eval()`) is the converter's business, and a wrong translation shows up in the
checker's comparison, not in the pairing.

A lazy torch module (`LazyLinear`, ...) becomes its eager class on its first forward; before
that its parameters have no shape and cannot be copied into, so callers run one forward first.

No family needs a tolerance of its own: every correct translation in layers.md stays within
float32's default (the largest, Conv2D with groups, 2.9e-6 absolute).
"""
from __future__ import annotations

import numpy as np

from xlate.check.mapping import Family, MappingError, ParamMap, register


def _name(obj) -> str:
    return type(obj).__name__


def _shapes(mx_block, pt_module) -> str:
    mx = ", ".join(f"{n} {p.shape}" for n, p in mx_block._reg_params.items())
    pt = ", ".join(f"{n} {tuple(p.shape)}" for n, p in pt_module.named_parameters(recurse=False))
    return f"(MXNet {_name(mx_block)}: {mx or 'no parameters'}; PyTorch {_name(pt_module)}: {pt or 'no parameters'})"


# -- dense ----------------------------------------------------------------------------------
# | Gluon Dense           | torch Linear      | conversion                                  |
# | weight (units, in)    | weight (out, in)  | none (1.1)                                  |
# | bias (units,)         | bias (out,)       | none; absent on both sides if use_bias=False |
DENSE = register(Family(
    "dense", ("Dense",), ("Linear", "LazyLinear"),
    params=(ParamMap("weight", "weight"), ParamMap("bias", "bias", optional=True)),
))


# -- conv -----------------------------------------------------------------------------------
# | Gluon                                        | torch                  | conversion       |
# | ConvND weight (C_out, C_in/g, k...)          | ConvNd weight          | none (2.1, 2.3)  |
# | ConvNDTranspose weight (C_in, C_out/g, k...) | ConvTransposeNd weight | none (2.4-2.6)   |
# | bias (C_out,)                                | bias                   | none; optional   |
# Only the channel-first layouts were verified; NHWC cannot even run on the CPU build (2.7).
# A Conv2D paired with a ConvTranspose2d of equal in and out channels would copy without a
# shape error and compute something else, so the kind and the dimension must match exactly.
CONV_PARAMS = (ParamMap("weight", "weight"), ParamMap("bias", "bias", optional=True))
_CONV_PT = {f"Conv{n}D{t}": f"Conv{'Transpose' if t else ''}{n}d" for n in (1, 2, 3) for t in ("", "Transpose")}


def _conv_maps(mx_block, pt_module) -> tuple[ParamMap, ...]:
    mx_type = next(c.__name__ for c in type(mx_block).__mro__ if c.__name__ in _CONV_PT)
    want = _CONV_PT[mx_type]
    if not {want, "Lazy" + want} & {c.__name__ for c in type(pt_module).__mro__}:  # subclasses pair too
        raise MappingError(f"{mx_type} must be translated to {want}, not {_name(pt_module)} "
                           f"{_shapes(mx_block, pt_module)}")
    layout = mx_block._kwargs.get("layout", "NC")
    if not layout.startswith("NC"):
        raise MappingError(f"{mx_type} with layout={layout!r}: only channel-first layouts have a "
                           f"verified weight mapping")
    return CONV_PARAMS


CONV = register(Family(
    "conv", tuple(_CONV_PT), tuple(_CONV_PT.values()) + tuple("Lazy" + t for t in _CONV_PT.values()),
    params=CONV_PARAMS, expand=_conv_maps,
))


# -- batchnorm ------------------------------------------------------------------------------
# | Gluon BatchNorm      | torch BatchNormNd | conversion                                   |
# | gamma (C,)           | weight (C,)       | none; ONES when scale=False (fix_gamma): MXNet |
# |                      |                   | ignores gamma then, even a non-1 one loaded   |
# |                      |                   | from a checkpoint, and the translation is     |
# |                      |                   | weight=1 frozen; copying gamma is wrong (3.9) |
# | beta (C,)            | bias (C,)         | none                                          |
# | running_mean (C,)    | running_mean      | none                                          |
# | running_var (C,)     | running_var       | none                                          |
# torch's num_batches_tracked has no MXNet counterpart and is left alone. The axis, the
# momentum flip (3.3) and the biased running variance (3.4) belong to the translation.
# BatchNormReLU (BatchNorm then relu) and contrib's SyncBatchNorm hold the same four.
def _gamma_to_pt(value: np.ndarray, mx_block, pt_module) -> np.ndarray:
    return np.ones_like(value) if mx_block._kwargs.get("fix_gamma") else value


BATCHNORM = register(Family(
    "batchnorm", ("BatchNorm", "BatchNormReLU", "SyncBatchNorm"),
    ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LazyBatchNorm1d", "LazyBatchNorm2d",
     "LazyBatchNorm3d", "SyncBatchNorm"),
    params=(ParamMap("gamma", "weight", to_pt=_gamma_to_pt), ParamMap("beta", "bias"),
            ParamMap("running_mean", "running_mean"), ParamMap("running_var", "running_var")),
))


# -- layernorm ------------------------------------------------------------------------------
# | Gluon LayerNorm | torch LayerNorm | conversion            |
# | gamma (C,)      | weight (C,)     | none (3.11)           |
# | beta (C,)       | bias (C,)       | none                  |
LAYERNORM = register(Family(
    "layernorm", ("LayerNorm",), ("LayerNorm",),
    params=(ParamMap("gamma", "weight"), ParamMap("beta", "bias")),
))


# -- instancenorm ---------------------------------------------------------------------------
# | Gluon InstanceNorm | torch InstanceNormNd(affine=True) | conversion                     |
# | gamma (C,)         | weight (C,)                       | none: used even when scale=False |
# |                    |                                   | (only its gradient is off, 3.14) |
# | beta (C,)          | bias (C,)                         | none (3.13)                    |
# MXNet keeps no running statistics, so a torch module that tracks them has state nothing
# maps to and normalises with it in eval mode.
INSTANCENORM_PARAMS = (ParamMap("gamma", "weight"), ParamMap("beta", "bias"))


def _instancenorm_maps(mx_block, pt_module) -> tuple[ParamMap, ...]:
    if getattr(pt_module, "track_running_stats", False):
        raise MappingError(f"{_name(pt_module)}(track_running_stats=True) keeps running statistics; "
                           f"MXNet InstanceNorm has none (translate with track_running_stats=False; "
                           f"the Lazy variants default to True)")
    return INSTANCENORM_PARAMS


INSTANCENORM = register(Family(
    "instancenorm", ("InstanceNorm",),
    ("InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
     "LazyInstanceNorm1d", "LazyInstanceNorm2d", "LazyInstanceNorm3d"),
    params=INSTANCENORM_PARAMS, expand=_instancenorm_maps,
))


# -- groupnorm ------------------------------------------------------------------------------
# | Gluon GroupNorm(G) | torch GroupNorm(G, C) | conversion                                  |
# | gamma (G,)         | weight (C,)           | to torch: repeat each group's value for its |
# | beta (G,)          | bias (C,)             | C//G channels; back: sum per group (3.15)   |
# MXNet 1.9.1 learns one gamma/beta per GROUP, torch one per channel. The way back is the
# adjoint of the repetition, which is what gradients need: d gamma_g = sum of the torch
# weight's gradient over group g's channels. It is not a weight inverse; a torch weight that
# varies inside a group has no MXNet equivalent.
def _groups(pt_module) -> tuple[int, int]:
    return pt_module.num_groups, pt_module.num_channels // pt_module.num_groups


def _per_channel(value: np.ndarray, mx_block, pt_module) -> np.ndarray:
    return np.repeat(value, _groups(pt_module)[1])


def _per_group(value: np.ndarray, mx_block, pt_module) -> np.ndarray:
    return value.reshape(_groups(pt_module)[0], -1).sum(1)


GROUPNORM_PARAMS = (ParamMap("gamma", "weight", to_pt=_per_channel, to_mx=_per_group),
                    ParamMap("beta", "bias", to_pt=_per_channel, to_mx=_per_group))


def _groupnorm_maps(mx_block, pt_module) -> tuple[ParamMap, ...]:
    groups = mx_block._kwargs["num_groups"]
    # with another group count the repetition still gives C values: a silent wrong copy
    if pt_module.num_groups != groups:
        raise MappingError(f"GroupNorm with {groups} groups paired with torch GroupNorm({pt_module.num_groups}, "
                           f"{pt_module.num_channels}) {_shapes(mx_block, pt_module)}")
    return GROUPNORM_PARAMS


GROUPNORM = register(Family(
    "groupnorm", ("GroupNorm",), ("GroupNorm",), params=GROUPNORM_PARAMS, expand=_groupnorm_maps,
))


# -- embedding, prelu -----------------------------------------------------------------------
# | Gluon                            | torch                         | conversion        |
# | Embedding weight (input_dim, output_dim) | Embedding weight (num, dim) | none (5.1)  |
# | PReLU alpha (in_channels,)       | PReLU weight (num_parameters,) | none (6.13, 6.14) |
EMBEDDING = register(Family("embedding", ("Embedding",), ("Embedding",), params=(ParamMap("weight", "weight"),)))
PRELU = register(Family("prelu", ("PReLU",), ("PReLU",), params=(ParamMap("alpha", "weight"),)))
