"""A subclass of a Gluon cell that reads the cell's step counter (`self._counter`, which Gluon's
`__call__` increments and `reset()` / `unroll` set back: gluonnlp's LSTMPCellWithClip names its
per-step operators by it): converted, it counts the same steps and gives MXNet's numbers."""
from __future__ import annotations

import pytest

from test_execution_model import COMMON, _same_numbers

pytestmark = pytest.mark.mxnet

COUNTED = COMMON + '''
from mxnet.gluon import rnn


class Counted(rnn.LSTMCell):
    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        out, next_states = super().hybrid_forward(F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias)
        return out * (self._counter + 2), next_states


cell = Counted(5, input_size=3)
cell.initialize()
set_weights(cell)
x = nd.array(det((2, 4, 3)) + 0.25)
outs.append(cell._counter)
out, states = cell.unroll(4, x, layout='NTC', merge_outputs=True)
outs.append(out.asnumpy())
outs.append(cell._counter)
step, _ = cell(x[:, 0, :], states)
outs.append(step.asnumpy())
outs.append(cell._counter)
cell.reset()
outs.append(cell._counter)
'''


def test_a_cell_reading_its_step_counter():
    converted = _same_numbers(COUNTED)
    assert "class Counted(_mx_LSTMCell):" in converted
