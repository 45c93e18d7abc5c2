"""The contrib operators detection losses take their targets from (MX441): bipartite_matching,
box_encode, box_decode against live MXNet 1.9.1 (Note [box target operators] in
xlate/runtime/detection.py). Scores are drawn from a few values so that ties are common (MXNet breaks
them in row-major order), with thresholds between and on them, topk and both orders."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from mxsupport import import_mxnet, import_numpy, import_torch

np = import_numpy()
mx = import_mxnet()
torch = import_torch()

from xlate.convert.engine import convert_source  # noqa: E402
from xlate.runtime.detection import _mx_bipartite_matching, _mx_box_decode, _mx_box_encode  # noqa: E402

pytestmark = pytest.mark.mxnet


@st.composite
def matchings(draw):
    shape = (draw(st.integers(1, 2)), draw(st.integers(1, 5)), draw(st.integers(1, 4)))
    levels = draw(st.lists(st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.7, 0.9]), min_size=1, max_size=4))
    values = draw(st.lists(st.sampled_from(levels), min_size=int(np.prod(shape)), max_size=int(np.prod(shape))))
    kwargs = dict(threshold=draw(st.sampled_from([1e-12, 0.1, 0.3, 0.5, 0.8])),
                  is_ascend=draw(st.booleans()), topk=draw(st.sampled_from([-1, 1, 2])))
    return np.array(values, dtype="float32").reshape(shape), kwargs


@settings(max_examples=60, deadline=None)
@given(matchings())
def test_bipartite_matching_is_mxnets(case):
    scores, kwargs = case
    want = [a.asnumpy() for a in mx.nd.contrib.bipartite_matching(mx.nd.array(scores), **kwargs)]
    got = [a.numpy() for a in _mx_bipartite_matching(torch.tensor(scores), **kwargs)]
    assert all(np.array_equal(w, g) and g.dtype == np.float32 for w, g in zip(want, got)), (scores, kwargs, want, got)


def test_box_encode_and_decode_are_mxnets():
    rng = np.random.RandomState(0)
    b, n, m = 2, 6, 3
    corners = lambda k: np.concatenate([rng.uniform(0, 0.5, (b, k, 2)), rng.uniform(0.55, 1, (b, k, 2))], -1)
    anchors, refs = corners(n).astype("float32"), corners(m).astype("float32")
    samples = rng.choice([-1.0, 0.0, 1.0], (b, n)).astype("float32")
    matches = np.where(samples > 0.5, rng.randint(0, m, (b, n)), rng.randint(-1, m, (b, n))).astype("float32")
    means, stds = np.array([0.1, -0.1, 0.0, 0.2], "float32"), np.array([0.1, 0.1, 0.2, 0.2], "float32")
    args = [samples, matches, anchors, refs, means, stds]
    want = mx.nd.contrib.box_encode(*[mx.nd.array(a) for a in args])
    got = _mx_box_encode(*[torch.tensor(a) for a in args])
    for w, g in zip(want, got):
        np.testing.assert_allclose(g.numpy(), w.asnumpy(), rtol=1e-6, atol=1e-6)
    offsets = rng.normal(0, 1.5, (b, n, 4)).astype("float32")
    for fmt, anc in [("center", np.abs(anchors[:1]) + 0.1), ("corner", anchors[:1])]:
        for clip in (-1.0, 0.5):
            want = mx.nd.contrib.box_decode(mx.nd.array(offsets), mx.nd.array(anc), 0.1, 0.2, 0.3, 0.4, clip=clip,
                                            format=fmt).asnumpy()
            got = _mx_box_decode(torch.tensor(offsets), torch.tensor(anc), 0.1, 0.2, 0.3, 0.4, clip=clip,
                                 format=fmt).numpy()
            np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_a_matcher_in_hybrid_forward_converts_to_the_helper():
    src = ("from mxnet.gluon import nn\nclass M(nn.HybridBlock):\n    def hybrid_forward(self, F, x):\n"
           "        return F.contrib.bipartite_matching(x, threshold=0.1, topk=2)\n")
    result = convert_source(src)
    assert "_mx_bipartite_matching(x, threshold=0.1, topk=2)" in result.output
    assert not [d for d in result.diagnostics if d.status == "manual"]
