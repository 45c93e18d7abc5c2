"""The order of batches (Note [random streams] in xlate/runtime/data.py): Gluon's shuffling
samplers draw from numpy's global generator, and so do the helpers, so a script that seeds
numpy visits MXNet's batches in MXNet's order. Compared with live MXNet 1.9.1 over drawn
lengths, batch sizes, last_batch modes and seeds, over several epochs (rollover carries
samples between them), and through a converted script."""
from __future__ import annotations

import gc

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch

np = import_numpy()
mx = import_mxnet()
torch = import_torch()
pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from xlate import runtime  # noqa: E402
from xlate.convert.engine import convert_source  # noqa: E402

pytestmark = pytest.mark.mxnet


@pytest.fixture(autouse=True)
def _heap_out_of_the_collectors_sight():
    """Gluon's DataLoader runs `gc.collect()` each time one is made; in a suite worker's heap of
    some 600,000 objects that took 4.8 s of these tests' 5 s. What is alive before the test is
    frozen during it (gc.freeze), and given back after; nothing here searches the heap."""
    gc.freeze()
    yield
    gc.unfreeze()


PROFILE = dict(derandomize=True, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
rt = runtime.load()
EPOCHS = 3


def _mx_epochs(loader):
    return [[b[0].asnumpy().astype(int).tolist() for b in loader] for _ in range(EPOCHS)]


def _pt_epochs(loader):
    return [[b[0].numpy().astype(int).tolist() for b in loader] for _ in range(EPOCHS)]


def _datasets(length):
    """The same rows on both sides, each row's value its index, and a label field."""
    rows = np.arange(length, dtype="float32")
    labels = rows * 2 + 1
    return (mx.gluon.data.ArrayDataset(mx.nd.array(rows), mx.nd.array(labels)),
            rt._mx_ArrayDataset(torch.tensor(rows), torch.tensor(labels)))


@settings(max_examples=15, **PROFILE)
@given(st.integers(1, 40), st.integers(1, 12), st.sampled_from(["keep", "discard", "rollover"]), st.booleans(),
       st.integers(0, 2 ** 31 - 1))
def test_loader_visits_mxnets_batches_in_mxnets_order(length, batch_size, last_batch, shuffle, seed):
    mx_data, pt_data = _datasets(length)
    mx_loader = mx.gluon.data.DataLoader(mx_data, batch_size=batch_size, shuffle=shuffle, last_batch=last_batch)
    pt_loader = rt._mx_DataLoader(pt_data, batch_size=batch_size, shuffle=shuffle, last_batch=last_batch)
    np.random.seed(seed)
    theirs = _mx_epochs(mx_loader)
    np.random.seed(seed)
    ours = _pt_epochs(pt_loader)
    assert ours == theirs


@settings(max_examples=8, **PROFILE)
@given(st.integers(1, 30), st.integers(1, 8), st.sampled_from(["keep", "discard", "rollover"]),
       st.integers(0, 2 ** 31 - 1))
def test_samplers_used_directly_give_mxnets_indices(length, batch_size, last_batch, seed):
    g = mx.gluon.data
    theirs_batches = g.BatchSampler(g.RandomSampler(length), batch_size, last_batch)
    ours_batches = rt._mx_BatchSampler(rt._mx_RandomSampler(length), batch_size, last_batch)
    np.random.seed(seed)
    theirs = [[[int(i) for i in b] for b in theirs_batches] for _ in range(EPOCHS)]
    theirs_len = len(theirs_batches)
    np.random.seed(seed)
    ours = [list(ours_batches) for _ in range(EPOCHS)]
    assert ours == theirs and len(ours_batches) == theirs_len
    # a sampler handed to the loader, and a batch sampler handed to it, draw the same way
    mx_data, pt_data = _datasets(length)
    np.random.seed(seed)
    theirs = _mx_epochs(g.DataLoader(mx_data, batch_size=batch_size, sampler=g.RandomSampler(length),
                                     last_batch=last_batch))
    np.random.seed(seed)
    assert _pt_epochs(rt._mx_DataLoader(pt_data, batch_size=batch_size, sampler=rt._mx_RandomSampler(length),
                                        last_batch=last_batch)) == theirs
    np.random.seed(seed)
    theirs = _mx_epochs(g.DataLoader(mx_data, batch_sampler=g.BatchSampler(g.RandomSampler(length), batch_size,
                                                                          last_batch)))
    np.random.seed(seed)
    assert _pt_epochs(rt._mx_DataLoader(pt_data, batch_sampler=rt._mx_BatchSampler(
        rt._mx_RandomSampler(length), batch_size, last_batch))) == theirs


def test_worker_processes_keep_the_order():
    """The batch sampler runs in the main process in both frameworks: torch's workers only
    fetch, so the order is the numpy-seeded one with num_workers=2 as with none."""
    mx_data, pt_data = _datasets(23)
    np.random.seed(5)
    theirs = _mx_epochs(mx.gluon.data.DataLoader(mx_data, batch_size=4, shuffle=True, last_batch="rollover"))
    np.random.seed(5)
    ours = _pt_epochs(rt._mx_DataLoader(pt_data, batch_size=4, shuffle=True, last_batch="rollover", num_workers=2))
    assert ours == theirs


SCRIPT = '''
import numpy as np
import mxnet as mx
from mxnet import gluon, nd

def order(seed):
    np.random.seed(seed)
    mx.random.seed(seed)
    data = gluon.data.ArrayDataset(nd.arange(13), nd.arange(13) * 2)
    loader = gluon.data.DataLoader(data, batch_size=5, shuffle=True, last_batch='rollover')
    return [[int(v) for v in x.asnumpy()] for _ in range(2) for x, y in loader]
'''


def test_converted_script_with_seeds_visits_mxnets_order():
    result = convert_source(SCRIPT)
    assert "np.random.seed(seed)" in result.output and "torch.manual_seed(seed)" in result.output
    assert not [d for d in result.diagnostics if d.status == "manual"], result.diagnostics
    theirs, ours = {}, dict(vars(rt))
    exec(compile(SCRIPT, "<mxnet>", "exec"), theirs)
    exec(compile(result.output, "<converted>", "exec"), ours)
    orders = []
    for seed in (0, 1, 12345):
        expected = theirs["order"](seed)
        assert ours["order"](seed) == expected
        orders.append(expected)
    assert len({str(o) for o in orders}) == 3  # the seed decides the order: a shuffle was compared
