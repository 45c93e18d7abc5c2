"""The operators model-zoo code calls through `F.` (MX058-MX069), `name=` on any operator,
`autograd.is_training()` and `mx.autograd.Function` (MX530, MX531): what is rewritten, what is
left for a human and why. The numbers are compared with MXNet in xlate.check.rule_cases."""
import ast
import textwrap

import pytest

from xlate.convert.engine import convert_source


def convert(src: str, **kw):
    result = convert_source(textwrap.dedent(src).lstrip("\n"), **kw)
    ast.parse(result.output)
    assert convert_source(result.output).output == result.output  # idempotent
    return result


def found(result, status=None) -> list:
    return [(d.code, d.status) for d in result.diagnostics if status is None or d.status == status]


def manual(result) -> list:
    """What is left for a human, but the import kept for it (MX002)."""
    return [(d.code, d.message) for d in result.diagnostics if d.status == "manual" and d.code != "MX002"]


# -- `name=` names MXNet's symbol node only ---------------------------------------------------------

@pytest.mark.parametrize("call,expected", [
    ('nd.clip(x, 0.0, 6.0, name="relu6")', "torch.clamp(x, 0.0, 6.0)"),  # table rule
    ("nd.LeakyReLU(x, act_type='leaky', slope=0.1, name='fwd')", "F.leaky_relu(x, 0.1)"),  # bound by its transform
    ("nd.add_n(a, b, name='total')", "torch.stack([a, b]).sum(dim=0)"),  # reads its own arguments
    ("nd.softmax(x, axis=1, name='p')", "torch.softmax(x, dim=1)"),  # transform on the bound arguments
    ("nd.ones_like(x, name='one')", "torch.ones_like(x)"),
])
def test_name_keyword_of_an_operator_is_dropped(call, expected):
    r = convert(f"from mxnet import nd\ny = {call}\n")
    assert f"y = {expected}" in r.output
    assert not manual(r) and "name=" not in r.output


def test_name_keyword_in_hybrid_forward_is_dropped():
    r = convert("""
        from mxnet.gluon import nn
        class Block(nn.HybridBlock):
            def hybrid_forward(self, F, x):
                return F.LeakyReLU(F.clip(x, 0.0, 6.0, name="relu6"), act_type='leaky', slope=0.1, name="fwd")
    """)
    assert "return torch.nn.functional.leaky_relu(torch.clamp(x, 0.0, 6.0), 0.1)" in r.output
    assert not manual(r)


def test_name_keyword_outside_an_operator_still_counts():
    # a Gluon layer has no `name=` (its naming argument is prefix=): nothing to drop silently
    r = convert("from mxnet.gluon import nn\nd = nn.Dense(4, name='d')\n")
    assert any("name=" in message for _, message in manual(r))


# -- LeakyReLU / Activation act_types ----------------------------------------------------------------

def test_prelu_takes_gamma_positionally_or_by_keyword():
    r = convert("from mxnet import nd\na = nd.LeakyReLU(x, g, act_type='prelu')\nb = nd.LeakyReLU(x, gamma=g, "
                "act_type='prelu')\nc = nd.Activation(x, 'tanh')\n")
    assert "a = F.prelu(x, g)\nb = F.prelu(x, g)\nc = torch.tanh(x)" in r.output
    assert not manual(r)


@pytest.mark.parametrize("call,why", [
    ("nd.LeakyReLU(x, act_type='rrelu')", "returns [output, mask]"),
    ("nd.LeakyReLU(x, act_type='prelu')", "needs its `gamma`"),
    ("nd.LeakyReLU(x, g, act_type='leaky')", "only applies to act_type='prelu'"),
])
def test_activation_left_for_a_human(call, why):
    r = convert(f"from mxnet import nd\ny = {call}\n")
    assert [code for code, _ in manual(r)] == ["MX051"] and why in manual(r)[0][1]


# -- what the operator rules leave, and why --------------------------------------------------------

@pytest.mark.parametrize("call,code,why", [
    ("nd.Convolution(x, w, kernel=(3, 3), num_filter=4, no_bias=True, layout='NHWC')", "MX059", "channel-first"),
    ("nd.Convolution(x, kernel=(3, 3), num_filter=4)", "MX059", "`weight` is required"),
    ("nd.Deconvolution(x, w, kernel=(3, 3), num_filter=4, target_shape=(8, 8))", "MX060", "target_shape"),
    ("nd.Pooling(x, kernel=(2, 2), pool_type='lp', p_value=2)", "MX061", "lp_pool"),
    ("nd.Pooling(x, kernel=(2, 2), pooling_convention='same')", "MX061", "'same'"),
    ("nd.Pooling(x, kernel=(2, 2), layout='NHWC')", "MX061", "channel-first"),
    ("nd.UpSampling(x, scale=2, sample_type='bicubic')", "MX062", "'nearest' or 'bilinear'"),
    ("nd.UpSampling(x, scale=2, sample_type='bilinear', num_filter=3)", "MX062", "data and its deconvolution"),
    ("nd.pad(x, mode='constant', pad_width=(0, 1, 0, 0, 1, 1, 1, 1))", "MX065", "first two"),
    ("nd.pad(x, mode='wrap', pad_width=(0, 0, 0, 0, 1, 1, 1, 1))", "MX065", "'edge'"),
    ("nd.contrib.BilinearResize2D(x, height=2, width=3, mode='bicubic')", "MX064", "'size'"),
])
def test_operator_left_for_a_human(call, code, why):
    r = convert(f"from mxnet import nd\ny = {call}\n")
    assert [c for c, _ in manual(r)] == [code] and why in manual(r)[0][1], manual(r)


@pytest.mark.parametrize("call,expected", [
    # torch's own op where it is exact, MXNet's defaults written out
    ("nd.Pooling(x, kernel=(2, 2))", "F.max_pool2d(x, (2, 2), stride=1)"),
    ("nd.Pooling(x, kernel=(2, 2), stride=(), pad=())", "F.max_pool2d(x, (2, 2), stride=1)"),  # () is the default
    ("nd.Pooling(x, kernel=(3,), stride=(2,), pad=(1,), pool_type='avg')",
     "F.avg_pool1d(x, (3,), stride=(2,), padding=(1,))"),
    ("nd.Pooling(x, kernel=(3, 3), pad=(2, 2))", "_mx_pooling(x, kernel=(3, 3), pad=(2, 2))"),  # wider than torch takes
    ("nd.Pooling(x, kernel=(2, 2), pool_type='sum')", "_mx_pooling(x, kernel=(2, 2), pool_type='sum')"),
    ("nd.Pooling(x, kernel=(2, 2), pool_type=kind)", "_mx_pooling(x, kernel=(2, 2), pool_type=kind)"),
    ("nd.LRN(x, nsize=3)", "F.local_response_norm(x, 3, k=2.0)"),
    ("nd.LRN(x, nsize=n, knorm=1)", "_mx_lrn(x, nsize=n, knorm=1)"),
    ("nd.Convolution(data=x, weight=w, bias=b, kernel=(3,), num_filter=2, workspace=512, cudnn_off=True)",
     "F.conv1d(x, w, b)"),
    ("nd.Convolution(x, w, kernel=(3, 3, 3), stride=(), num_filter=2, no_bias=True)", "F.conv3d(x, w)"),
    ("nd.Deconvolution(x, w, kernel=k, stride=(2, 2), adj=(1, 1), num_filter=3)",
     "_mx_deconvolution(x, w, stride=(2, 2), adj=(1, 1))"),
    ("nd.UpSampling(x, scale=s, sample_type='nearest')", "_mx_upsampling(x, scale=s, sample_type='nearest')"),
    ("nd.UpSampling(a, b, scale=2, sample_type='nearest', num_args=2)",
     "_mx_upsampling(a, b, scale=2, sample_type='nearest')"),
    ("nd.contrib.BilinearResize2D(x, height=h, width=w)",
     'F.interpolate(x, size=(h, w), mode="bilinear", align_corners=True)'),
    # an axis resized to 1 without aligned corners is sampled at its first pixel by MXNet
    ("nd.contrib.BilinearResize2D(x, height=1, width=8, align_corners=False)",
     "_mx_bilinear_resize(x, height=1, width=8, align_corners=False)"),
    ("nd.contrib.BilinearResize2D(x, height=h, width=8, align_corners=False)",
     "_mx_bilinear_resize(x, height=h, width=8, align_corners=False)"),
    ("nd.pad(x, mode='reflect', pad_width=(0, 0, 0, 0, 1, 2, 3, 4, 5, 6))", 'F.pad(x, (5, 6, 3, 4, 1, 2), mode="reflect")'),
    ("nd.pad(x, mode='constant', pad_width=widths, constant_value=2)",
     "_mx_pad(x, mode='constant', pad_width=widths, constant_value=2)"),
    ("nd.take(w, ids, axis=1, mode='wrap')", "_mx_take(w, ids, axis=1, mode='wrap')"),
    ("nd.gather_nd(x + 1, ids)", "(x + 1)[tuple(ids.long())]"),
    ("nd.eye(n, m)", "_mx_eye(n, M=m)"),
    ("nd.eye(3, 0, 0, ctx=mx.cpu())", "torch.eye(3, device=torch.device(\"cpu\"))"),
    ("nd.random.uniform_like(x)", "torch.rand_like(x)"),
    ("nd.random.normal_like(x, 1.0)", "torch.randn_like(x) * 1.0 + 1.0"),
])
def test_operator_translation(call, expected):
    r = convert(f"import mxnet as mx\nfrom mxnet import nd\ny = {call}\n")
    assert f"y = {expected}" in r.output, r.output
    assert not manual(r)


def test_average_full_pooling_is_flagged_for_review():
    r = convert("from mxnet import nd\ny = nd.Pooling(x, kernel=(3, 3), stride=(2, 2), pool_type='avg', "
                "pooling_convention='full')\nz = nd.Pooling(x, kernel=(3, 3), pooling_convention='full')\n")
    assert [f for f in found(r) if f[0] == "MX061"] == [("MX061", "review"), ("MX061", "fixed")]


# -- autograd.is_training() ----------------------------------------------------------------------------

def test_is_training_in_forward_reads_the_module_flag():
    r = convert("""
        from mxnet import autograd
        from mxnet.gluon import nn
        class Block(nn.Block):
            def forward(me, x):
                if autograd.is_training():
                    for _ in range(2):
                        x = x * 2
                return x
    """)
    assert "if me.training:" in r.output and "mxnet" not in r.output
    assert ("MX530", "fixed") in found(r)


@pytest.mark.parametrize("src", [
    # a plain function: no module to ask
    """
    import mxnet as mx
    def step(x):
        return x * 2 if mx.autograd.is_training() else x
    """,
    # a helper method of a block (the caller decides the mode)
    """
    from mxnet import autograd
    from mxnet.gluon import nn
    class Block(nn.Block):
        def scale(self, x):
            return x * 2 if autograd.is_training() else x
    """,
    # a function nested in the forward
    """
    from mxnet import autograd
    from mxnet.gluon import nn
    class Block(nn.HybridBlock):
        def hybrid_forward(self, F, x):
            def inner(y):
                return autograd.is_training()
            return inner(x)
    """,
    # forward of a class that is not a Gluon block
    """
    from mxnet import autograd
    class Thing:
        def forward(self, x):
            return autograd.is_training()
    """,
])
def test_is_training_elsewhere_reads_mxnets_flag(src):
    """Outside a Gluon block's own forward, MXNet's global flag itself (Note [MXNet's mode])."""
    r = convert(src)
    assert not [code for code, _ in manual(r) if code == "MX530"]
    code = r.output.split("\ndef _mx_")[0]
    assert "_mx_is_training()" in code and "autograd." not in code


# -- mx.autograd.Function ---------------------------------------------------------------------------

def test_autograd_function_subclass_gets_the_helper_base():
    r = convert("""
        from mxnet import autograd, nd
        class Clip(autograd.Function):
            def forward(self, x):
                self.save_for_backward(x)
                return nd.clip(x, 0, 1)
            def backward(self, dy):
                x, = self.saved_tensors
                return dy * (x > 0) * (x < 1)
        y = Clip()(nd.array([0.5, 2.0]))
    """)
    assert "class Clip(_mx_autograd_Function):" in r.output
    assert "class _mx_FunctionBridge(torch.autograd.Function):" in r.output  # the base's dependency comes along
    assert "mxnet" not in r.output and not manual(r)


# -- end to end: a zoo-style block whose hybrid_forward calls the operators through F ------------------

ALEX = '''
from mxnet import autograd
from mxnet.gluon import nn


class AlexConv(nn.HybridBlock):
    def __init__(self, channels, in_channels, **kwargs):
        super(AlexConv, self).__init__(**kwargs)
        with self.name_scope():
            self.weight = self.params.get('weight', shape=(channels, in_channels, 3, 3))
            self.bias = self.params.get('bias', shape=(channels,))

    def hybrid_forward(self, F, x, weight, bias):
        y = F.Convolution(x, weight, bias, kernel=(3, 3), pad=(1, 1), num_filter=8, name="conv")
        y = F.LRN(F.relu(y), alpha=1e-2, beta=0.75, knorm=2, nsize=4, name="lrn")
        y = F.Pooling(y, kernel=(3, 3), stride=(2, 2), pool_type='max', pooling_convention='full')
        if autograd.is_training():
            y = y * 0.5
        y = F.UpSampling(y, scale=2, sample_type='nearest')
        y = F.contrib.BilinearResize2D(y, height=6, width=5)
        y = F.pad(y, mode='edge', pad_width=(0, 0, 0, 0, 1, 2, 0, 1))
        return F.contrib.AdaptiveAvgPooling2D(y, output_size=2).reshape((0, -1))


class Net(nn.HybridBlock):
    def __init__(self, **kwargs):
        super(Net, self).__init__(**kwargs)
        with self.name_scope():
            self.conv = AlexConv(8, 3)

    def hybrid_forward(self, F, x):
        return F.clip(self.conv(x), -1.0, 1.0, name="clip")
'''


@pytest.mark.mxnet
def test_block_calling_operators_through_F_matches_mxnet(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("mxnet")
    from xlate.check.inputs import parse
    from xlate.check.pair import check_pair

    result = convert(ALEX)
    assert not manual(result), manual(result)
    assert "self.training" in result.output and "mxnet" not in result.output
    (tmp_path / "alex_mx.py").write_text(textwrap.dedent(ALEX))
    (tmp_path / "alex_pt.py").write_text(result.output)
    # inference (MXNet outside record, torch in eval) and training outputs and gradients
    checked = check_pair(f"{tmp_path}/alex_mx.py:Net", f"{tmp_path}/alex_pt.py:Net", [parse("x:float32[2,3,9,9]")])
    assert checked.ok, [c.mismatch.format() for c in checked.checks if not c.ok]
    assert {"inference: output", "training: output", "training: gradient of conv.weight"} <= \
        {c.what for c in checked.checks}
