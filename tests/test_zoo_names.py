"""Gluon's parameter names for the model zoo (xlate/runtime/zoo.py, Note [Gluon names] in
xlate/runtime/naming.py): for every network of MXNet 1.9.1's `vision.get_model`, the names
`_mx_collect_params` gives the torch network, in order, must be Gluon's `collect_params()`
keys. The top-level block's counter is process-wide in both (`resnetv10_`, `resnetv11_`), so
each list is compared below its top-level prefix, and the prefixes by their alias; no forward
pass: Gluon names deferred parameters before their shapes are known."""
from __future__ import annotations

import re

import pytest

from tests.mxsupport import import_mxnet, import_torch

pytestmark = pytest.mark.mxnet

mx = import_mxnet()
torch = import_torch()

from mxnet.gluon.model_zoo import vision  # noqa: E402

from xlate.runtime import load  # noqa: E402

rt = load()

NAMES = ("resnet18_v1 resnet34_v1 resnet50_v1 resnet101_v1 resnet152_v1 resnet18_v2 resnet34_v2 resnet50_v2 "
         "resnet101_v2 resnet152_v2 vgg11 vgg13 vgg16 vgg19 vgg11_bn vgg13_bn vgg16_bn vgg19_bn alexnet densenet121 "
         "densenet161 densenet169 densenet201 squeezenet1.0 squeezenet1.1 inceptionv3 mobilenet1.0 mobilenet0.75 "
         "mobilenet0.5 mobilenet0.25 mobilenetv2_1.0 mobilenetv2_0.75 mobilenetv2_0.5 mobilenetv2_0.25").split()


def _below_top(names):
    """(the top-level alias, every name without the top-level prefix)."""
    names = list(names)
    top = names[0][:names[0].index("_") + 1]
    assert all(n.startswith(top) for n in names), top
    return re.sub(r"\d+_$", "", top), [n[len(top):] for n in names]


def test_every_zoo_name_is_listed():
    """The list below is MXNet's whole get_model table (a network added there is named here)."""
    with pytest.raises(ValueError) as err:
        vision.get_model("no such network")
    listed = set(str(err.value).split("\n\t")[1:])
    assert listed == set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_zoo_parameter_names_are_gluons(name):
    gluon = vision.get_model(name, classes=5).collect_params().keys()
    torch_net = rt._mx_vision_get_model(name, classes=5)
    ours = rt._mx_collect_params(torch_net).keys()
    assert _below_top(ours) == _below_top(gluon)


def test_zoo_block_prefixes_are_gluons():
    """Block prefixes too, where Gluon's containers are named by `prefix=` (`stage1_`,
    `features_`, `output_`, `pred_`, Inception's `A1_`) or fill a container outside its scope
    (MobileNetV2's `linearbottleneck0_hybridsequential0_`, whose layers are
    `linearbottleneck0_conv0_`)."""
    pairs = {"resnet18_v1": lambda n: n.features[4], "densenet121": lambda n: n.features[4],
             "inceptionv3": lambda n: n.features[7], "mobilenetv2_0.25": lambda n: n.features[3].out,
             "mobilenetv2_1.0": lambda n: n.output[0]}
    for name, pick in pairs.items():
        gluon, ours = vision.get_model(name, classes=5), rt._mx_vision_get_model(name, classes=5)
        expected = pick(gluon).prefix
        actual = rt._mx_block_prefix(pick(ours))
        top_g, top_o = gluon.prefix, rt._mx_block_prefix(ours)
        assert re.sub(r"\d+_$", "", top_g) == re.sub(r"\d+_$", "", top_o)
        assert actual[len(top_o):] == expected[len(top_g):], name
