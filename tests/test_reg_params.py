"""What a hybrid_forward receives besides its inputs (Note [parameters in **kwargs] in
xlate/convert/transforms/forward_params.py): Gluon 1.x passes every parameter and constant the
block holds as an attribute, by the attribute's name. Each block is converted, built on both
sides with the same random weights (copied by attribute name, which is also what
save_parameters writes), and run on the same random input."""
import numpy as onp
import pytest

from mxsupport import import_mxnet, import_torch

mx = import_mxnet()
torch = import_torch()

from xlate.convert.engine import convert_source  # noqa: E402

pytestmark = pytest.mark.mxnet

HEAD = "import mxnet as mx\nfrom mxnet import gluon\n"
BLOCKS = {
    # a parameter named otherwise than the attribute that holds it: hybrid_forward gets the attribute's name
    "attribute name": """
class B(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.transitions = self.params.get('crf_transition_matrix', shape=(4,))
    def hybrid_forward(self, F, x, transitions):
        return F.broadcast_mul(x, transitions)
""",
    # parameters set with setattr under computed names, read from **kwargs by computed keys
    "setattr, computed keys": """
class B(gluon.HybridBlock):
    def __init__(self, n=2, **kwargs):
        super().__init__(**kwargs)
        self.n = n
        with self.name_scope():
            self.embed_weight = self.params.get('weight', shape=(4,))
            for i in range(n):
                setattr(self, 'factor%d_weight' % i, self.params.get('factor%d_weight' % i, shape=(4,)))
    def hybrid_forward(self, F, x, embed_weight, **kwargs):
        out = F.broadcast_mul(x, embed_weight)
        for i in range(self.n):
            out = out + F.broadcast_mul(x, kwargs['factor%d_weight' % i]) * (i + 2)
        return out
""",
    # **kwargs handed on whole to a helper that names the parameters
    "handed on": """
class B(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.gamma = self.params.get('gamma', shape=(4,))
            self.beta = self.params.get('b', shape=(4,))
    def hybrid_forward(self, F, x, **kwargs):
        return self.scale(F, x, **kwargs)
    def scale(self, F, x, gamma, beta):
        return F.broadcast_add(F.broadcast_mul(x, gamma), beta)
""",
    # a loop over what arrives: every parameter, none named in the signature
    "iterated": """
class B(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.a = self.params.get('a', shape=(4,))
            self.c = self.params.get('c', shape=(4,))
    def hybrid_forward(self, F, x, **params):
        for name in sorted(params):
            x = F.broadcast_mul(x, params[name]) + 1
        return x
""",
    # a parameter kept in a local and handed to two children, which share it (sockeye's tied embeddings)
    "shared through children": """
class Child(gluon.HybridBlock):
    def __init__(self, weight=None, **kwargs):
        super().__init__(**kwargs)
        if weight is None:
            self.weight = self.params.get('weight', shape=(4,))
        else:
            self.weight = weight
    def hybrid_forward(self, F, x, weight):
        return F.broadcast_mul(x, weight)
class B(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            shared = self.params.get('shared_' + 'weight', shape=(4,))
            self.a, self.b = Child(shared), Child(shared)
    def hybrid_forward(self, F, x):
        return self.a(x) + 2 * self.b(x)
""",
    # made by a helper handed the block's ParameterDict, float64 (autogluon's GP kernels: register_parameter)
    "made by a helper": """
import numpy as np
def register(params, name, shape=(1,), dtype=np.float64):
    return params.get(name + '_internal', shape=shape, init=mx.init.Constant(0.5), dtype=dtype)
class B(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.scale_internal = register(self.params, 'scale', shape=(4,), dtype='float32')
    def hybrid_forward(self, F, x, scale_internal):
        return F.broadcast_mul(x, F.exp(scale_internal))
""",
    # registered on a line of its own, looked up by name where it is used
    "registered, looked up": """
class B(gluon.Block):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.params.get('scale', shape=(4,))
    def forward(self, x):
        return x * self.params.get('scale').data()
""",
}


@pytest.mark.parametrize("name", sorted(BLOCKS))
def test_hybrid_forward_receives_what_gluon_passes(name):
    source = HEAD + BLOCKS[name]
    result = convert_source(source)
    assert "mxnet" not in result.output, result.output
    assert not [d for d in result.diagnostics if d.status == "manual"], result.diagnostics
    mx_ns, pt_ns = {}, {}
    exec(compile(source, "<mxnet>", "exec"), mx_ns)
    exec(compile(result.output, "<converted>", "exec"), pt_ns)
    net, pt = mx_ns["B"](prefix="b_"), pt_ns["B"]()
    net.initialize(mx.init.Normal(1.0))
    rng = onp.random.default_rng(3)
    x = rng.normal(size=(2, 4)).astype("float32")
    net(mx.nd.array(x))
    torch_state = dict(pt.named_parameters(remove_duplicate=False))
    gluon_state = net._collect_params_with_prefix()  # save_parameters' names: attribute paths
    held = {id(p) for p in gluon_state.values()}
    for full, param in net.collect_params().items():  # one no attribute holds: by its own name
        if id(param) not in held:
            gluon_state[full[len(net.prefix):]] = param
    assert sorted(gluon_state) == sorted(torch_state)
    for path, param in gluon_state.items():
        value = param.data().asnumpy()
        assert abs(value).min() > 0
        with torch.no_grad():
            torch_state[path].copy_(torch.as_tensor(value))
    expected = net(mx.nd.array(x)).asnumpy()
    onp.testing.assert_allclose(pt(torch.as_tensor(x)).detach().numpy(), expected, rtol=1e-6, atol=1e-6)


def test_sparse_gradient_storage_is_a_review_not_a_manual_item():
    """`grad_stype='row_sparse'` stores the gradient sparsely (same values); what differs is the
    optimizers' lazy update, which the review says. `stype=` (the weight stored sparse) is left."""
    source = HEAD + """
class E(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.w = self.params.get('weight', shape=(7, 3), grad_stype='row_sparse')
        self.s = self.params.get('s', shape=(7, 3), stype='row_sparse')
    def hybrid_forward(self, F, x, w, s):
        return F.Embedding(x, w, input_dim=7, output_dim=3, sparse_grad=True)
"""
    items = {(d.line, d.status): d.message for d in convert_source(source).diagnostics if d.code == "MX105"}
    assert "lazy_update" in items[(7, "review")]
    assert "stype=" in items[(8, "manual")]


def test_a_params_dict_of_a_class_of_its_own_is_no_gluon_parameter_dict():
    """A Block's `params` is a read-only property: a class that assigns `self.params` holds a dict."""
    source = HEAD + """
class OptimizerConfig:
    def __init__(self, params):
        self.params = params
    def lr_scheduler(self):
        return self.params.get("lr_scheduler", None)
"""
    result = convert_source(source)
    assert 'return self.params.get("lr_scheduler", None)' in result.output
    assert not [d for d in result.diagnostics if d.code == "MX105"]
