"""MXNet's evaluation metrics (`mx.metric.*`), exactly, on torch tensors.

Copied as text into converted programs (xlate/runtime/__init__.py): torch and other `_mx_*`
helpers only. tests/test_numeric_training.py compares each with MXNet 1.9.1.

Note [metrics]
Why not torchmetrics: it is a separate package (xlate's output depends on torch alone), and
its defaults compute other numbers: MXNet's MAE, MSE and RMSE average per *batch* (the mean of
each update's mean; torchmetrics weighs every element), RMSE is the mean of per-batch roots,
F1 is binary with a 'macro' average over batches, Accuracy takes the argmax over `axis`
when the shapes differ and truncates float labels to int, Perplexity ignores `ignore_label`,
CrossEntropy adds eps=1e-12 and expects probabilities. Each helper keeps MXNet's interface:
`update(labels, preds)` with lists or single arrays, `get()` -> (name, value), `reset()`,
`reset_local()`, `get_global()`, `get_name_value()`, `num_inst` / `sum_metric`. Values are
computed in float32 as MXNet's numpy code does; summation order differs, so a value can move
in its last float32 digits (measured: at most 5.6e-7 relative, Perplexity over 3 batches).
"""
import torch


def _mx_metric_wrap(labels, preds):
    """MXNet's check_label_shapes(wrap=True): single arrays become lists of one."""
    if isinstance(labels, torch.Tensor):
        labels = [labels]
    if isinstance(preds, torch.Tensor):
        preds = [preds]
    if len(labels) != len(preds):
        raise ValueError(f"Shape of labels {len(labels)} does not match shape of predictions {len(preds)}")
    return labels, preds


class _mx_metric_EvalMetric:
    """MXNet `mx.metric.EvalMetric`: the local and global (since reset) running sums."""

    def __init__(self, name, output_names=None, label_names=None, **kwargs):
        self.name = str(name)
        self.output_names = output_names
        self.label_names = label_names
        self._has_global_stats = kwargs.pop("has_global_stats", False)
        self._kwargs = kwargs
        self.reset()

    def __str__(self):
        return f"EvalMetric: {dict(self.get_name_value())}"

    def update(self, labels, preds):
        raise NotImplementedError()

    def update_dict(self, label, pred):
        pred = [pred[n] for n in self.output_names] if self.output_names is not None else list(pred.values())
        label = [label[n] for n in self.label_names] if self.label_names is not None else list(label.values())
        self.update(label, pred)

    def reset(self):
        self.num_inst = 0
        self.sum_metric = 0.0
        self.global_num_inst = 0
        self.global_sum_metric = 0.0

    def reset_local(self):
        self.num_inst = 0
        self.sum_metric = 0.0

    def _add(self, value, count):
        self.sum_metric += value
        self.global_sum_metric += value
        self.num_inst += count
        self.global_num_inst += count

    def get(self):
        if self.num_inst == 0:
            return self.name, float("nan")
        return self.name, self.sum_metric / self.num_inst

    def get_global(self):
        if not self._has_global_stats:
            return self.get()
        if self.global_num_inst == 0:
            return self.name, float("nan")
        return self.name, self.global_sum_metric / self.global_num_inst

    def get_name_value(self):
        return _mx_metric_pairs(*self.get())

    def get_global_name_value(self):
        return _mx_metric_pairs(*self.get_global()) if self._has_global_stats else self.get_name_value()


def _mx_metric_pairs(name, value):
    names = name if isinstance(name, list) else [name]
    values = value if isinstance(value, list) else [value]
    return list(zip(names, values))


def _mx_metric_values(x):
    """What MXNet's metrics compute on: the array's values (`asnumpy()`), here a detached
    float64 CPU tensor."""
    if not isinstance(x, torch.Tensor):
        x = torch.as_tensor(x)
    return x.detach().cpu().to(torch.float64)


def _mx_metric_ints(x):
    """`asnumpy().astype('int32')`: values truncated toward zero."""
    if not isinstance(x, torch.Tensor):
        x = torch.as_tensor(x)
    return x.detach().cpu().to(torch.int32)


class _mx_metric_CompositeEvalMetric(_mx_metric_EvalMetric):
    """MXNet CompositeEvalMetric: several metrics updated together; get() gives lists."""

    def __init__(self, metrics=None, name="composite", output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)
        self.metrics = [_mx_metric_create(m) for m in (metrics or [])]

    def add(self, metric):
        self.metrics.append(_mx_metric_create(metric))

    def get_metric(self, index):
        try:
            return self.metrics[index]
        except IndexError:
            return ValueError(f"Metric index {index} is out of range 0 and {len(self.metrics)}")

    def update(self, labels, preds):
        for metric in self.metrics:
            metric.update(labels, preds)

    def reset(self):
        for metric in getattr(self, "metrics", []):
            metric.reset()

    def reset_local(self):
        for metric in self.metrics:
            metric.reset_local()

    def _collect(self, getter):
        names, values = [], []
        for metric in self.metrics:
            name, value = getter(metric)
            names.extend(name if isinstance(name, list) else [name])
            values.extend(value if isinstance(value, list) else [value])
        return names, values

    def get(self):
        return self._collect(lambda m: m.get())

    def get_global(self):
        return self._collect(lambda m: m.get_global())


class _mx_metric_Accuracy(_mx_metric_EvalMetric):
    """MXNet Accuracy: argmax over `axis` when the prediction's shape is not the label's; both
    truncated to int32 and compared element by element."""

    def __init__(self, axis=1, name="accuracy", output_names=None, label_names=None):
        super().__init__(name, axis=axis, output_names=output_names, label_names=label_names, has_global_stats=True)
        self.axis = axis

    def update(self, labels, preds):
        labels, preds = _mx_metric_wrap(labels, preds)
        for label, pred in zip(labels, preds):
            if tuple(pred.shape) != tuple(label.shape):
                pred = torch.argmax(pred, dim=self.axis)
            pred, label = _mx_metric_ints(pred).reshape(-1), _mx_metric_ints(label).reshape(-1)
            if len(pred) != len(label):
                raise ValueError(f"Shape of labels {len(label)} does not match shape of predictions {len(pred)}")
            self._add(int((pred == label).sum()), len(pred))


class _mx_metric_TopKAccuracy(_mx_metric_EvalMetric):
    """MXNet TopKAccuracy: the label among the top_k scores (name suffixed `_k`)."""

    def __init__(self, top_k=1, name="top_k_accuracy", output_names=None, label_names=None):
        super().__init__(name, top_k=top_k, output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        self.top_k = top_k
        if not self.top_k > 1:
            raise AssertionError("Please use Accuracy if top_k is no more than 1")
        self.name += f"_{self.top_k}"

    def update(self, labels, preds):
        labels, preds = _mx_metric_wrap(labels, preds)
        for label, pred in zip(labels, preds):
            if pred.dim() > 2:
                raise AssertionError("Predictions should be no more than 2 dims")
            scores, label = pred.detach().cpu().to(torch.float32), _mx_metric_ints(label).reshape(-1)
            if scores.dim() == 1:
                raise ValueError("TopKAccuracy on a 1-D prediction: MXNet compares numpy's argpartition order with "
                                 "the labels element by element, an order torch does not reproduce")
            k = min(scores.shape[1], self.top_k)
            top = torch.topk(scores, k, dim=1).indices
            correct = int((top == label.reshape(-1, 1).to(top.dtype)).sum())
            self._add(correct, scores.shape[0])


class _mx_metric_BinaryStats:
    """MXNet's _BinaryClassificationMetrics: confusion counts of argmax(pred) against labels 0/1."""

    def __init__(self):
        self.reset_stats()

    def update_binary_stats(self, label, pred):
        label = _mx_metric_ints(label).reshape(-1)
        pred_label = torch.argmax(pred.detach().cpu(), dim=1)
        if len(torch.unique(label)) > 2:
            raise ValueError("F1 currently only supports binary classification.")
        pred_true, label_true = pred_label == 1, label == 1
        counts = {"true_positives": pred_true & label_true, "false_positives": pred_true & ~label_true,
                  "false_negatives": ~pred_true & label_true, "true_negatives": ~pred_true & ~label_true}
        for key, mask in counts.items():
            n = int(mask.sum())
            setattr(self, key, getattr(self, key) + n)
            setattr(self, "global_" + key, getattr(self, "global_" + key) + n)

    def _ratio(self, a, b):
        return float(a) / (a + b) if a + b > 0 else 0.0

    @property
    def precision(self):
        return self._ratio(self.true_positives, self.false_positives)

    @property
    def recall(self):
        return self._ratio(self.true_positives, self.false_negatives)

    @property
    def fscore(self):
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r > 0 else 0.0

    @property
    def global_fscore(self):
        p = self._ratio(self.global_true_positives, self.global_false_positives)
        r = self._ratio(self.global_true_positives, self.global_false_negatives)
        return 2 * p * r / (p + r) if p + r > 0 else 0.0

    def matthewscc(self, use_global=False):
        """MXNet's Matthews correlation coefficient; a factor of the denominator that is 0 is left out."""
        prefix = "global_" if use_global else ""
        if not (self.global_total_examples if use_global else self.total_examples):
            return 0.0
        tp, fp, fn, tn = (float(getattr(self, prefix + k)) for k in
                          ("true_positives", "false_positives", "false_negatives", "true_negatives"))
        denom = 1.0
        for t in (tp + fp, tp + fn, tn + fp, tn + fn):
            if t != 0.0:
                denom *= t
        return (tp * tn - fp * fn) / denom ** 0.5

    @property
    def total_examples(self):
        return self.false_negatives + self.false_positives + self.true_negatives + self.true_positives

    @property
    def global_total_examples(self):
        return (self.global_false_negatives + self.global_false_positives + self.global_true_negatives
                + self.global_true_positives)

    def local_reset_stats(self):
        self.true_positives = self.false_positives = self.false_negatives = self.true_negatives = 0

    def reset_stats(self):
        self.local_reset_stats()
        self.global_true_positives = self.global_false_positives = 0
        self.global_false_negatives = self.global_true_negatives = 0


class _mx_metric_F1(_mx_metric_EvalMetric):
    """MXNet F1 (binary): 'macro' averages the F1 of each update (batch); 'micro' pools counts."""

    def __init__(self, name="f1", output_names=None, label_names=None, average="macro"):
        self.average = average
        self.metrics = _mx_metric_BinaryStats()
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def update(self, labels, preds):
        labels, preds = _mx_metric_wrap(labels, preds)
        for label, pred in zip(labels, preds):
            self.metrics.update_binary_stats(label, pred)
        if self.average == "macro":
            self._add(self.metrics.fscore, 1)
            self.global_sum_metric += self.metrics.global_fscore - self.metrics.fscore
            self.metrics.reset_stats()
        else:
            self.sum_metric = self.metrics.fscore * self.metrics.total_examples
            self.global_sum_metric = self.metrics.global_fscore * self.metrics.global_total_examples
            self.num_inst = self.metrics.total_examples
            self.global_num_inst = self.metrics.global_total_examples

    def reset(self):
        self.sum_metric = 0.0
        self.num_inst = 0
        self.global_num_inst = 0
        self.global_sum_metric = 0.0
        self.metrics.reset_stats()

    def reset_local(self):
        self.sum_metric = 0.0
        self.num_inst = 0
        self.metrics.local_reset_stats()


class _mx_metric_MCC(_mx_metric_EvalMetric):
    """MXNet MCC (binary): 'macro' averages the coefficient of each update (batch); 'micro' pools counts."""

    def __init__(self, name="mcc", output_names=None, label_names=None, average="macro"):
        self._average = average
        self._metrics = _mx_metric_BinaryStats()
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def update(self, labels, preds):
        labels, preds = _mx_metric_wrap(labels, preds)
        for label, pred in zip(labels, preds):
            self._metrics.update_binary_stats(label, pred)
        if self._average == "macro":
            self.sum_metric += self._metrics.matthewscc()
            self.global_sum_metric += self._metrics.matthewscc(use_global=True)
            self.num_inst += 1
            self.global_num_inst += 1
            self._metrics.reset_stats()
        else:
            self.sum_metric = self._metrics.matthewscc() * self._metrics.total_examples
            self.global_sum_metric = self._metrics.matthewscc(use_global=True) * self._metrics.global_total_examples
            self.num_inst = self._metrics.total_examples
            self.global_num_inst = self._metrics.global_total_examples

    def reset(self):
        super().reset()
        if hasattr(self, "_metrics"):
            self._metrics.reset_stats()

    def reset_local(self):
        super().reset_local()
        self._metrics.local_reset_stats()


class _mx_metric_PearsonCorrelation(_mx_metric_EvalMetric):
    """MXNet PearsonCorrelation: 'macro' averages the coefficient of each (label, pred) pair (float64);
    'micro' pools every value with MXNet's running update of the means, squared deviations and
    co-deviation (its own formula, kept as written)."""

    def __init__(self, name="pearsonr", output_names=None, label_names=None, average="macro"):
        self.average = average
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def reset_micro(self):
        self._sse_p = self._mean_p = self._sse_l = self._mean_l = 0.0
        self._pred_nums = self._label_nums = 0
        self._conv = 0.0

    def reset(self):
        super().reset()
        if self.average == "micro":
            self.reset_micro()

    @staticmethod
    def update_variance(new_values, count, mean, m_2):
        count += len(new_values)
        delta = new_values - mean
        mean += float((delta / count).sum())
        m_2 += float((delta * (new_values - mean)).sum())
        return count, mean, m_2

    def update(self, labels, preds):
        labels, preds = _mx_metric_wrap(labels, preds)
        for label, pred in zip(labels, preds):
            label, pred = _mx_metric_values(label), _mx_metric_values(pred)
            if label.shape != pred.shape:
                raise ValueError(f"Shape of labels {tuple(label.shape)} does not match shape of predictions "
                                 f"{tuple(pred.shape)}")
            label, pred = label.reshape(-1), pred.reshape(-1)
            self.num_inst += 1
            self.global_num_inst += 1
            if self.average == "macro":
                corr = float(torch.corrcoef(torch.stack([pred, label]))[0, 1])
                self.sum_metric += corr
                self.global_sum_metric += corr
            else:
                self._label_nums, self._mean_l, self._sse_l = self.update_variance(
                    label, self._label_nums, self._mean_l, self._sse_l)
                self._conv += float(((label - self._mean_l) * (pred - self._mean_p)).sum())
                self._pred_nums, self._mean_p, self._sse_p = self.update_variance(
                    pred, self._pred_nums, self._mean_p, self._sse_p)

    def get(self):
        if self.num_inst == 0:
            return self.name, float("nan")
        if self.average == "macro":
            return self.name, self.sum_metric / self.num_inst
        n = self._label_nums
        return self.name, self._conv / ((n - 1) * (self._sse_p / (n - 1)) ** 0.5 * (self._sse_l / (n - 1)) ** 0.5)


class _mx_metric_Perplexity(_mx_metric_EvalMetric):
    """MXNet Perplexity: exp of the mean negative log of the label's probability (at least
    1e-10), positions whose label is ignore_label left out."""

    def __init__(self, ignore_label, axis=-1, name="perplexity", output_names=None, label_names=None):
        super().__init__(name, ignore_label=ignore_label, output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        self.ignore_label = ignore_label
        self.axis = axis

    def update(self, labels, preds):
        labels, preds = _mx_metric_wrap(labels, preds)
        loss, num = 0.0, 0
        for label, pred in zip(labels, preds):
            pred = pred.detach().cpu().to(torch.float32)
            label = label.detach().cpu().reshape(-1)
            picked = _mx_pick(pred, label.to(torch.int32), axis=self.axis)
            if self.ignore_label is not None:
                ignore = (label == self.ignore_label).to(picked.dtype)
                num -= float(ignore.sum())
                picked = picked * (1 - ignore) + ignore
            loss -= float(torch.log(torch.clamp(picked, min=1e-10)).sum())
            num += picked.numel()
        self._add(loss, num)

    def get(self):
        if self.num_inst == 0:
            return self.name, float("nan")
        return self.name, float(torch.exp(torch.tensor(self.sum_metric / self.num_inst, dtype=torch.float64)))

    def get_global(self):
        if self.global_num_inst == 0:
            return self.name, float("nan")
        return self.name, float(torch.exp(torch.tensor(self.global_sum_metric / self.global_num_inst,
                                                        dtype=torch.float64)))


class _mx_metric_Regression(_mx_metric_EvalMetric):
    """MAE / MSE / RMSE: one value per update (batch) of each label/prediction pair, averaged
    over updates; 1-D arrays are columns."""

    def __init__(self, name, output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def update(self, labels, preds):
        labels, preds = _mx_metric_wrap(labels, preds)
        for label, pred in zip(labels, preds):
            label = label.detach().cpu()
            pred = pred.detach().cpu()
            label = label.reshape(label.shape[0], 1) if label.dim() == 1 else label
            pred = pred.reshape(pred.shape[0], 1) if pred.dim() == 1 else pred
            self._add(self._value(label - pred), 1)


class _mx_metric_MAE(_mx_metric_Regression):
    def __init__(self, name="mae", output_names=None, label_names=None):
        super().__init__(name, output_names, label_names)

    def _value(self, diff):
        return float(torch.abs(diff).mean())


class _mx_metric_MSE(_mx_metric_Regression):
    def __init__(self, name="mse", output_names=None, label_names=None):
        super().__init__(name, output_names, label_names)

    def _value(self, diff):
        return float((diff ** 2.0).mean())


class _mx_metric_RMSE(_mx_metric_Regression):
    def __init__(self, name="rmse", output_names=None, label_names=None):
        super().__init__(name, output_names, label_names)

    def _value(self, diff):
        return float(torch.sqrt((diff ** 2.0).mean()))


class _mx_metric_CrossEntropy(_mx_metric_EvalMetric):
    """MXNet CrossEntropy: -log(p[label] + eps) summed, averaged over samples (probabilities in)."""

    def __init__(self, eps=1e-12, name="cross-entropy", output_names=None, label_names=None):
        super().__init__(name, eps=eps, output_names=output_names, label_names=label_names, has_global_stats=True)
        self.eps = eps

    def update(self, labels, preds):
        labels, preds = _mx_metric_wrap(labels, preds)
        for label, pred in zip(labels, preds):
            label = label.detach().cpu().reshape(-1).to(torch.int64)
            pred = pred.detach().cpu()
            prob = pred[torch.arange(label.shape[0]), label]
            self._add(float((-torch.log(prob + self.eps)).sum()), label.shape[0])


class _mx_metric_NegativeLogLikelihood(_mx_metric_CrossEntropy):
    def __init__(self, eps=1e-12, name="nll-loss", output_names=None, label_names=None):
        super().__init__(eps, name, output_names, label_names)


class _mx_metric_Loss(_mx_metric_EvalMetric):
    """MXNet Loss metric: the mean of every loss value given (labels ignored)."""

    def __init__(self, name="loss", output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def update(self, _, preds):
        for pred in [preds] if isinstance(preds, torch.Tensor) else preds:
            self._add(float(pred.detach().sum()), pred.numel())


class _mx_metric_CustomMetric(_mx_metric_EvalMetric):
    """MXNet CustomMetric: `feval(label, pred)` on numpy arrays, returning a value or (sum, count)."""

    def __init__(self, feval, name=None, allow_extra_outputs=False, output_names=None, label_names=None):
        if name is None:
            name = feval.__name__
            if "<" in name:
                name = f"custom({name})"
        super().__init__(name, feval=feval, allow_extra_outputs=allow_extra_outputs, output_names=output_names,
                         label_names=label_names, has_global_stats=True)
        self._feval = feval
        self._allow_extra_outputs = allow_extra_outputs

    def update(self, labels, preds):
        if not self._allow_extra_outputs:
            labels, preds = _mx_metric_wrap(labels, preds)
        for pred, label in zip(preds, labels):
            value = self._feval(label.detach().cpu().numpy(), pred.detach().cpu().numpy())
            if isinstance(value, tuple):
                self._add(value[0], value[1])
            else:
                self._add(value, 1)


def _mx_metric_np(numpy_feval, name=None, allow_extra_outputs=False):
    """`mx.metric.np(feval)`: a CustomMetric of a numpy function."""
    return _mx_metric_CustomMetric(numpy_feval, name, allow_extra_outputs)


def _mx_metric_check_label_shapes(labels, preds, wrap=False, shape=False):
    """`mx.metric.check_label_shapes`: a custom metric's check that labels and predictions agree in
    number (or in shape, `shape=True`), raising MXNet's ValueError; `wrap=True` puts a single array
    (a tensor here) in a list."""
    if not shape:
        label_shape, pred_shape = len(labels), len(preds)
    else:
        label_shape, pred_shape = tuple(labels.shape), tuple(preds.shape)
    if label_shape != pred_shape:
        raise ValueError("Shape of labels {} does not match shape of "
                         "predictions {}".format(label_shape, pred_shape))
    if wrap:
        if isinstance(labels, torch.Tensor):
            labels = [labels]
        if isinstance(preds, torch.Tensor):
            preds = [preds]
    return labels, preds


def _mx_metric_create(metric, *args, **kwargs):
    """`mx.metric.create`: a metric from its name or alias, a function, a list (composite) or
    an instance."""
    if isinstance(metric, _mx_metric_EvalMetric):
        return metric
    if callable(metric):
        return _mx_metric_CustomMetric(metric, *args, **kwargs)
    if isinstance(metric, list):
        composite = _mx_metric_CompositeEvalMetric()
        for child in metric:
            composite.add(_mx_metric_create(child, *args, **kwargs))
        return composite
    named = {"acc": _mx_metric_Accuracy, "accuracy": _mx_metric_Accuracy, "top_k_accuracy": _mx_metric_TopKAccuracy,
             "top_k_acc": _mx_metric_TopKAccuracy, "topkaccuracy": _mx_metric_TopKAccuracy, "f1": _mx_metric_F1,
             "perplexity": _mx_metric_Perplexity, "mae": _mx_metric_MAE, "mse": _mx_metric_MSE,
             "rmse": _mx_metric_RMSE, "ce": _mx_metric_CrossEntropy, "crossentropy": _mx_metric_CrossEntropy,
             "nll_loss": _mx_metric_NegativeLogLikelihood,
             "negativeloglikelihood": _mx_metric_NegativeLogLikelihood, "loss": _mx_metric_Loss,
             "composite": _mx_metric_CompositeEvalMetric, "compositeevalmetric": _mx_metric_CompositeEvalMetric,
             "mcc": _mx_metric_MCC, "pearsonr": _mx_metric_PearsonCorrelation,
             "pearsoncorrelation": _mx_metric_PearsonCorrelation}
    if metric.lower() not in named:
        raise ValueError(f"Cannot find metric {metric}")
    return named[metric.lower()](*args, **kwargs)
