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

from xlate.check.inputs import InputSpec
from xlate.check.registry import Family, MappingError, ParamMap, register
from xlate.check.samples import Sample, check_knobs, floats, register_sample, strategies, torch_call


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

# Dense: flatten=True folds every axis after the first, torch's Linear acts on the last one;
# Gluon's `activation` is a separate torch call after the Linear.
def dense_configs(*, max_batch: int = 4, max_features: int = 6):
    check_knobs(max_batch=max_batch, max_features=max_features)
    st = strategies()
    return st.fixed_dictionaries({
        "shape": st.tuples(st.integers(1, max_batch),
                           st.lists(st.integers(1, 3), max_size=2).map(tuple),
                           st.integers(1, max_features)).map(lambda t: (t[0], *t[1], t[2])),
        "units": st.integers(1, max_features), "flatten": st.booleans(), "use_bias": st.booleans(),
        "activation": st.sampled_from([None, "relu", "tanh", "sigmoid", "softrelu"]),
    })


def _activation(name):
    import torch

    return {None: lambda y: y, "relu": torch.relu, "tanh": torch.tanh, "sigmoid": torch.sigmoid,
            "softrelu": torch.nn.functional.softplus}[name]


def build_dense(c: dict):
    import torch
    from mxnet.gluon import nn

    shape, flatten, act = c["shape"], c["flatten"], _activation(c["activation"])
    in_units = int(np.prod(shape[1:])) if flatten else shape[-1]
    block = nn.Dense(c["units"], activation=c["activation"], flatten=flatten, use_bias=c["use_bias"],
                     in_units=in_units)
    linear = torch.nn.Linear(in_units, c["units"], bias=c["use_bias"])
    pt = torch_call(linear, lambda m, x: act(m(x.flatten(1) if flatten else x)))
    return block, pt, [floats("x", *shape)]


register_sample(Sample("dense", "dense", dense_configs, build_dense))


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

# MXNet's Deconvolution has no dilation in 3-D; its output_padding (adj) must stay below the
# stride. A kernel per axis, one stride/padding/dilation for all (what both sides accept).
def conv_configs(*, max_batch: int = 2, max_channels: int = 3, max_size: int = 4):
    check_knobs(max_batch=max_batch, max_channels=max_channels, max_size=max_size)
    st = strategies()

    @st.composite
    def configs(draw):
        dims, transpose = draw(st.integers(1, 3)), draw(st.booleans())
        kernel = tuple(draw(st.integers(1, 3)) for _ in range(dims))
        stride = draw(st.integers(1, 2))
        dilation = 1 if transpose and dims == 3 else draw(st.integers(1, 2))
        if transpose:
            padding = draw(st.integers(0, dilation * (min(kernel) - 1) // 2))
            output_padding = draw(st.integers(0, stride - 1))
            size = tuple(draw(st.integers(1, max_size)) for _ in kernel)
        else:
            padding, output_padding = draw(st.integers(0, 1)), 0
            size = tuple(max(1, dilation * (k - 1) + 1 - 2 * padding) + draw(st.integers(0, max_size - 1))
                         for k in kernel)
        groups = draw(st.integers(1, 2))
        return {"dims": dims, "transpose": transpose, "kernel": kernel, "stride": stride, "padding": padding,
                "dilation": dilation, "output_padding": output_padding, "groups": groups,
                "in_channels": groups * draw(st.integers(1, max_channels)),
                "channels": groups * draw(st.integers(1, max_channels)), "use_bias": draw(st.booleans()),
                "batch": draw(st.integers(1, max_batch)), "size": size}

    return configs()


def build_conv(c: dict):
    import torch
    from mxnet.gluon import nn

    kind = f"Conv{c['dims']}D" + ("Transpose" if c["transpose"] else "")
    kw = dict(strides=c["stride"], padding=c["padding"], dilation=c["dilation"], groups=c["groups"],
              use_bias=c["use_bias"], in_channels=c["in_channels"])
    pt_kw = dict(stride=c["stride"], padding=c["padding"], dilation=c["dilation"], groups=c["groups"],
                 bias=c["use_bias"])
    if c["transpose"]:
        kw["output_padding"] = pt_kw["output_padding"] = c["output_padding"]
    block = getattr(nn, kind)(c["channels"], c["kernel"], **kw)
    module = getattr(torch.nn, _CONV_PT[kind])(c["in_channels"], c["channels"], c["kernel"], **pt_kw)
    return block, module, [floats("x", c["batch"], c["in_channels"], *c["size"])]


register_sample(Sample("conv", "conv", conv_configs, build_conv))


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
# momentum flip (3.3) and the biased running variance (3.4) belong to the translation: the
# converter's `_mx_BatchNorm` (xlate/runtime/norms.py), a BatchNorm2d subclass, pairs here.
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

# The translation is the converter's (MX140): any rank and axis, torch momentum 1 - m (3.3),
# MXNet's biased running variance (3.4), gamma ignored and frozen with scale=False (3.9),
# running statistics in training with use_global_stats=True (3.8).
def batchnorm_configs(*, max_batch: int = 4, max_channels: int = 4, max_size: int = 3):
    check_knobs(max_batch=max_batch, max_channels=max_channels, max_size=max_size)
    st = strategies()

    @st.composite
    def configs(draw):
        shape = (draw(st.integers(1, max_batch)), draw(st.integers(1, max_channels)),
                 *draw(st.lists(st.integers(1, max_size), max_size=3)))
        # fewer than 4 values per channel: float32 noise in the variance's gradient exceeds 1e-5
        axis = draw(st.sampled_from([a for a in range(-len(shape), len(shape))
                                     if int(np.prod(shape)) // shape[a] >= 4] or [None]))
        if axis is None:
            shape, axis = (4, *shape[1:]), 1
        return {"shape": shape, "axis": axis, "momentum": draw(st.sampled_from([0.9, 0.5, 0.99])),
                "epsilon": draw(st.sampled_from([1e-5, 1e-3])), "center": draw(st.booleans()),
                "scale": draw(st.booleans()), "use_global_stats": draw(st.booleans())}

    return configs()


def mx_batchnorm(rank: int, channels: int, *, momentum: float, eps: float, **flags):
    """The converter's exact BatchNorm (any rank), built with Gluon's own arguments; `flags`:
    axis, center, scale, use_global_stats as Gluon's."""
    from xlate.runtime import load

    return load()._mx_BatchNorm(momentum=momentum, epsilon=eps, in_channels=channels, **flags)


def build_batchnorm(c: dict):
    from mxnet.gluon import nn

    shape, flags = c["shape"], {k: c[k] for k in ("axis", "center", "scale", "use_global_stats") if k in c}
    channels = shape[flags.get("axis", 1)]
    block = nn.BatchNorm(momentum=c["momentum"], epsilon=c["epsilon"], in_channels=channels, **flags)
    module = mx_batchnorm(len(shape), channels, momentum=c["momentum"], eps=c["epsilon"], **flags)
    return block, module, [floats("x", *shape)]


register_sample(Sample("batchnorm", "batchnorm", batchnorm_configs, build_batchnorm))


# -- layernorm ------------------------------------------------------------------------------
# | Gluon LayerNorm | torch LayerNorm | conversion            |
# | gamma (C,)      | weight (C,)     | none (3.11)           |
# | beta (C,)       | bias (C,)       | none                  |
LAYERNORM = register(Family(
    "layernorm", ("LayerNorm",), ("LayerNorm",),
    params=(ParamMap("gamma", "weight"), ParamMap("beta", "bias")),
))

# Any axis: torch normalises the last one, so the translation (MX142) moves `axis` there and
# back (3.12); MXNet still applies a gamma/beta that scale/center=False freeze.
def layernorm_configs(*, max_batch: int = 4, max_size: int = 5):
    check_knobs(max_batch=max_batch, max_size=max_size)
    st = strategies()

    @st.composite
    def configs(draw):
        shape = [draw(st.integers(1, max_batch))] + draw(st.lists(st.integers(2, max_size), min_size=1, max_size=3))
        axis = draw(st.integers(1, len(shape) - 1))
        # over 2 or 3 values the gradient is a cancellation of terms ~1/std: float32 noise > 1e-5
        shape[axis] = draw(st.integers(4, 7))
        return {"shape": tuple(shape), "axis": axis, "epsilon": draw(st.sampled_from([1e-5, 1e-3])),
                "center": draw(st.booleans()), "scale": draw(st.booleans())}

    return configs()


def build_layernorm(c: dict):
    import torch
    from mxnet.gluon import nn

    from xlate.runtime import load

    shape, axis = c["shape"], c["axis"]
    flags = {k: c[k] for k in ("center", "scale") if k in c}
    block = nn.LayerNorm(axis=axis, epsilon=c["epsilon"], in_channels=shape[axis], **flags)
    if axis == len(shape) - 1 and all(flags.values()):
        module = torch.nn.LayerNorm(shape[axis], eps=c["epsilon"])
    else:
        module = load()._mx_LayerNorm(axis=axis, epsilon=c["epsilon"], in_channels=shape[axis], **flags)
    return block, module, [floats("x", *shape)]


register_sample(Sample("layernorm", "layernorm", layernorm_configs, build_layernorm))


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

# The translation is the converter's `_mx_InstanceNorm` (MX143): weight and bias always
# applied, frozen where Gluon's scale/center are False (scale=False is Gluon's default).
def _normalised_shapes(st, *, max_batch, max_channels, max_size, min_values=4):
    return st.tuples(st.integers(1, max_batch), st.integers(1, max_channels),
                     st.lists(st.integers(1, max_size), min_size=1, max_size=3)).map(
        lambda t: (t[0], t[1], *t[2])).filter(lambda sh: int(np.prod(sh[2:])) >= min_values)


def instancenorm_configs(*, max_batch: int = 4, max_channels: int = 4, max_size: int = 4):
    check_knobs(max_batch=max_batch, max_channels=max_channels, max_size=max_size)
    st = strategies()
    return st.fixed_dictionaries({
        "shape": _normalised_shapes(st, max_batch=max_batch, max_channels=max_channels, max_size=max_size),
        "epsilon": st.sampled_from([1e-5, 1e-3]), "center": st.booleans(), "scale": st.booleans()})


def build_instancenorm(c: dict):
    from mxnet.gluon import nn

    from xlate.runtime import load

    shape, flags = c["shape"], {k: c[k] for k in ("center", "scale") if k in c}
    block = nn.InstanceNorm(epsilon=c["epsilon"], in_channels=shape[1], **flags)
    module = load()._mx_InstanceNorm(epsilon=c["epsilon"], in_channels=shape[1], **flags)
    return block, module, [floats("x", *shape)]


register_sample(Sample("instancenorm", "instancenorm", instancenorm_configs, build_instancenorm))


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
# The converter's translation (`_mx_GroupNorm`, xlate/runtime/norms.py) keeps MXNet's (G,)
# parameters and repeats them in its forward: nothing to convert.
GROUPNORM_PER_GROUP = (ParamMap("gamma", "weight"), ParamMap("beta", "bias"))


def _groupnorm_maps(mx_block, pt_module) -> tuple[ParamMap, ...]:
    groups = mx_block._kwargs["num_groups"]
    # with another group count the repetition still gives C values: a silent wrong copy
    if pt_module.num_groups != groups:
        raise MappingError(f"GroupNorm with {groups} groups paired with torch GroupNorm({pt_module.num_groups}, "
                           f"{pt_module.num_channels}) {_shapes(mx_block, pt_module)}")
    weight = pt_module.weight
    if weight is not None and tuple(weight.shape) == (groups,):
        return GROUPNORM_PER_GROUP  # with C == G both maps are the identity
    return GROUPNORM_PARAMS


GROUPNORM = register(Family(
    "groupnorm", ("GroupNorm",), ("GroupNorm",), params=GROUPNORM_PARAMS, expand=_groupnorm_maps,
))

def groupnorm_configs(*, max_batch: int = 3, max_groups: int = 4, max_per_group: int = 3, max_size: int = 4):
    check_knobs(max_batch=max_batch, max_groups=max_groups, max_per_group=max_per_group, max_size=max_size)
    st = strategies()

    @st.composite
    def configs(draw):
        groups, per = draw(st.integers(1, max_groups)), draw(st.integers(1, max_per_group))
        size = draw(st.lists(st.integers(1, max_size), min_size=1, max_size=2)
                    .filter(lambda sz: per * int(np.prod(sz)) >= 4))  # values per group: see layernorm
        return {"groups": groups, "shape": (draw(st.integers(1, max_batch)), groups * per, *size),
                "epsilon": draw(st.sampled_from([1e-5, 1e-3]))}

    return configs()


def build_groupnorm(c: dict):
    import torch
    from mxnet.gluon import nn

    shape = c["shape"]
    return (nn.GroupNorm(c["groups"], epsilon=c["epsilon"]),
            torch.nn.GroupNorm(c["groups"], shape[1], eps=c["epsilon"]), [floats("x", *shape)])


register_sample(Sample("groupnorm", "groupnorm", groupnorm_configs, build_groupnorm))


# -- embedding, prelu -----------------------------------------------------------------------
# | Gluon                            | torch                         | conversion        |
# | Embedding weight (input_dim, output_dim) | Embedding weight (num, dim) | none (5.1)  |
# | PReLU alpha (in_channels,)       | PReLU weight (num_parameters,) | none (6.13, 6.14) |
EMBEDDING = register(Family("embedding", ("Embedding",), ("Embedding",), params=(ParamMap("weight", "weight"),)))
PRELU = register(Family("prelu", ("PReLU",), ("PReLU",), params=(ParamMap("alpha", "weight"),)))


def embedding_configs(*, max_batch: int = 4, max_length: int = 5, max_vocab: int = 10, max_features: int = 6):
    check_knobs(max_batch=max_batch, max_length=max_length, max_vocab=max_vocab, max_features=max_features)
    st = strategies()
    return st.fixed_dictionaries({
        "shape": st.tuples(st.integers(1, max_batch), st.integers(1, max_length)),
        "input_dim": st.integers(1, max_vocab), "output_dim": st.integers(1, max_features)})


def build_embedding(c: dict):
    import torch
    from mxnet.gluon import nn

    return (nn.Embedding(c["input_dim"], c["output_dim"]), torch.nn.Embedding(c["input_dim"], c["output_dim"]),
            [InputSpec("ids", "int64", c["shape"], high=c["input_dim"])])


register_sample(Sample("embedding", "embedding", embedding_configs, build_embedding))


def prelu_configs(*, max_batch: int = 4, max_channels: int = 4, max_size: int = 4):
    check_knobs(max_batch=max_batch, max_channels=max_channels, max_size=max_size)
    st = strategies()
    return st.fixed_dictionaries({
        "shape": st.tuples(st.integers(1, max_batch), st.integers(1, max_channels),
                           st.lists(st.integers(1, max_size), max_size=2)).map(lambda t: (t[0], t[1], *t[2])),
        "per_channel": st.booleans()})


def build_prelu(c: dict):
    import torch
    from mxnet.gluon import nn

    shape, n = c["shape"], c["shape"][1] if c["per_channel"] else 1
    return nn.PReLU(in_channels=n), torch.nn.PReLU(n), [floats("x", *shape)]


register_sample(Sample("prelu", "prelu", prelu_configs, build_prelu))
