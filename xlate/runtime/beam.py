"""gluonnlp 0.10's beam search (model.BeamSearchScorer, model.BeamSearchSampler) over torch tensors.

The converter never imports this module: it copies the text of each `_mx_*` class or function a
converted file needs (see xlate/runtime/__init__.py).

Note [gluonnlp's beam search]
gluonnlp's sampler keeps `beam_size` hypotheses per sentence. Each step the decoder gives the
log-probabilities of the next word for every beam; the scorer adds them to the beam's score under
GNMT's length penalty ((K + step)^alpha / (K + 1)^alpha, the previous step's penalty undone first);
the candidates of dead beams (one that produced eos_id) become -1e18 and each dead beam offers its
own score once more, so a finished hypothesis competes with the living ones; the top `beam_size`
of the beam_size * V + beam_size candidates survive, `-1` marks a word a finished beam did not
add. The decoder states (nested lists, tuples and dicts of arrays, their batch axis 'N' of
`decoder.state_info()`'s '__layout__', else 0) are tiled to batch * beam rows and gathered by the
chosen beams. At first only beam 0 is alive in score (the others start at -1e18), so the first
step's candidates all come from it. The helpers do each of these steps in the same order and
dtypes (float32 scores, int32 samples and lengths), so the samples, scores and lengths are
gluonnlp's; compared with gluonnlp 0.10 in tests/test_nlp_data.py.
"""
import torch


class _mx_BeamSearchScorer(torch.nn.Module):
    """gluonnlp.model.BeamSearchScorer(alpha, K, from_logits): candidate scores under GNMT's
    length penalty, (scores * lp(step - 1) + log_probs) / lp(step)."""

    def __init__(self, alpha=1.0, K=5.0, from_logits=True, **kwargs):
        super().__init__()
        self._alpha, self._K, self._from_logits = alpha, K, from_logits

    def forward(self, outputs, scores, step):
        if not self._from_logits:
            outputs = torch.log_softmax(outputs, dim=-1)
        step = step.to(scores.dtype)
        prev_lp = (self._K + step - 1) ** self._alpha / (self._K + 1) ** self._alpha
        prev_lp = prev_lp * (step != 1).to(scores.dtype) + (step == 1).to(scores.dtype)
        scores = scores * prev_lp
        lp = (self._K + step) ** self._alpha / (self._K + 1) ** self._alpha
        return (outputs + scores.unsqueeze(-1)) / lp


def _mx_beam_batch_axis(info):
    return info["__layout__"].find("N") if info else 0


def _mx_beam_expand(data, beam_size, batch_size, state_info=None):
    """gluonnlp's _expand_to_beam_size: every array of the nested states repeated beam_size times
    along its batch axis (row b becomes rows b * beam .. b * beam + beam - 1)."""
    if isinstance(data, (list, tuple)):
        infos = state_info or [None] * len(data)
        out = [_mx_beam_expand(d, beam_size, batch_size, s) for d, s in zip(data, infos)]
        return out if isinstance(data, list) else tuple(out)
    if isinstance(data, dict):
        infos = state_info or {k: None for k in data}
        return {k: _mx_beam_expand(v, beam_size, batch_size, infos[k]) for k, v in data.items()}
    if isinstance(data, torch.Tensor):
        axis = _mx_beam_batch_axis(state_info)
        if data.shape[axis] != batch_size:
            raise ValueError(f"The batch dimension of all the inner elements in states must be {batch_size}, "
                             f"Found shape={tuple(data.shape)}")
        return data.repeat_interleave(beam_size, dim=axis)
    if data is None:
        return None
    raise NotImplementedError


def _mx_beam_choose(states, state_info, indices):
    """gluonnlp's _choose_states: the rows `indices` of every array, along its batch axis."""
    if isinstance(states, (list, tuple)):
        infos = state_info or [None] * len(states)
        out = [_mx_beam_choose(d, s, indices) for d, s in zip(states, infos)]
        return out if isinstance(states, list) else tuple(out)
    if isinstance(states, dict):
        infos = state_info or {k: None for k in states}
        return {k: _mx_beam_choose(v, infos[k], indices) for k, v in states.items()}
    if isinstance(states, torch.Tensor):
        return states.index_select(_mx_beam_batch_axis(state_info), indices.long())
    raise NotImplementedError


def _mx_beam_step(scorer, beam_size, eos_id, state_info, samples, valid_length, outputs, scores, step,
                  beam_alive_mask, states, vocab_size, batch_shift):
    """gluonnlp's _BeamSearchStepUpdate: one step of the beams (Note [gluonnlp's beam search])."""
    alive = beam_alive_mask.unsqueeze(2).to(torch.float32)
    candidates = scorer(outputs.reshape(-1, beam_size, outputs.shape[-1]), scores, step)
    candidates = alive * candidates + (1 - alive) * (torch.ones_like(candidates) * -1e18)
    finished = torch.where(beam_alive_mask.bool(), torch.ones_like(scores) * -1e18, scores)
    candidates = torch.cat([candidates.reshape(candidates.shape[0], -1), finished], dim=1)
    new_scores, indices = torch.topk(candidates, k=beam_size, dim=1)
    indices = indices.to(torch.int32)
    use_prev = (indices >= beam_size * vocab_size).to(torch.int32)
    word_ids = torch.remainder(indices, vocab_size)
    beam_ids = torch.where(use_prev.bool(), indices - beam_size * vocab_size, torch.div(indices, vocab_size,
                                                                                        rounding_mode="floor"))
    rows = (beam_ids + batch_shift.unsqueeze(1)).reshape(-1)
    word_ids = torch.where(use_prev.bool(), -torch.ones_like(indices), word_ids)
    chosen = samples.reshape(-1, samples.shape[-1]).index_select(0, rows.long())
    new_samples = torch.cat([chosen, word_ids.reshape(-1, 1)], dim=1).reshape(-1, beam_size, chosen.shape[1] + 1)
    new_valid_length = valid_length.reshape(-1).index_select(0, rows.long()).reshape(-1, beam_size) + 1 - use_prev
    new_states = _mx_beam_choose(states, state_info, rows)
    beam_alive_mask = beam_alive_mask.reshape(-1).index_select(0, rows.long()).reshape(-1, beam_size) \
        * (word_ids != eos_id).to(beam_alive_mask.dtype)
    return new_samples, new_valid_length, new_scores, word_ids, beam_alive_mask, new_states


class _mx_BeamSearchSampler:
    """gluonnlp.model.BeamSearchSampler(beam_size, decoder, eos_id, scorer, max_length): calling it
    with the first inputs (batch,) and the decoder states gives samples (batch, beam, length)
    int32, their scores (batch, beam) float32, best first, and valid lengths (batch, beam) int32.
    `decoder(step_input, states)` returns (log_probs (batch * beam, V), new states)."""

    def __init__(self, beam_size, decoder, eos_id, scorer=None, max_length=100):
        if not beam_size > 0:
            raise AssertionError(f"beam_size must be larger than 0. Received beam_size={beam_size}")
        if not eos_id >= 0:
            raise AssertionError(f"eos_id cannot be negative! Received eos_id={eos_id}")
        self._beam_size, self._decoder, self._eos_id, self._max_length = beam_size, decoder, eos_id, max_length
        self._scorer = scorer if scorer is not None else _mx_BeamSearchScorer(alpha=1.0, K=5)
        self._state_info = decoder.state_info() if hasattr(decoder, "state_info") else None

    def __call__(self, inputs, states):
        batch_size, beam_size, device = inputs.shape[0], self._beam_size, inputs.device
        state_info = self._decoder.state_info(batch_size) if hasattr(self._decoder, "state_info") else None
        states = _mx_beam_expand(states, beam_size, batch_size, state_info)
        step_input = _mx_beam_expand(inputs, beam_size, batch_size).to(torch.int32)
        beam_alive_mask = torch.ones((batch_size, beam_size), dtype=torch.int32, device=device)
        valid_length = torch.ones((batch_size, beam_size), dtype=torch.int32, device=device)
        scores = torch.zeros((batch_size, beam_size), dtype=torch.float32, device=device)
        if beam_size > 1:
            scores[:, 1:beam_size] = -1e18
        samples = step_input.reshape(batch_size, beam_size, 1)
        batch_shift = torch.arange(0, batch_size * beam_size, beam_size, dtype=torch.int32, device=device)
        for i in range(self._max_length):
            log_probs, new_states = self._decoder(step_input, states)
            step = torch.tensor([i + 1], dtype=torch.float32, device=device)
            samples, valid_length, scores, word_ids, beam_alive_mask, states = _mx_beam_step(
                self._scorer, beam_size, self._eos_id, self._state_info, samples, valid_length, log_probs, scores,
                step, beam_alive_mask, new_states, log_probs.shape[1], batch_shift)
            step_input = torch.relu(word_ids).reshape(-1)
            if int(beam_alive_mask.sum()) == 0:
                return samples, scores, valid_length
        final_word = torch.where(beam_alive_mask.bool(), torch.full_like(beam_alive_mask, self._eos_id),
                                 torch.full_like(beam_alive_mask, -1))
        samples = torch.cat([samples, final_word.reshape(batch_size, beam_size, 1)], dim=2)
        return samples, scores, valid_length + beam_alive_mask
