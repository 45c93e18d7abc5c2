"""Gluon's model zoo (`mxnet.gluon.model_zoo.vision`, MXNet 1.9.1) as torch modules.

Copied as text into converted programs (xlate/runtime/__init__.py): each `_mx_*` class or
function uses `torch` and other `_mx_*` helpers only.

Note [Gluon model zoo]
Each network is Gluon's own, block for block: the same children under the same attribute
names, added in the same order (`features.0`, `features.4.0.body.1`, `output`), built from the
Gluon-signature layers (`_mx_Conv2D`, `_mx_BatchNorm`, `_mx_Dense`, ...) that keep MXNet's
numbers (BatchNorm's momentum and biased running variance, Dense's flattening, pooling's
ceil_mode) and each layer's own initializer (VGG's Xavier and normal draws, BatchNorm's ones
and zeros), so `_mx_initialize(net, init)` draws what Gluon's `net.initialize(init)` draws and
a Gluon parameter file maps onto the torch model leaf for leaf (xlate/check/mapping.py):
`xlate convert-weights FILE.params --zoo NAME -o NAME.pt`. Classes, builders and constructors
take Gluon's arguments (`classes=`, `thumbnail=`, `multiplier=`, `batch_norm=`, `pretrained=`,
`ctx=`, `root=`), so code that subclasses a zoo block (`class SE(BottleneckV2)`) or passes one as
a value keeps working. Every container and block carries the `prefix=` Gluon's code gives it
(`_mx_named`: `prefix=''`, `stage1_`, `features_`, `output_`, `pred_`, Inception's `A1_`), so
`_mx_collect_params(net)` lists Gluon's names in Gluon's order (tests/test_zoo_names.py). Where the structure fixes an input size the layer gets it (no lazy
parameter); where Gluon defers it to the data (the first convolution, a Dense after a flattened
feature map) the layer is lazy and takes it from the first input, as in Gluon.

`pretrained=True` cannot download Gluon's file into torch: it loads `<root>/<name>.pt`, the
state_dict `xlate convert-weights` writes from Gluon's own file, and raises with the command
that makes it when it is not there (`_mx_zoo_pretrained`), never random weights.
tests/test_zoo.py compares every network with MXNet's.
"""
import torch


def _mx_zoo_pretrained(net, name, ctx=None, root=None):
    """Gluon's `pretrained=True`: `net` with the weights in `<root>/<name>.pt` (root: Gluon's
    `$MXNET_HOME/models`), converted from Gluon's `<name>-<hash>.params` by `xlate convert-weights`.
    Loaded parameters count as initialised: a later `_mx_initialize(net)` keeps them, as Gluon's
    `initialize()` keeps loaded ones."""
    import os

    short = {"alexnet": "44335d1f", "densenet121": "f27dbf2d", "densenet161": "b6c8a957", "densenet169": "2603f878",
             "densenet201": "1cdbc116", "inceptionv3": "ed47ec45", "mobilenet0.25": "9f83e440",
             "mobilenet0.5": "8e9d539c", "mobilenet0.75": "529b2c7f", "mobilenet1.0": "6b8c5106",
             "mobilenetv2_1.0": "36da4ff1", "mobilenetv2_0.75": "e2be7b72", "mobilenetv2_0.5": "aabd26cd",
             "mobilenetv2_0.25": "ae8f9392", "resnet18_v1": "a0666292", "resnet34_v1": "48216ba9",
             "resnet50_v1": "0aee57f9", "resnet101_v1": "d988c13d", "resnet152_v1": "671c637a",
             "resnet18_v2": "a81db45f", "resnet34_v2": "9d6b80bb", "resnet50_v2": "ecdde353",
             "resnet101_v2": "18e93e4f", "resnet152_v2": "f2695542", "squeezenet1.0": "264ba497",
             "squeezenet1.1": "33ba0f93", "vgg11": "dd221b16", "vgg11_bn": "ee79a809", "vgg13": "6bc5de58",
             "vgg13_bn": "7d97a06c", "vgg16": "e660d456", "vgg16_bn": "7f01cf05", "vgg19": "ad2f660d",
             "vgg19_bn": "f360b758"}
    if name not in short:
        raise ValueError(f"Pretrained model for {name} is not available.")
    if root is None:
        root = os.path.join(os.environ.get("MXNET_HOME", os.path.join("~", ".mxnet")), "models")
    root = os.path.expanduser(root)
    path = os.path.join(root, f"{name}.pt")
    if not os.path.exists(path):
        gluon_file = os.path.join(root, f"{name}-{short[name]}.params")
        raise FileNotFoundError(
            f"pretrained=True: no converted weights at {path}. Get Gluon's file with MXNet "
            f"(mxnet.gluon.model_zoo.vision.get_model({name!r}, pretrained=True) saves {gluon_file}) and convert "
            f"it once: xlate convert-weights {gluon_file} --zoo {name} -o {path}")
    net.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))
    for tensor in list(net.parameters()) + list(net.buffers()):
        tensor._mx_ready = True
    if ctx is not None:
        net.to(ctx[0] if isinstance(ctx, (list, tuple)) else ctx)
    return net


# -- ResNet (vision/resnet.py) ------------------------------------------------------------
def _mx_conv3x3(channels, stride, in_channels):
    return _mx_Conv2D(channels, kernel_size=3, strides=stride, padding=1, use_bias=False, in_channels=in_channels)


class _mx_BasicBlockV1(torch.nn.Module):
    """Gluon BasicBlockV1 (ResNet V1, 18 and 34 layers)."""

    def __init__(self, channels, stride, downsample=False, in_channels=0, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        _mx_named(self, prefix=prefix)
        self.body = _mx_named(torch.nn.Sequential(
            _mx_conv3x3(channels, stride, in_channels), _mx_BatchNorm(in_channels=channels), torch.nn.ReLU(),
            _mx_conv3x3(channels, 1, channels), _mx_BatchNorm(in_channels=channels)), prefix="")
        self.downsample = None
        if downsample:
            self.downsample = _mx_named(torch.nn.Sequential(
                _mx_Conv2D(channels, kernel_size=1, strides=stride, use_bias=False, in_channels=in_channels),
                _mx_BatchNorm(in_channels=channels)), prefix="")

    def forward(self, x):
        residual = x if self.downsample is None else self.downsample(x)
        return torch.relu(residual + self.body(x))


class _mx_BottleneckV1(torch.nn.Module):
    """Gluon BottleneckV1 (ResNet V1, 50 layers and more)."""

    def __init__(self, channels, stride, downsample=False, in_channels=0, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        _mx_named(self, prefix=prefix)
        self.body = _mx_named(torch.nn.Sequential(
            _mx_Conv2D(channels // 4, kernel_size=1, strides=stride, in_channels=in_channels),
            _mx_BatchNorm(in_channels=channels // 4), torch.nn.ReLU(),
            _mx_conv3x3(channels // 4, 1, channels // 4), _mx_BatchNorm(in_channels=channels // 4), torch.nn.ReLU(),
            _mx_Conv2D(channels, kernel_size=1, strides=1, in_channels=channels // 4),
            _mx_BatchNorm(in_channels=channels)), prefix="")
        self.downsample = None
        if downsample:
            self.downsample = _mx_named(torch.nn.Sequential(
                _mx_Conv2D(channels, kernel_size=1, strides=stride, use_bias=False, in_channels=in_channels),
                _mx_BatchNorm(in_channels=channels)), prefix="")

    def forward(self, x):
        residual = x if self.downsample is None else self.downsample(x)
        return torch.relu(self.body(x) + residual)


class _mx_BasicBlockV2(torch.nn.Module):
    """Gluon BasicBlockV2 (ResNet V2, 18 and 34 layers): pre-activation."""

    def __init__(self, channels, stride, downsample=False, in_channels=0, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        _mx_named(self, prefix=prefix)
        self.bn1 = _mx_BatchNorm(in_channels=in_channels)
        self.conv1 = _mx_conv3x3(channels, stride, in_channels)
        self.bn2 = _mx_BatchNorm(in_channels=channels)
        self.conv2 = _mx_conv3x3(channels, 1, channels)
        self.downsample = None
        if downsample:
            self.downsample = _mx_Conv2D(channels, 1, stride, use_bias=False, in_channels=in_channels)

    def forward(self, x):
        residual = x
        x = torch.relu(self.bn1(x))
        if self.downsample is not None:
            residual = self.downsample(x)
        x = self.conv1(x)
        x = self.conv2(torch.relu(self.bn2(x)))
        return x + residual


class _mx_BottleneckV2(torch.nn.Module):
    """Gluon BottleneckV2 (ResNet V2, 50 layers and more): pre-activation."""

    def __init__(self, channels, stride, downsample=False, in_channels=0, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        _mx_named(self, prefix=prefix)
        self.bn1 = _mx_BatchNorm(in_channels=in_channels)
        self.conv1 = _mx_Conv2D(channels // 4, kernel_size=1, strides=1, use_bias=False, in_channels=in_channels)
        self.bn2 = _mx_BatchNorm(in_channels=channels // 4)
        self.conv2 = _mx_conv3x3(channels // 4, stride, channels // 4)
        self.bn3 = _mx_BatchNorm(in_channels=channels // 4)
        self.conv3 = _mx_Conv2D(channels, kernel_size=1, strides=1, use_bias=False, in_channels=channels // 4)
        self.downsample = None
        if downsample:
            self.downsample = _mx_Conv2D(channels, 1, stride, use_bias=False, in_channels=in_channels)

    def forward(self, x):
        residual = x
        x = torch.relu(self.bn1(x))
        if self.downsample is not None:
            residual = self.downsample(x)
        x = self.conv1(x)
        x = self.conv2(torch.relu(self.bn2(x)))
        x = self.conv3(torch.relu(self.bn3(x)))
        return x + residual


class _mx_ResNetV1(torch.nn.Module):
    """Gluon ResNetV1(block, layers, channels, classes, thumbnail)."""

    def __init__(self, block, layers, channels, classes=1000, thumbnail=False, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        _mx_named(self, prefix=prefix)
        assert len(layers) == len(channels) - 1
        self.features = _mx_named(torch.nn.Sequential(), prefix="")
        if thumbnail:
            self.features.append(_mx_conv3x3(channels[0], 1, 0))
        else:
            self.features.append(_mx_Conv2D(channels[0], 7, 2, 3, use_bias=False))
            self.features.append(_mx_BatchNorm(in_channels=channels[0]))
            self.features.append(torch.nn.ReLU())
            self.features.append(torch.nn.MaxPool2d(3, 2, 1))
        for i, num_layer in enumerate(layers):
            stride = 1 if i == 0 else 2
            self.features.append(self._make_layer(block, num_layer, channels[i + 1], stride, i + 1,
                                                  in_channels=channels[i]))
        self.features.append(torch.nn.AdaptiveAvgPool2d(1))
        self.output = _mx_Dense(classes, in_units=channels[-1])

    def _make_layer(self, block, layers, channels, stride, stage_index, in_channels=0):
        layer = _mx_named(torch.nn.Sequential(), prefix=f"stage{stage_index}_")
        layer.append(block(channels, stride, channels != in_channels, in_channels=in_channels, prefix=""))
        for _ in range(layers - 1):
            layer.append(block(channels, 1, False, in_channels=channels, prefix=""))
        return layer

    def forward(self, x):
        return self.output(self.features(x))


class _mx_ResNetV2(torch.nn.Module):
    """Gluon ResNetV2(block, layers, channels, classes, thumbnail): a BatchNorm without scale or
    shift normalises the input first."""

    def __init__(self, block, layers, channels, classes=1000, thumbnail=False, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        _mx_named(self, prefix=prefix)
        assert len(layers) == len(channels) - 1
        self.features = _mx_named(torch.nn.Sequential(_mx_BatchNorm(scale=False, center=False)), prefix="")
        if thumbnail:
            self.features.append(_mx_conv3x3(channels[0], 1, 0))
        else:
            self.features.append(_mx_Conv2D(channels[0], 7, 2, 3, use_bias=False))
            self.features.append(_mx_BatchNorm(in_channels=channels[0]))
            self.features.append(torch.nn.ReLU())
            self.features.append(torch.nn.MaxPool2d(3, 2, 1))
        in_channels = channels[0]
        for i, num_layer in enumerate(layers):
            stride = 1 if i == 0 else 2
            self.features.append(self._make_layer(block, num_layer, channels[i + 1], stride, i + 1,
                                                  in_channels=in_channels))
            in_channels = channels[i + 1]
        self.features.extend([_mx_BatchNorm(in_channels=in_channels), torch.nn.ReLU(),
                              torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten()])
        self.output = _mx_Dense(classes, in_units=in_channels)

    def _make_layer(self, block, layers, channels, stride, stage_index, in_channels=0):
        layer = _mx_named(torch.nn.Sequential(), prefix=f"stage{stage_index}_")
        layer.append(block(channels, stride, channels != in_channels, in_channels=in_channels, prefix=""))
        for _ in range(layers - 1):
            layer.append(block(channels, 1, False, in_channels=channels, prefix=""))
        return layer

    def forward(self, x):
        return self.output(self.features(x))


def _mx_get_resnet(version, num_layers, pretrained=False, ctx=None, root=None, **kwargs):
    """Gluon get_resnet(version, num_layers, ...): ResNet V1 or V2 with 18, 34, 50, 101 or 152 layers."""
    spec = {18: ("basic_block", [2, 2, 2, 2], [64, 64, 128, 256, 512]),
            34: ("basic_block", [3, 4, 6, 3], [64, 64, 128, 256, 512]),
            50: ("bottle_neck", [3, 4, 6, 3], [64, 256, 512, 1024, 2048]),
            101: ("bottle_neck", [3, 4, 23, 3], [64, 256, 512, 1024, 2048]),
            152: ("bottle_neck", [3, 8, 36, 3], [64, 256, 512, 1024, 2048])}
    assert num_layers in spec, f"Invalid number of layers: {num_layers}. Options are {list(spec)}"
    assert 1 <= version <= 2, f"Invalid resnet version: {version}. Options are 1 and 2."
    block_type, layers, channels = spec[num_layers]
    blocks = [{"basic_block": _mx_BasicBlockV1, "bottle_neck": _mx_BottleneckV1},
              {"basic_block": _mx_BasicBlockV2, "bottle_neck": _mx_BottleneckV2}][version - 1]
    net = [_mx_ResNetV1, _mx_ResNetV2][version - 1](blocks[block_type], layers, channels, **kwargs)
    if pretrained:
        _mx_zoo_pretrained(net, f"resnet{num_layers}_v{version}", ctx, root)
    return net


def _mx_resnet18_v1(**kwargs):
    return _mx_get_resnet(1, 18, **kwargs)


def _mx_resnet34_v1(**kwargs):
    return _mx_get_resnet(1, 34, **kwargs)


def _mx_resnet50_v1(**kwargs):
    return _mx_get_resnet(1, 50, **kwargs)


def _mx_resnet101_v1(**kwargs):
    return _mx_get_resnet(1, 101, **kwargs)


def _mx_resnet152_v1(**kwargs):
    return _mx_get_resnet(1, 152, **kwargs)


def _mx_resnet18_v2(**kwargs):
    return _mx_get_resnet(2, 18, **kwargs)


def _mx_resnet34_v2(**kwargs):
    return _mx_get_resnet(2, 34, **kwargs)


def _mx_resnet50_v2(**kwargs):
    return _mx_get_resnet(2, 50, **kwargs)


def _mx_resnet101_v2(**kwargs):
    return _mx_get_resnet(2, 101, **kwargs)


def _mx_resnet152_v2(**kwargs):
    return _mx_get_resnet(2, 152, **kwargs)


# -- VGG (vision/vgg.py) --------------------------------------------------------------------
class _mx_VGG(torch.nn.Module):
    """Gluon VGG(layers, filters, classes, batch_norm): convolutions drawn by
    Xavier(gaussian, out, 2) and dense layers by normal(0.01), whatever `initialize()` is given."""

    def __init__(self, layers, filters, classes=1000, batch_norm=False, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        _mx_named(self, prefix=prefix)
        assert len(layers) == len(filters)
        self.features = self._make_features(layers, filters, batch_norm)
        self.features.extend([
            _mx_Dense(4096, activation="relu", weight_initializer="normal", bias_initializer="zeros"),
            torch.nn.Dropout(0.5),
            _mx_Dense(4096, activation="relu", weight_initializer="normal", bias_initializer="zeros",
                      in_units=4096),
            torch.nn.Dropout(0.5)])
        self.output = _mx_Dense(classes, weight_initializer="normal", bias_initializer="zeros", in_units=4096)

    def _make_features(self, layers, filters, batch_norm):
        featurizer = _mx_named(torch.nn.Sequential(), prefix="")
        in_channels = 0  # the image's channels: from the first input, as in Gluon
        for i, num in enumerate(layers):
            for _ in range(num):
                featurizer.append(_mx_Conv2D(filters[i], kernel_size=3, padding=1,
                                             weight_initializer=_mx_xavier("gaussian", "out", 2),
                                             bias_initializer="zeros", in_channels=in_channels))
                if batch_norm:
                    featurizer.append(_mx_BatchNorm(in_channels=filters[i]))
                featurizer.append(torch.nn.ReLU())
                in_channels = filters[i]
            featurizer.append(torch.nn.MaxPool2d(2, 2))
        return featurizer

    def forward(self, x):
        return self.output(self.features(x))


def _mx_get_vgg(num_layers, pretrained=False, ctx=None, root=None, **kwargs):
    """Gluon get_vgg(num_layers, ...): VGG 11, 13, 16 or 19 (`batch_norm=True`: the _bn variant)."""
    spec = {11: ([1, 1, 2, 2, 2], [64, 128, 256, 512, 512]), 13: ([2, 2, 2, 2, 2], [64, 128, 256, 512, 512]),
            16: ([2, 2, 3, 3, 3], [64, 128, 256, 512, 512]), 19: ([2, 2, 4, 4, 4], [64, 128, 256, 512, 512])}
    layers, filters = spec[num_layers]
    net = _mx_VGG(layers, filters, **kwargs)
    if pretrained:
        _mx_zoo_pretrained(net, f"vgg{num_layers}{'_bn' if kwargs.get('batch_norm') else ''}", ctx, root)
    return net


def _mx_vgg11(**kwargs):
    return _mx_get_vgg(11, **kwargs)


def _mx_vgg13(**kwargs):
    return _mx_get_vgg(13, **kwargs)


def _mx_vgg16(**kwargs):
    return _mx_get_vgg(16, **kwargs)


def _mx_vgg19(**kwargs):
    return _mx_get_vgg(19, **kwargs)


def _mx_vgg11_bn(**kwargs):
    return _mx_get_vgg(11, **{**kwargs, "batch_norm": True})


def _mx_vgg13_bn(**kwargs):
    return _mx_get_vgg(13, **{**kwargs, "batch_norm": True})


def _mx_vgg16_bn(**kwargs):
    return _mx_get_vgg(16, **{**kwargs, "batch_norm": True})


def _mx_vgg19_bn(**kwargs):
    return _mx_get_vgg(19, **{**kwargs, "batch_norm": True})


# -- AlexNet (vision/alexnet.py) -------------------------------------------------------------
class _mx_AlexNet(torch.nn.Module):
    """Gluon AlexNet(classes)."""

    def __init__(self, classes=1000, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        _mx_named(self, prefix=prefix)
        self.features = _mx_named(torch.nn.Sequential(
            _mx_Conv2D(64, kernel_size=11, strides=4, padding=2, activation="relu"),
            torch.nn.MaxPool2d(3, 2),
            _mx_Conv2D(192, kernel_size=5, padding=2, activation="relu", in_channels=64),
            torch.nn.MaxPool2d(3, 2),
            _mx_Conv2D(384, kernel_size=3, padding=1, activation="relu", in_channels=192),
            _mx_Conv2D(256, kernel_size=3, padding=1, activation="relu", in_channels=384),
            _mx_Conv2D(256, kernel_size=3, padding=1, activation="relu", in_channels=256),
            torch.nn.MaxPool2d(3, 2),
            torch.nn.Flatten(),
            _mx_Dense(4096, activation="relu"),
            torch.nn.Dropout(0.5),
            _mx_Dense(4096, activation="relu", in_units=4096),
            torch.nn.Dropout(0.5)), prefix="")
        self.output = _mx_Dense(classes, in_units=4096)

    def forward(self, x):
        return self.output(self.features(x))


def _mx_alexnet(pretrained=False, ctx=None, root=None, **kwargs):
    net = _mx_AlexNet(**kwargs)
    if pretrained:
        _mx_zoo_pretrained(net, "alexnet", ctx, root)
    return net


# -- DenseNet (vision/densenet.py) -----------------------------------------------------------
def _mx_dense_layer(growth_rate, bn_size, dropout, in_channels=0):
    new_features = _mx_named(torch.nn.Sequential(
        _mx_BatchNorm(in_channels=in_channels), torch.nn.ReLU(),
        _mx_Conv2D(bn_size * growth_rate, kernel_size=1, use_bias=False, in_channels=in_channels),
        _mx_BatchNorm(in_channels=bn_size * growth_rate), torch.nn.ReLU(),
        _mx_Conv2D(growth_rate, kernel_size=3, padding=1, use_bias=False, in_channels=bn_size * growth_rate)),
        prefix="")
    if dropout:
        new_features.append(torch.nn.Dropout(dropout))
    out = _mx_Concurrent(axis=1, prefix="")
    out.append(torch.nn.Identity())
    out.append(new_features)
    return out


def _mx_make_dense_block(num_layers, bn_size, growth_rate, dropout, stage_index, in_channels=0):
    """Gluon densenet's _make_dense_block: `num_layers` dense layers named `stage<i>_`;
    `in_channels` (0: from the first input) is the torch side's."""
    stage = _mx_named(torch.nn.Sequential(), prefix=f"stage{stage_index}_")
    for k in range(num_layers):
        stage.append(_mx_dense_layer(growth_rate, bn_size, dropout, in_channels and in_channels + k * growth_rate))
    return stage


def _mx_make_transition(num_output_features, in_channels=0):
    """Gluon densenet's _make_transition: BatchNorm, relu, 1x1 convolution, 2x2 average pooling."""
    return _mx_named(torch.nn.Sequential(
        _mx_BatchNorm(in_channels=in_channels), torch.nn.ReLU(),
        _mx_Conv2D(num_output_features, kernel_size=1, use_bias=False, in_channels=in_channels),
        torch.nn.AvgPool2d(2, 2)), prefix="")


class _mx_DenseNet(torch.nn.Module):
    """Gluon DenseNet(num_init_features, growth_rate, block_config, bn_size, dropout, classes):
    every dense layer concatenates its input and its new features."""

    def __init__(self, num_init_features, growth_rate, block_config, bn_size=4, dropout=0, classes=1000,
                 prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        _mx_named(self, prefix=prefix)
        self.features = _mx_named(torch.nn.Sequential(
            _mx_Conv2D(num_init_features, kernel_size=7, strides=2, padding=3, use_bias=False),
            _mx_BatchNorm(in_channels=num_init_features), torch.nn.ReLU(), torch.nn.MaxPool2d(3, 2, 1)), prefix="")
        num_features = num_init_features
        for i, num_layers in enumerate(block_config):
            self.features.append(_mx_make_dense_block(num_layers, bn_size, growth_rate, dropout, i + 1, num_features))
            num_features = num_features + num_layers * growth_rate
            if i != len(block_config) - 1:
                self.features.append(_mx_make_transition(num_features // 2, num_features))
                num_features = num_features // 2
        self.features.extend([_mx_BatchNorm(in_channels=num_features), torch.nn.ReLU(), torch.nn.AvgPool2d(7),
                              torch.nn.Flatten()])
        self.output = _mx_Dense(classes, in_units=num_features)

    def forward(self, x):
        return self.output(self.features(x))


def _mx_get_densenet(num_layers, pretrained=False, ctx=None, root=None, **kwargs):
    """Gluon get_densenet(num_layers, ...): DenseNet 121, 161, 169 or 201."""
    spec = {121: (64, 32, [6, 12, 24, 16]), 161: (96, 48, [6, 12, 36, 24]),
            169: (64, 32, [6, 12, 32, 32]), 201: (64, 32, [6, 12, 48, 32])}
    num_init_features, growth_rate, block_config = spec[num_layers]
    net = _mx_DenseNet(num_init_features, growth_rate, block_config, **kwargs)
    if pretrained:
        _mx_zoo_pretrained(net, f"densenet{num_layers}", ctx, root)
    return net


def _mx_densenet121(**kwargs):
    return _mx_get_densenet(121, **kwargs)


def _mx_densenet161(**kwargs):
    return _mx_get_densenet(161, **kwargs)


def _mx_densenet169(**kwargs):
    return _mx_get_densenet(169, **kwargs)


def _mx_densenet201(**kwargs):
    return _mx_get_densenet(201, **kwargs)


# -- SqueezeNet (vision/squeezenet.py) -------------------------------------------------------
def _mx_fire_conv(channels, kernel_size, padding=0, in_channels=0):
    """Gluon squeezenet's _make_fire_conv: a convolution and relu."""
    return _mx_named(torch.nn.Sequential(
        _mx_Conv2D(channels, kernel_size, padding=padding, in_channels=in_channels), torch.nn.ReLU()), prefix="")


def _mx_fire(squeeze_channels, expand1x1_channels, expand3x3_channels, in_channels=0):
    """Gluon squeezenet's _make_fire; `in_channels` (0: from the first input) is the torch side's."""
    paths = _mx_Concurrent(axis=1, prefix="")
    paths.append(_mx_fire_conv(expand1x1_channels, 1, 0, squeeze_channels))
    paths.append(_mx_fire_conv(expand3x3_channels, 3, 1, squeeze_channels))
    return _mx_named(torch.nn.Sequential(_mx_fire_conv(squeeze_channels, 1, 0, in_channels), paths), prefix="")


class _mx_SqueezeNet(torch.nn.Module):
    """Gluon SqueezeNet(version, classes): version '1.0' or '1.1'; MXNet's ceil_mode pooling
    keeps a last window that starts in the padding (`_mx_MaxPool2D`)."""

    def __init__(self, version, classes=1000, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        _mx_named(self, prefix=prefix)
        assert version in ["1.0", "1.1"], f"Unsupported SqueezeNet version {version}:1.0 or 1.1 expected"

        def pool():
            return _mx_MaxPool2D(pool_size=3, strides=2, ceil_mode=True)

        if version == "1.0":
            self.features = torch.nn.Sequential(
                _mx_Conv2D(96, kernel_size=7, strides=2), torch.nn.ReLU(), pool(),
                _mx_fire(16, 64, 64, 96), _mx_fire(16, 64, 64, 128), _mx_fire(32, 128, 128, 128), pool(),
                _mx_fire(32, 128, 128, 256), _mx_fire(48, 192, 192, 256), _mx_fire(48, 192, 192, 384),
                _mx_fire(64, 256, 256, 384), pool(), _mx_fire(64, 256, 256, 512))
        else:
            self.features = torch.nn.Sequential(
                _mx_Conv2D(64, kernel_size=3, strides=2), torch.nn.ReLU(), pool(),
                _mx_fire(16, 64, 64, 64), _mx_fire(16, 64, 64, 128), pool(),
                _mx_fire(32, 128, 128, 128), _mx_fire(32, 128, 128, 256), pool(),
                _mx_fire(48, 192, 192, 256), _mx_fire(48, 192, 192, 384), _mx_fire(64, 256, 256, 384),
                _mx_fire(64, 256, 256, 512))
        _mx_named(self.features, prefix="")
        self.features.append(torch.nn.Dropout(0.5))
        self.output = _mx_named(torch.nn.Sequential(_mx_Conv2D(classes, kernel_size=1, in_channels=512),
                                                    torch.nn.ReLU(), torch.nn.AvgPool2d(13), torch.nn.Flatten()),
                                prefix="")

    def forward(self, x):
        return self.output(self.features(x))


def _mx_get_squeezenet(version, pretrained=False, ctx=None, root=None, **kwargs):
    net = _mx_SqueezeNet(version, **kwargs)
    if pretrained:
        _mx_zoo_pretrained(net, f"squeezenet{version}", ctx, root)
    return net


def _mx_squeezenet1_0(**kwargs):
    return _mx_get_squeezenet("1.0", **kwargs)


def _mx_squeezenet1_1(**kwargs):
    return _mx_get_squeezenet("1.1", **kwargs)


# -- Inception V3 (vision/inception.py) ------------------------------------------------------
def _mx_inception_conv(**kwargs):
    """Gluon's _make_basic_conv: convolution without bias, BatchNorm(epsilon=0.001), relu."""
    return _mx_named(torch.nn.Sequential(_mx_Conv2D(use_bias=False, **kwargs),
                                         _mx_BatchNorm(epsilon=0.001, in_channels=kwargs["channels"]),
                                         torch.nn.ReLU()), prefix="")


def _mx_inception_branch(use_pool, *conv_settings):
    """Gluon's _make_branch: an optional pooling, then a convolution per (channels, kernel_size,
    strides, padding) setting, None meaning Gluon's default."""
    out = _mx_named(torch.nn.Sequential(), prefix="")
    if use_pool == "avg":
        out.append(torch.nn.AvgPool2d(3, 1, 1))
    elif use_pool == "max":
        out.append(torch.nn.MaxPool2d(3, 2))
    for setting in conv_settings:
        names = ("channels", "kernel_size", "strides", "padding")
        out.append(_mx_inception_conv(**{k: v for k, v in zip(names, setting) if v is not None}))
    return out


def _mx_inception_block(kind, prefix, *args):
    """Gluon's _make_A (pool_features, prefix), _make_B (prefix), _make_C (channels_7x7, prefix),
    _make_D (prefix) and _make_E (prefix): branches run side by side and concatenated along the
    channels."""
    branch, out = _mx_inception_branch, _mx_Concurrent(axis=1, prefix=prefix)
    if kind == "A":
        out.extend([branch(None, (64, 1, None, None)),
                    branch(None, (48, 1, None, None), (64, 5, None, 2)),
                    branch(None, (64, 1, None, None), (96, 3, None, 1), (96, 3, None, 1)),
                    branch("avg", (args[0], 1, None, None))])
    elif kind == "B":
        out.extend([branch(None, (384, 3, 2, None)),
                    branch(None, (64, 1, None, None), (96, 3, None, 1), (96, 3, 2, None)),
                    branch("max")])
    elif kind == "C":
        c7 = args[0]
        out.extend([branch(None, (192, 1, None, None)),
                    branch(None, (c7, 1, None, None), (c7, (1, 7), None, (0, 3)), (192, (7, 1), None, (3, 0))),
                    branch(None, (c7, 1, None, None), (c7, (7, 1), None, (3, 0)), (c7, (1, 7), None, (0, 3)),
                           (c7, (7, 1), None, (3, 0)), (192, (1, 7), None, (0, 3))),
                    branch("avg", (192, 1, None, None))])
    elif kind == "D":
        out.extend([branch(None, (192, 1, None, None), (320, 3, 2, None)),
                    branch(None, (192, 1, None, None), (192, (1, 7), None, (0, 3)), (192, (7, 1), None, (3, 0)),
                           (192, 3, 2, None)),
                    branch("max")])
    else:  # E: two branches split in two again
        def split(first):
            pair = _mx_Concurrent(axis=1, prefix="")
            pair.extend([branch(None, (384, (1, 3), None, (0, 1))), branch(None, (384, (3, 1), None, (1, 0)))])
            return _mx_named(torch.nn.Sequential(first, pair), prefix="")

        out.extend([branch(None, (320, 1, None, None)),
                    split(branch(None, (384, 1, None, None))),
                    split(branch(None, (448, 1, None, None), (384, 3, None, 1))),
                    branch("avg", (192, 1, None, None))])
    return out


class _mx_Inception3(torch.nn.Module):
    """Gluon Inception3(classes): Inception V3 for 299 x 299 inputs."""

    def __init__(self, classes=1000, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        _mx_named(self, prefix=prefix)
        conv, block = _mx_inception_conv, _mx_inception_block
        self.features = _mx_named(torch.nn.Sequential(
            conv(channels=32, kernel_size=3, strides=2), conv(channels=32, kernel_size=3),
            conv(channels=64, kernel_size=3, padding=1), torch.nn.MaxPool2d(3, 2),
            conv(channels=80, kernel_size=1), conv(channels=192, kernel_size=3), torch.nn.MaxPool2d(3, 2),
            block("A", "A1_", 32), block("A", "A2_", 64), block("A", "A3_", 64), block("B", "B_"),
            block("C", "C1_", 128), block("C", "C2_", 160), block("C", "C3_", 160), block("C", "C4_", 192),
            block("D", "D_"), block("E", "E1_"), block("E", "E2_"), torch.nn.AvgPool2d(8), torch.nn.Dropout(0.5)),
            prefix="")
        self.output = _mx_Dense(classes)

    def forward(self, x):
        return self.output(self.features(x))


def _mx_inception_v3(pretrained=False, ctx=None, root=None, **kwargs):
    net = _mx_Inception3(**kwargs)
    if pretrained:
        _mx_zoo_pretrained(net, "inceptionv3", ctx, root)
    return net


# -- MobileNet and MobileNetV2 (vision/mobilenet.py) -----------------------------------------
class _mx_Clip06(torch.autograd.Function):
    """clip(x, 0, 6) with MXNet's gradient, which passes at 0 and 6 themselves (torch's ReLU6,
    hardtanh, stops it there) in the time of torch's fused hardtanh kernels (torch.clamp's
    backward, also inclusive, costs MobileNetV2 19% of a training step): the backward is
    hardtanh's with its bounds moved out by one step of the dtype, so that 0 and 6 fall inside."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.nn.functional.hardtanh(x, 0.0, 6.0)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        info = torch.finfo(x.dtype)
        low = -info.smallest_normal * info.eps  # the negative number nearest 0: 0 itself is inside
        high = 6.0 + 4.0 * info.eps  # the number after 6 (its spacing is 4 eps): 6 itself is inside
        return torch.ops.aten.hardtanh_backward(grad, x, low, high)


class _mx_RELU6(torch.nn.Module):
    """Gluon mobilenet's RELU6: clip(x, 0, 6). MXNet's clip passes the gradient at 0 and 6
    themselves; torch's ReLU6 stops it there, which changes the gradient wherever a BatchNorm
    output is exactly 0 (a channel constant over the batch): `_mx_Clip06` keeps MXNet's."""

    def __init__(self, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        _mx_named(self, prefix=prefix)

    def forward(self, x):
        return _mx_Clip06.apply(x)


def _mx_add_conv(out, channels=1, kernel=1, stride=1, pad=0, num_group=1, active=True, relu6=False, in_channels=0):
    """Gluon mobilenet's _add_conv: convolution without bias, BatchNorm and relu (or relu6)
    appended to `out`; `in_channels` (0: from the first input) is the torch side's."""
    out.append(_mx_Conv2D(channels, kernel, stride, pad, groups=num_group, use_bias=False, in_channels=in_channels))
    out.append(_mx_BatchNorm(scale=True, in_channels=channels))
    if active:
        out.append(_mx_RELU6() if relu6 else torch.nn.ReLU())


def _mx_add_conv_dw(out, dw_channels, channels, stride, relu6=False):
    _mx_add_conv(out, channels=dw_channels, kernel=3, stride=stride, pad=1, num_group=dw_channels, relu6=relu6,
                 in_channels=dw_channels)
    _mx_add_conv(out, channels=channels, relu6=relu6, in_channels=dw_channels)


class _mx_LinearBottleneck(torch.nn.Module):
    """Gluon mobilenet's LinearBottleneck(in_channels, channels, t, stride): expand by t,
    depthwise, project; the input is added back when the shapes allow."""

    def __init__(self, in_channels, channels, t, stride, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        _mx_named(self, prefix=prefix)
        self.use_shortcut = stride == 1 and in_channels == channels
        # Gluon's `out` is a default-named HybridSequential whose layers are built in the
        # bottleneck's own scope (no `with self.out.name_scope()`): `linearbottleneck0_conv0_`
        self.out = _mx_named(torch.nn.Sequential(), outside=True)
        _mx_add_conv(self.out, in_channels * t, relu6=True, in_channels=in_channels)
        _mx_add_conv(self.out, in_channels * t, kernel=3, stride=stride, pad=1, num_group=in_channels * t,
                     relu6=True, in_channels=in_channels * t)
        _mx_add_conv(self.out, channels, active=False, relu6=True, in_channels=in_channels * t)

    def forward(self, x):
        out = self.out(x)
        return out + x if self.use_shortcut else out


class _mx_MobileNet(torch.nn.Module):
    """Gluon MobileNet(multiplier, classes)."""

    def __init__(self, multiplier=1.0, classes=1000, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        _mx_named(self, prefix=prefix)
        self.features = _mx_named(torch.nn.Sequential(), prefix="")
        _mx_add_conv(self.features, channels=int(32 * multiplier), kernel=3, pad=1, stride=2)
        dw_channels = [int(x * multiplier) for x in [32, 64] + [128] * 2 + [256] * 2 + [512] * 6 + [1024]]
        channels = [int(x * multiplier) for x in [64] + [128] * 2 + [256] * 2 + [512] * 6 + [1024] * 2]
        strides = [1, 2] * 3 + [1] * 5 + [2, 1]
        for dwc, c, s in zip(dw_channels, channels, strides):
            _mx_add_conv_dw(self.features, dw_channels=dwc, channels=c, stride=s)
        self.features.extend([torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten()])
        self.output = _mx_Dense(classes, in_units=channels[-1])

    def forward(self, x):
        return self.output(self.features(x))


class _mx_MobileNetV2(torch.nn.Module):
    """Gluon MobileNetV2(multiplier, classes): the classifier is a 1x1 convolution without bias."""

    def __init__(self, multiplier=1.0, classes=1000, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        _mx_named(self, prefix=prefix)
        self.features = _mx_named(torch.nn.Sequential(), prefix="features_")
        _mx_add_conv(self.features, int(32 * multiplier), kernel=3, stride=2, pad=1, relu6=True)
        in_channels_group = [int(x * multiplier) for x in [32] + [16] + [24] * 2 + [32] * 3 + [64] * 4 + [96] * 3
                             + [160] * 3]
        channels_group = [int(x * multiplier) for x in [16] + [24] * 2 + [32] * 3 + [64] * 4 + [96] * 3 + [160] * 3
                          + [320]]
        ts = [1] + [6] * 16
        strides = [1, 2] * 2 + [1, 1, 2] + [1] * 6 + [2] + [1] * 3
        for in_c, c, t, s in zip(in_channels_group, channels_group, ts, strides):
            self.features.append(_mx_LinearBottleneck(in_channels=in_c, channels=c, t=t, stride=s))
        last_channels = int(1280 * multiplier) if multiplier > 1.0 else 1280
        _mx_add_conv(self.features, last_channels, relu6=True, in_channels=channels_group[-1])
        self.features.append(torch.nn.AdaptiveAvgPool2d(1))
        self.output = _mx_named(torch.nn.Sequential(
            _mx_named(_mx_Conv2D(classes, 1, use_bias=False, in_channels=last_channels), prefix="pred_"),
            torch.nn.Flatten()), prefix="output_")

    def forward(self, x):
        return self.output(self.features(x))


def _mx_mobilenet_suffix(multiplier):
    suffix = "{0:.2f}".format(multiplier)
    return suffix[:-1] if suffix in ("1.00", "0.50") else suffix


def _mx_get_mobilenet(multiplier, pretrained=False, ctx=None, root=None, **kwargs):
    """Gluon get_mobilenet(multiplier, ...)."""
    net = _mx_MobileNet(multiplier, **kwargs)
    if pretrained:
        _mx_zoo_pretrained(net, f"mobilenet{_mx_mobilenet_suffix(multiplier)}", ctx, root)
    return net


def _mx_get_mobilenet_v2(multiplier, pretrained=False, ctx=None, root=None, **kwargs):
    """Gluon get_mobilenet_v2(multiplier, ...)."""
    net = _mx_MobileNetV2(multiplier, **kwargs)
    if pretrained:
        _mx_zoo_pretrained(net, f"mobilenetv2_{_mx_mobilenet_suffix(multiplier)}", ctx, root)
    return net


def _mx_mobilenet1_0(**kwargs):
    return _mx_get_mobilenet(1.0, **kwargs)


def _mx_mobilenet0_75(**kwargs):
    return _mx_get_mobilenet(0.75, **kwargs)


def _mx_mobilenet0_5(**kwargs):
    return _mx_get_mobilenet(0.5, **kwargs)


def _mx_mobilenet0_25(**kwargs):
    return _mx_get_mobilenet(0.25, **kwargs)


def _mx_mobilenet_v2_1_0(**kwargs):
    return _mx_get_mobilenet_v2(1.0, **kwargs)


def _mx_mobilenet_v2_0_75(**kwargs):
    return _mx_get_mobilenet_v2(0.75, **kwargs)


def _mx_mobilenet_v2_0_5(**kwargs):
    return _mx_get_mobilenet_v2(0.5, **kwargs)


def _mx_mobilenet_v2_0_25(**kwargs):
    return _mx_get_mobilenet_v2(0.25, **kwargs)


# -- get_model (vision/__init__.py) ----------------------------------------------------------
def _mx_vision_get_model(name, **kwargs):
    """Gluon `vision.get_model(name, **kwargs)`: the network by its zoo name ('resnet18_v1',
    'mobilenetv2_0.25', 'squeezenet1.1', ...), built with Gluon's arguments."""
    models = {"resnet18_v1": _mx_resnet18_v1, "resnet34_v1": _mx_resnet34_v1, "resnet50_v1": _mx_resnet50_v1,
              "resnet101_v1": _mx_resnet101_v1, "resnet152_v1": _mx_resnet152_v1, "resnet18_v2": _mx_resnet18_v2,
              "resnet34_v2": _mx_resnet34_v2, "resnet50_v2": _mx_resnet50_v2, "resnet101_v2": _mx_resnet101_v2,
              "resnet152_v2": _mx_resnet152_v2, "vgg11": _mx_vgg11, "vgg13": _mx_vgg13, "vgg16": _mx_vgg16,
              "vgg19": _mx_vgg19, "vgg11_bn": _mx_vgg11_bn, "vgg13_bn": _mx_vgg13_bn, "vgg16_bn": _mx_vgg16_bn,
              "vgg19_bn": _mx_vgg19_bn, "alexnet": _mx_alexnet, "densenet121": _mx_densenet121,
              "densenet161": _mx_densenet161, "densenet169": _mx_densenet169, "densenet201": _mx_densenet201,
              "squeezenet1.0": _mx_squeezenet1_0, "squeezenet1.1": _mx_squeezenet1_1,
              "inceptionv3": _mx_inception_v3, "mobilenet1.0": _mx_mobilenet1_0, "mobilenet0.75": _mx_mobilenet0_75,
              "mobilenet0.5": _mx_mobilenet0_5, "mobilenet0.25": _mx_mobilenet0_25,
              "mobilenetv2_1.0": _mx_mobilenet_v2_1_0, "mobilenetv2_0.75": _mx_mobilenet_v2_0_75,
              "mobilenetv2_0.5": _mx_mobilenet_v2_0_5, "mobilenetv2_0.25": _mx_mobilenet_v2_0_25}
    name = name.lower()
    if name not in models:
        raise ValueError("Model %s is not supported. Available options are\n\t%s"
                         % (name, "\n\t".join(sorted(models))))
    return models[name](**kwargs)
