"""Container and wrapper modules for Gluon blocks torch has no class for (copied as text)."""
import torch


class _mx_Lambda(torch.nn.Module):
    """Gluon (Hybrid)Lambda: a module that calls `function` on its inputs; no parameters."""

    def __init__(self, function, prefix=None):
        super().__init__()
        self.function = function

    def forward(self, *args):
        return self.function(*args)


class _mx_Concurrent(torch.nn.Sequential):
    """Gluon (Hybrid)Concurrent: runs every child on the same input and concatenates the
    outputs along `axis` (Gluon's default -1)."""

    def __init__(self, axis=-1, prefix=None, params=None):
        super().__init__()
        _mx_no_params(params)
        self.axis = axis

    def forward(self, x):
        return torch.cat([child(x) for child in self], dim=self.axis)
