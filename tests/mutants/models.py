"""Model pairs for the mutant tests: each MXNet model, its correct PyTorch translation and
wrong translations of it (the mutants). Selected by keyword arguments so one file serves all."""
import torch
import torch.nn.functional as F
from torch.func import functional_call


# -- softmax over the wrong axis ------------------------------------------------------------
class Scores(torch.nn.Module):
    def __init__(self, axis=-1):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.zeros(3, 4))
        self.axis = axis

    def forward(self, x):
        return torch.softmax(x @ self.weight, dim=self.axis)


# -- Dense on 3-D input (flatten=True) ------------------------------------------------------
class Dense(torch.nn.Module):
    def __init__(self, flatten=True):
        super().__init__()
        self.flatten = flatten
        self.fc = torch.nn.Linear(15, 4) if flatten else torch.nn.LazyLinear(4)

    def forward(self, x):
        return self.fc(x.flatten(1) if self.flatten else x)


# -- BatchNorm: MXNet's momentum is torch's 1 - momentum; running_var is biased -------------
class MXBatchNorm2d(torch.nn.BatchNorm2d):
    """BatchNorm with MXNet's running statistics (biased batch variance)."""

    def forward(self, x):
        if not self.training:
            return super().forward(x)
        mean, var = x.mean((0, 2, 3)), x.var((0, 2, 3), unbiased=False)
        with torch.no_grad():
            self.running_mean.mul_(1 - self.momentum).add_(self.momentum * mean)
            self.running_var.mul_(1 - self.momentum).add_(self.momentum * var)
        return F.batch_norm(x, None, None, self.weight, self.bias, True, 0.0, self.eps)


class BatchNorm(torch.nn.Module):
    def __init__(self, momentum=0.1):
        super().__init__()
        self.bn = MXBatchNorm2d(3, momentum=momentum)

    def forward(self, x):
        return self.bn(x)


# -- recurrent layers -----------------------------------------------------------------------
class Recurrent(torch.nn.Module):
    """mode: LSTM/GRU/RNN; mutant: None, 'no_batch_first', 'gates', 'merged_bias', 'tanh'."""

    def __init__(self, mode="LSTM", mutant=None):
        super().__init__()
        kwargs = dict(batch_first=mutant != "no_batch_first")
        if mode == "RNN" and mutant != "tanh":
            kwargs["nonlinearity"] = "relu"  # Gluon's RNN default
        self.rnn = getattr(torch.nn, mode)(3, 4, **kwargs)
        self.mutant = mutant

    def forward(self, x):
        params = dict(self.rnn.named_parameters())
        if self.mutant == "gates":  # i and f gate blocks swapped
            h = params["weight_ih_l0"].shape[0] // 4
            order = torch.cat([torch.arange(h, 2 * h), torch.arange(0, h), torch.arange(2 * h, 4 * h)])
            params = {k: v[order] for k, v in params.items()}
        elif self.mutant == "merged_bias":  # one bias, as if i2h and h2h were summed
            params["bias_ih_l0"] = params["bias_ih_l0"] + params["bias_hh_l0"]
            params["bias_hh_l0"] = torch.zeros_like(params["bias_hh_l0"])
        return functional_call(self.rnn, params, (x,))[0]
