"""Gluon's losses as torch modules that take Gluon's arguments and return MXNet's numbers.

Copied as text into converted programs (xlate/runtime/__init__.py): torch and other `_mx_*`
helpers only. tests/test_numeric_losses.py compares every loss with MXNet 1.9.1.

Note [Gluon losses]
A Gluon loss returns one value per sample, shape (N,): the elementwise loss is multiplied by
`sample_weight` (broadcast) and the scalar `weight`, then averaged over every axis but
`batch_axis` (KLDivLoss sums; CosineEmbeddingLoss returns (N, 1) and PoissonNLLLoss the mean
over everything, shape (1,), as in MXNet). `backward()` of that vector is the backward of its
sum, and `trainer.step(batch_size)` divides by the batch size: torch's `reduction='mean'`
losses would already have divided (layers.md 8.2: 0.69 apart after 3 steps). The label is
reshaped to the prediction's shape first, so an (N,) label against an (N, 1) prediction does
not broadcast to (N, N) as `F.mse_loss` does (1.08 apart). Class ids may be float32 (MXNet's
default dtype): they are truncated to int64 and clipped into range, as MXNet's `pick` does.
L2Loss is half the squared error; HuberLoss(rho) is SmoothL1 with beta=rho (torch's HuberLoss
is rho times that); SoftmaxCrossEntropyLoss takes the class axis `axis` (default -1; torch's
is 1) and with from_logits=True reads its input as log-probabilities. Each helper keeps
Gluon's constructor and attribute names (`_weight`, `_batch_axis`, `_axis`, ...) so a user
subclass of `gluon.loss.Loss` written against them runs unchanged.
"""
import torch


def _mx_apply_weighting(loss, weight=None, sample_weight=None):
    """Gluon's `loss._apply_weighting(F, loss, weight, sample_weight)`: times the per-sample
    weight (broadcast) and the scalar weight."""
    if sample_weight is not None:
        loss = loss * sample_weight
    if weight is not None:
        loss = loss * weight
    return loss


def _mx_batch_mean(loss, batch_axis=0):
    """Mean over every axis but batch_axis (MXNet's mean(axis=batch_axis, exclude=True))."""
    axes = [d for d in range(loss.dim()) if d != batch_axis % max(loss.dim(), 1)]
    return loss.mean(dim=axes) if axes else loss


def _mx_batch_sum(loss, batch_axis=0):
    axes = [d for d in range(loss.dim()) if d != batch_axis % max(loss.dim(), 1)]
    return loss.sum(dim=axes) if axes else loss


class _mx_Loss(torch.nn.Module):
    """Gluon's `Loss` base class (Note [Gluon losses]): `_weight` and `_batch_axis`."""

    def __init__(self, weight=None, batch_axis=0, prefix=None, params=None):
        super().__init__()
        self._weight = weight
        self._batch_axis = batch_axis

    def __repr__(self):
        return f"{self.__class__.__name__}(batch_axis={self._batch_axis}, w={self._weight})"

    def hybridize(self, *args, **kwargs):
        return None


class _mx_L2Loss(_mx_Loss):
    """Gluon L2Loss: weight / 2 * (label - pred)^2, averaged per sample (MSELoss without the 1/2)."""

    def __init__(self, weight=1.0, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)

    def forward(self, pred, label, sample_weight=None):
        label = label.reshape(pred.shape)
        loss = torch.square(label - pred)
        loss = _mx_apply_weighting(loss, self._weight / 2, sample_weight)
        return _mx_batch_mean(loss, self._batch_axis)


class _mx_L1Loss(_mx_Loss):
    """Gluon L1Loss: |label - pred| averaged per sample."""

    def __init__(self, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)

    def forward(self, pred, label, sample_weight=None):
        label = label.reshape(pred.shape)
        loss = torch.abs(label - pred)
        loss = _mx_apply_weighting(loss, self._weight, sample_weight)
        return _mx_batch_mean(loss, self._batch_axis)


class _mx_SigmoidBinaryCrossEntropyLoss(_mx_Loss):
    """Gluon SigmoidBinaryCrossEntropyLoss (SigmoidBCELoss), MXNet's stable formula on logits;
    from_sigmoid=True takes probabilities and adds 1e-12 inside the logs (torch clamps log at
    -100: 40.8 apart at p = 0 or 1)."""

    def __init__(self, from_sigmoid=False, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._from_sigmoid = from_sigmoid

    def forward(self, pred, label, sample_weight=None, pos_weight=None):
        label = label.reshape(pred.shape)
        softrelu = torch.nn.functional.softplus
        if not self._from_sigmoid:
            if pos_weight is None:
                loss = torch.relu(pred) - pred * label + softrelu(-torch.abs(pred))
            else:
                log_weight = 1 + (pos_weight - 1) * label
                loss = pred - pred * label + log_weight * (softrelu(-torch.abs(pred)) + torch.relu(-pred))
        else:
            eps = 1e-12
            if pos_weight is None:
                loss = -(torch.log(pred + eps) * label + torch.log(1.0 - pred + eps) * (1.0 - label))
            else:
                loss = -(torch.log(pred + eps) * label * pos_weight + torch.log(1.0 - pred + eps) * (1.0 - label))
        loss = _mx_apply_weighting(loss, self._weight, sample_weight)
        return _mx_batch_mean(loss, self._batch_axis)


class _mx_SoftmaxCrossEntropyLoss(_mx_Loss):
    """Gluon SoftmaxCrossEntropyLoss (SoftmaxCELoss): log_softmax over `axis` (default -1),
    then minus the label's entry (sparse_label, class ids of any dtype) or minus the sum
    against a distribution; from_logits=True takes log-probabilities."""

    def __init__(self, axis=-1, sparse_label=True, from_logits=False, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._axis = axis
        self._sparse_label = sparse_label
        self._from_logits = from_logits

    def forward(self, pred, label, sample_weight=None):
        if not self._from_logits:
            pred = torch.log_softmax(pred, self._axis)
        if self._sparse_label:
            if label.dim() == pred.dim():  # ids with the class axis kept, (N, 1) for (N, C)
                label = label.squeeze(self._axis)
            loss = -_mx_pick(pred, label, axis=self._axis, keepdims=True)
        else:
            label = label.reshape(pred.shape)
            loss = -(pred * label).sum(dim=self._axis, keepdim=True)
        loss = _mx_apply_weighting(loss, self._weight, sample_weight)
        return _mx_batch_mean(loss, self._batch_axis)


class _mx_KLDivLoss(_mx_Loss):
    """Gluon KLDivLoss: label * (log(label + 1e-12) - pred), SUMMED per sample (torch's
    'mean' divides by every element: 0.61 apart); from_logits=False applies log_softmax first."""

    def __init__(self, from_logits=True, axis=-1, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._from_logits = from_logits
        self._axis = axis

    def forward(self, pred, label, sample_weight=None):
        if not self._from_logits:
            pred = torch.log_softmax(pred, self._axis)
        loss = label * (torch.log(label + 1e-12) - pred)
        loss = _mx_apply_weighting(loss, self._weight, sample_weight)
        return _mx_batch_sum(loss, self._batch_axis)


class _mx_CTCLoss(_mx_Loss):
    """Gluon CTCLoss: unnormalised activations (layout 'NTC' or 'TNC'), the blank is the LAST
    class, labels padded with -1 (or cut by label_lengths); torch's ctc_loss per sample."""

    def __init__(self, layout="NTC", label_layout="NT", weight=None, **kwargs):
        if layout not in ("NTC", "TNC"):
            raise AssertionError(f"Only 'NTC' and 'TNC' layouts for pred are supported. Got: {layout}")
        if label_layout not in ("NT", "TN"):
            raise AssertionError(f"Only 'NT' and 'TN' layouts for label are supported. Got: {label_layout}")
        self._layout = layout
        self._label_layout = label_layout
        super().__init__(weight, label_layout.find("N"), **kwargs)

    def forward(self, pred, label, pred_lengths=None, label_lengths=None, sample_weight=None):
        if self._layout == "NTC":
            pred = pred.transpose(0, 1)
        if self._batch_axis == 1:
            label = label.transpose(0, 1)
        steps, batch, classes = pred.shape
        log_probs = torch.log_softmax(pred, -1)
        labels = label.to(torch.int64)
        if label_lengths is None:
            label_lengths = (labels >= 0).sum(1)  # MXNet pads with -1 (blank='last')
        else:
            label_lengths = label_lengths.to(torch.int64)
        if pred_lengths is None:
            pred_lengths = torch.full((batch,), steps, dtype=torch.int64, device=pred.device)
        else:
            pred_lengths = pred_lengths.to(torch.int64)
        loss = torch.nn.functional.ctc_loss(log_probs, labels.clamp(min=0), pred_lengths, label_lengths,
                                            blank=classes - 1, reduction="none", zero_infinity=False)
        return _mx_apply_weighting(loss, self._weight, sample_weight)


def _mx_ctc_loss(data=None, label=None, data_lengths=None, label_lengths=None, use_data_lengths=False,
                 use_label_lengths=False, blank_label="first", out=None, name=None):
    """MXNet's CTC operator (nd.ctc_loss, nd.CTCLoss, their contrib names): `data` (T, N, C) unnormalised,
    the blank class 0 ('first': labels 1..C-1 padded with 0) or C-1 ('last': labels padded with -1); a
    label ends at its first padding value unless `label_lengths` are used; one loss per sample."""
    _mx_no_out(out)
    steps, batch, classes = data.shape
    labels = label.to(torch.int64)
    first = blank_label == "first"
    if use_label_lengths:
        lengths = label_lengths.to(torch.int64)
    else:
        is_pad = labels == (0 if first else -1)
        lengths = torch.where(is_pad.any(1), is_pad.to(torch.int64).argmax(1), labels.shape[1])
    if use_data_lengths:
        steps_used = data_lengths.to(torch.int64)
    else:
        steps_used = torch.full((batch,), steps, dtype=torch.int64, device=data.device)
    return torch.nn.functional.ctc_loss(torch.log_softmax(data, -1), labels.clamp(min=0), steps_used, lengths,
                                        blank=0 if first else classes - 1, reduction="none", zero_infinity=False)


class _mx_HuberLoss(_mx_Loss):
    """Gluon HuberLoss(rho): |d| - rho/2 beyond rho, d^2 / (2 rho) within: torch's SmoothL1Loss
    with beta=rho (torch's HuberLoss(delta) is rho times it: 2.7 apart at rho=2)."""

    def __init__(self, rho=1, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._rho = rho

    def forward(self, pred, label, sample_weight=None):
        label = label.reshape(pred.shape)
        loss = torch.abs(label - pred)
        loss = torch.where(loss > self._rho, loss - 0.5 * self._rho, (0.5 / self._rho) * torch.square(loss))
        loss = _mx_apply_weighting(loss, self._weight, sample_weight)
        return _mx_batch_mean(loss, self._batch_axis)


class _mx_HingeLoss(_mx_Loss):
    """Gluon HingeLoss: relu(margin - pred * label), labels -1 / 1."""

    def __init__(self, margin=1, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    def forward(self, pred, label, sample_weight=None):
        label = label.reshape(pred.shape)
        loss = torch.relu(self._margin - pred * label)
        loss = _mx_apply_weighting(loss, self._weight, sample_weight)
        return _mx_batch_mean(loss, self._batch_axis)


class _mx_SquaredHingeLoss(_mx_Loss):
    """Gluon SquaredHingeLoss: relu(margin - pred * label)^2."""

    def __init__(self, margin=1, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    def forward(self, pred, label, sample_weight=None):
        label = label.reshape(pred.shape)
        loss = torch.square(torch.relu(self._margin - pred * label))
        loss = _mx_apply_weighting(loss, self._weight, sample_weight)
        return _mx_batch_mean(loss, self._batch_axis)


class _mx_LogisticLoss(_mx_Loss):
    """Gluon LogisticLoss: log(1 + exp(-pred * label)) for labels -1 / 1 ('signed') or 0 / 1."""

    def __init__(self, weight=None, batch_axis=0, label_format="signed", **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._label_format = label_format
        if label_format not in ("signed", "binary"):
            raise ValueError(f"label_format can only be signed or binary, recieved {label_format}.")

    def forward(self, pred, label, sample_weight=None):
        label = label.reshape(pred.shape)
        if self._label_format == "signed":
            label = (label + 1.0) / 2.0
        loss = torch.relu(pred) - pred * label + torch.nn.functional.softplus(-torch.abs(pred))
        loss = _mx_apply_weighting(loss, self._weight, sample_weight)
        return _mx_batch_mean(loss, self._batch_axis)


class _mx_TripletLoss(_mx_Loss):
    """Gluon TripletLoss: relu(sum((positive - pred)^2 - (negative - pred)^2) + margin) per sample."""

    def __init__(self, margin=1, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    def forward(self, pred, positive, negative):
        positive = positive.reshape(pred.shape)
        negative = negative.reshape(pred.shape)
        loss = _mx_batch_sum(torch.square(positive - pred) - torch.square(negative - pred), self._batch_axis)
        loss = torch.relu(loss + self._margin)
        return _mx_apply_weighting(loss, self._weight, None)


class _mx_PoissonNLLLoss(_mx_Loss):
    """Gluon PoissonNLLLoss: exp(pred) - target * pred (from_logits) or pred - target *
    log(pred + epsilon), plus Stirling's term with compute_full; the mean over EVERY element,
    shape (1,) (not per sample)."""

    def __init__(self, weight=None, from_logits=True, batch_axis=0, compute_full=False, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._from_logits = from_logits
        self._compute_full = compute_full

    def forward(self, pred, target, sample_weight=None, epsilon=1e-08):
        target = target.reshape(pred.shape)
        if self._from_logits:
            loss = torch.exp(pred) - target * pred
        else:
            loss = pred - target * torch.log(pred + epsilon)
        if self._compute_full:
            stirling = target * torch.log(target) - target + 0.5 * torch.log(2 * target * torch.pi)
            loss = loss + stirling * (target > 1).to(loss.dtype)
        loss = _mx_apply_weighting(loss, self._weight, sample_weight)
        return loss.mean().reshape(1)


class _mx_CosineEmbeddingLoss(_mx_Loss):
    """Gluon CosineEmbeddingLoss: 1 - cos for label 1, max(0, cos - margin) for label -1;
    shape (N, 1) as in MXNet."""

    def __init__(self, weight=None, batch_axis=0, margin=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    def forward(self, input1, input2, label, sample_weight=None):
        input1 = input1.reshape(input2.shape)
        label = label.reshape((-1, 1))
        x_norm = torch.linalg.vector_norm(input1, dim=-1).reshape((-1, 1))
        y_norm = torch.linalg.vector_norm(input2, dim=-1).reshape((-1, 1))
        dot = (input1 * input2).sum(dim=-1).reshape((-1, 1))
        cos_sim = dot / torch.clamp(x_norm * y_norm, min=1e-12)
        y_1 = (label == 1).to(cos_sim.dtype)
        y_minus_1 = (label == -1).to(cos_sim.dtype)
        loss = (1 - cos_sim) * y_1 + torch.clamp(y_minus_1 * (cos_sim - self._margin), min=0)
        return _mx_apply_weighting(loss, self._weight, sample_weight)


class _mx_SDMLLoss(_mx_Loss):
    """Gluon SDMLLoss (smoothed deep metric learning): KL divergence between smoothed identity
    labels and the softmax of negative squared distances, per sample."""

    def __init__(self, smoothing_parameter=0.3, weight=1.0, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self.kl_loss = _mx_KLDivLoss(from_logits=True)
        self.smoothing_parameter = smoothing_parameter

    def forward(self, x1, x2):
        batch_size = x1.shape[0]
        gold = torch.eye(batch_size, dtype=x1.dtype, device=x1.device)
        labels = gold * (1 - self.smoothing_parameter) + (1 - gold) * self.smoothing_parameter / (batch_size - 1)
        distances = torch.square(x1.unsqueeze(1) - x2.unsqueeze(0)).sum(dim=2)
        return self.kl_loss(torch.log_softmax(-distances, dim=1), labels)


# Note [gluonnlp's losses]
# gluonnlp 0.10's loss module, which its machine-translation and language-model scripts (and the
# books built on them) train with. MaskedSoftmaxCELoss (MaskedSoftmaxCrossEntropyLoss) is Gluon's
# SoftmaxCELoss on NTC predictions with a per-step weight of 1 up to each sequence's valid length
# and 0 past it, averaged over every step, padded ones included (SequenceMask on axis 1).
# ActivationRegularizationLoss and TemporalActivationRegularizationLoss read only the LAST state
# passed, alpha * mean(h^2) and beta * mean((h[1:] - h[:-1])^2), shape (1,) as MXNet's mean,
# and zeros(1) when the factor is 0. LabelSmoothing one-hots class ids (sparse_label) to `units`
# and gives (1 - epsilon) * y + epsilon / units, the class count read from the input's `axis`
# when no `units` is known (gluonnlp's custom `_smoothing_with_dim`, whose gradient is the same
# (1 - epsilon) * dy; MXNet 1.9.1 cannot create that custom operator, which predates its
# CustomOp's signature, and raises).
class _mx_MaskedSoftmaxCrossEntropyLoss(_mx_SoftmaxCrossEntropyLoss):
    """gluonnlp MaskedSoftmaxCELoss (Note [gluonnlp's losses]): `loss(pred, label, valid_length)`."""

    def __init__(self, sparse_label=True, from_logits=False, weight=None, **kwargs):
        super().__init__(-1, sparse_label, from_logits, weight, 0, **kwargs)

    def forward(self, pred, label, valid_length):
        if self._sparse_label:
            sample_weight = torch.ones(label.shape + (1,), dtype=torch.float32, device=label.device)
        else:
            sample_weight = torch.ones_like(label)
        sample_weight = _mx_sequence_mask(sample_weight, valid_length, True, axis=1)
        return super().forward(pred, label, sample_weight)


class _mx_ActivationRegularizationLoss(_mx_Loss):
    """gluonnlp ActivationRegularizationLoss(alpha) (Note [gluonnlp's losses])."""

    def __init__(self, alpha=0, weight=None, batch_axis=None, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._alpha = alpha

    def forward(self, *states):
        if self._alpha != 0 and states:
            return (self._alpha * states[-1].pow(2).mean()).reshape(1)
        return torch.zeros(1)


class _mx_TemporalActivationRegularizationLoss(_mx_Loss):
    """gluonnlp TemporalActivationRegularizationLoss(beta) (Note [gluonnlp's losses])."""

    def __init__(self, beta=0, weight=None, batch_axis=None, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._beta = beta

    def forward(self, *states):
        if self._beta != 0 and states:
            state = states[-1]
            return (self._beta * (state[1:] - state[:-1]).pow(2).mean()).reshape(1)
        return torch.zeros(1)


class _mx_LabelSmoothing(torch.nn.Module):
    """gluonnlp LabelSmoothing(axis, epsilon, units, sparse_label) (Note [gluonnlp's losses])."""

    def __init__(self, axis=-1, epsilon=0.1, units=None, sparse_label=True, prefix=None, params=None):
        super().__init__()
        self._axis, self._epsilon, self._units, self._sparse_label = axis, epsilon, units, sparse_label

    def forward(self, inputs, units=None):
        if self._sparse_label:
            if units is None and self._units is None:
                raise AssertionError("units needs to be given in function call or instance initialization "
                                     "when sparse_label is False")
            units = self._units if units is None else units
            inputs = _mx_one_hot(inputs, units)
        if units is None and self._units is None:
            units = inputs.shape[self._axis]
        elif units is None:
            units = self._units
        return (1 - self._epsilon) * inputs + self._epsilon / float(units)


class _mx_SoftmaxOutputGrad(torch.autograd.Function):
    """SoftmaxOutput's backward: MXNet's loss layer ignores the head gradient and writes
    grad_scale * (softmax - target) / normalization, target the (smoothed) one-hot label, zero
    at ignored labels."""

    @staticmethod
    def forward(ctx, data, label, grad_scale, ignore_label, use_ignore, normalization, smooth_alpha, positions):
        prob = torch.softmax(data, dim=-1)
        ctx.save_for_backward(prob, label)
        ctx.options = (grad_scale, ignore_label, use_ignore, normalization, smooth_alpha, positions)
        return prob

    @staticmethod
    def backward(ctx, head):
        prob, label = ctx.saved_tensors
        grad_scale, ignore_label, use_ignore, normalization, smooth_alpha, positions = ctx.options
        classes = prob.shape[-1]
        index = label.long().clamp(0, classes - 1)
        # a label outside the classes (-1 without use_ignore) is no class's: MXNet's gradient is the softmax there
        inside = ((label >= 0) & (label < classes)).unsqueeze(-1)
        target = torch.nn.functional.one_hot(index, classes).to(prob.dtype) * inside.to(prob.dtype)
        if smooth_alpha:
            target = target * (1 - smooth_alpha) + (1 - target) * (smooth_alpha / (classes - 1))
        grad = (prob - target) * grad_scale
        valid = label != ignore_label if use_ignore else torch.ones_like(label, dtype=torch.bool)
        grad = grad * valid.unsqueeze(-1).to(grad.dtype)
        if normalization == "batch":
            grad = grad / label.numel()
        elif normalization == "valid":
            grad = grad / max(int((label != ignore_label).sum()), 1)  # counted so with use_ignore or without
        elif positions != 1:  # multi_output's 'null' still averages over the positions of a sample
            grad = grad / positions
        return grad, None, None, None, None, None, None, None


def _mx_softmax_output(data=None, label=None, grad_scale=1.0, ignore_label=-1.0, multi_output=False,
                       use_ignore=False, preserve_shape=False, normalization="null", out_grad=False,
                       smooth_alpha=0.0, out=None, name=None):
    """MXNet's SoftmaxOutput (the softmax loss layer): the softmax over the last axis forward, and
    MXNet's cross-entropy gradient backward whatever the head gradient (_mx_SoftmaxOutputGrad;
    normalization 'null', 'batch': over the label's size, 'valid': over the labels not ignored).
    multi_output: data (n, k, ...) and labels (n, ...), the softmax over axis 1 (segmentation losses:
    GluonCV's SoftmaxCrossEntropyLoss); there MXNet's 'null' divides the gradient by the positions of
    a sample (the size of the axes after k). Data of more
    than 2 dimensions without multi_output or preserve_shape (a softmax over every axis but the
    first), and out_grad, raise NotImplementedError."""
    if out is not None:
        raise NotImplementedError("SoftmaxOutput(out=...): assign the result instead")
    if out_grad or (data.dim() > 2 and not preserve_shape and not multi_output):
        raise NotImplementedError("SoftmaxOutput over every axis but the first (more than 2 dimensions without "
                                  "multi_output or preserve_shape) or with out_grad: port it by hand")
    options = (float(grad_scale), float(ignore_label), bool(use_ignore), normalization, float(smooth_alpha))
    if multi_output and data.dim() > 2:
        moved = data.movedim(1, -1)
        positions = int(data[0, 0].numel())  # MXNet's multi_output gradient has no label smoothing
        prob = _mx_SoftmaxOutputGrad.apply(moved, label.reshape(moved.shape[:-1]), *options[:4], 0.0, positions)
        return prob.movedim(-1, 1)
    return _mx_SoftmaxOutputGrad.apply(data, label, *options, 1)



class _mx_loss_module(metaclass=_mx_ModuleValue):
    """`mxnet.gluon.loss` as a value (`getattr(gluon.loss, cfg['loss'])()`): its losses as the
    Gluon-signature helpers a loss class passed as a value becomes."""
    _mx_module = "mxnet.gluon.loss"

    @staticmethod
    def _mx_members():
        return {"Loss": _mx_Loss, "L2Loss": _mx_L2Loss, "L1Loss": _mx_L1Loss,
                "SigmoidBinaryCrossEntropyLoss": _mx_SigmoidBinaryCrossEntropyLoss,
                "SoftmaxCrossEntropyLoss": _mx_SoftmaxCrossEntropyLoss, "KLDivLoss": _mx_KLDivLoss,
                "CTCLoss": _mx_CTCLoss, "HuberLoss": _mx_HuberLoss, "HingeLoss": _mx_HingeLoss,
                "SquaredHingeLoss": _mx_SquaredHingeLoss, "LogisticLoss": _mx_LogisticLoss,
                "TripletLoss": _mx_TripletLoss, "PoissonNLLLoss": _mx_PoissonNLLLoss,
                "CosineEmbeddingLoss": _mx_CosineEmbeddingLoss, "SDMLLoss": _mx_SDMLLoss,
                "SigmoidBCELoss": _mx_SigmoidBinaryCrossEntropyLoss, "SoftmaxCELoss": _mx_SoftmaxCrossEntropyLoss}
