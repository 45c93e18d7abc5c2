"""MXNet's automatic mixed precision (`mxnet.contrib.amp`) on torch.

Copied as text into converted programs (xlate/runtime/__init__.py): torch and other `_mx_*`
helpers only (logging imported where it is used).

Note [MXNet's AMP]
`amp.init(target_dtype)` makes MXNet run the operators of its float16 list in float16 (bfloat16:
oneDNN's on CPU) from then on, in the whole process; float16 AMP runs on GPUs only (MXNet
1.9.1's CPU FullyConnected raises on float16). torch's counterpart is autocast, switched on for
the process as MXNet's is, with its cache of cast weights off: the cast copies would outlive the
optimizer's updates of the weights they were cast from. torch's operator lists are not MXNet's,
so the low-precision numbers differ as two float16 runs do (review). Loss scaling is exact:
`amp.init_trainer(trainer)` gives the Trainer MXNet's dynamic loss scaler (2**16 at first, halved
after a step whose gradients hold an inf or a NaN, doubled after 2,000 clean steps, at most
2**24; the first Trainer takes the one amp.init made), `amp.scale_loss(loss, trainer)` yields
the loss times the scale and sets the Trainer's gradient scale to 1 / scale, and the Trainer's
step then skips the update when the gradients overflowed, as Gluon's does. `amp.unscale(trainer)`
divides the gradients by the scale in place (before clipping them) and sets the scale back to 1.
"""
import torch


class _mx_LossScaler:
    """MXNet AMP's dynamic loss scaler (Note [MXNet's AMP])."""

    def __init__(self):
        self._loss_scale = 2.0 ** 16
        self._next_loss_scale = self._loss_scale
        self._max_loss_scale = 2.0 ** 24
        self._scale_seq_len = 2000
        self._unskipped = 0

    @property
    def loss_scale(self):
        return self._loss_scale

    def has_overflow(self, params):
        """Whether a gradient holds an inf or a NaN; the scale for the next step follows."""
        import logging

        with torch.no_grad():
            overflow = not all(bool(torch.isfinite(p.grad).all()) for p in params if p.grad is not None)
        self._loss_scale = self._next_loss_scale
        if overflow:
            self._next_loss_scale = self._loss_scale / 2.0
            self._unskipped = 0
            logging.info("AMP: decreasing loss scale to %f", self._next_loss_scale)
        else:
            self._unskipped += 1
        if self._unskipped == self._scale_seq_len:
            self._unskipped = 0
            self._next_loss_scale = min(self._max_loss_scale, self._loss_scale * 2.0)
            logging.info("AMP: increasing loss scale to %f", self._next_loss_scale)
        return overflow


class _mx_amp_state:
    """What `amp.init` set up for the process: the loss scaler the first Trainer takes."""
    initialized = False
    scaler = None
    scaler_taken = False


def _mx_amp_init(target_dtype="float16", target_precision_ops=None, conditional_fp32_ops=None, fp32_ops=None):
    """`amp.init(target_dtype)`: autocast for the whole process (Note [MXNet's AMP]); a second
    call does nothing, as MXNet's."""
    import logging

    if _mx_amp_state.initialized:
        return
    names = {"float16": torch.float16, "bfloat16": torch.bfloat16}
    dtype = names.get(str(target_dtype).rsplit(".", 1)[-1].strip("'>"), None)
    if dtype is None:
        raise AssertionError("AMP currently supports only float16 or bfloat16 as a target_dtype")
    _mx_amp_state.initialized, _mx_amp_state.scaler = True, _mx_LossScaler()
    logging.info("Using AMP")
    torch.set_autocast_cache_enabled(False)
    for device in ("cuda", "cpu") if dtype is torch.bfloat16 else ("cuda",):
        torch.set_autocast_dtype(device, dtype)
        torch.set_autocast_enabled(device, True)


def _mx_amp_init_trainer(trainer):
    """`amp.init_trainer(trainer)`: the Trainer scales its gradients by the loss scaler's scale."""
    if not _mx_amp_state.initialized:
        raise AssertionError("AMP not initialized, did you forget to call amp.init()?")
    if not _mx_amp_state.scaler_taken:
        _mx_amp_state.scaler_taken = True
        scaler = _mx_amp_state.scaler
    else:
        scaler = _mx_LossScaler()
    if not isinstance(trainer, _mx_Trainer):
        raise TypeError("AMP is currently only compatible with Gluon Trainer")
    trainer._amp_loss_scaler = scaler
    trainer._amp_original_scale = trainer._scale


class _mx_amp_scale_loss:
    """`with amp.scale_loss(loss, trainer) as scaled:` the loss (or each of a list) times the scale."""

    def __init__(self, loss, trainer):
        scaler = getattr(trainer, "_amp_loss_scaler", None)
        if scaler is None:
            raise AssertionError("Loss scaler is not initialized, did you forget to call amp.init_trainer()?")
        self.loss, self.trainer, self.scaler = loss, trainer, scaler

    def __enter__(self):
        self.trainer._scale = self.trainer._amp_original_scale / self.scaler.loss_scale
        if isinstance(self.loss, (list, tuple)):
            return [part * self.scaler.loss_scale for part in self.loss]
        return self.scaler.loss_scale * self.loss

    def __exit__(self, *exc):
        return False


def _mx_amp_unscale(trainer):
    """`amp.unscale(trainer)`: the gradients times the Trainer's scale, which becomes 1."""
    if not isinstance(trainer, _mx_Trainer):
        raise TypeError("AMP is currently only compatible with Gluon Trainer")
    with torch.no_grad():
        for param in trainer._params:
            if param.grad is not None:
                param.grad.mul_(trainer._scale)
    trainer._scale = 1.0
