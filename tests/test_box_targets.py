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


# -- Faster R-CNN's proposal layer and ROI pooling (MX869, gluon-faster-rcnn) --------------------------------
PROPOSALS = """
from mxnet import nd

def propose(cls_prob, bbox_pred, im_info, features, **kw):
    rois, scores = nd.contrib.MultiProposal(cls_prob, bbox_pred, im_info, output_score=True, **kw)
    return rois, scores, nd.ROIPooling(features, rois, pooled_size=(2, 2), spatial_scale=0.25)
"""


@pytest.mark.parametrize("trial", range(6))
def test_region_proposals_and_roi_pooling_are_mxnets(trial):
    """Note [region proposals]: drawn maps, both box encodings, one and two images, boxes past the image's real
    extent and under the minimum size, padding by repetition; then ROI pooling of what came out."""
    result = convert_source(PROPOSALS)
    assert "_mx_multi_proposal(" in result.output and "_mx_roi_pooling(" in result.output
    ours, theirs = {}, {}
    exec(compile(result.output, "<converted>", "exec"), ours)
    exec(compile(PROPOSALS, "<mxnet>", "exec"), theirs)
    rng = np.random.default_rng(trial)
    ratios, scales = [((0.5, 1, 2), (2, 4)), ((1,), (8,)), ((0.5, 2), (1, 3, 5))][trial % 3]
    count, batch, height, width, stride = len(ratios) * len(scales), 1 + trial % 2, 3 + trial % 4, 4 + trial % 3, 4
    cls = rng.random((batch, 2 * count, height, width)).astype("float32")
    box = (rng.standard_normal((batch, 4 * count, height, width)) * 0.3).astype("float32")
    info = np.array([[height * stride - (trial % 2) * stride, width * stride, 1.0 + 0.5 * (trial % 2)]] * batch,
                    dtype="float32")
    features = rng.standard_normal((batch, 3, height * 2, width * 2)).astype("float32")
    kw = dict(rpn_pre_nms_top_n=[20, 6000, 7][trial % 3], rpn_post_nms_top_n=[5, 12, 9][trial % 3],
              threshold=[0.7, 0.5, 0.3][trial % 3], rpn_min_size=[4, 16, 2][trial % 3], scales=scales, ratios=ratios,
              feature_stride=stride, iou_loss=trial == 4)
    want = theirs["propose"](*(mx.nd.array(a) for a in (cls, box, info, features)), **kw)
    got = ours["propose"](*(torch.tensor(a) for a in (cls, box, info, features)), **kw)
    for w, g in zip(want, got):
        assert w.shape == tuple(g.shape)
        np.testing.assert_allclose(g.numpy(), w.asnumpy(), rtol=1e-5, atol=1e-4)
