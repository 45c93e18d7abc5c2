"""PyTorch translations of the MXNet training steps, correct and mutated (`mutant=`)."""
import math

import torch
import torch.nn.functional as F


def Net():
    return torch.nn.Sequential(torch.nn.Linear(5, 6), torch.nn.Tanh(), torch.nn.Linear(6, 3))


def make_step(model, mutant=None):
    """L2Loss + Trainer('sgd', momentum 0.9, wd 1e-3) + trainer.step(batch_size)."""
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-3)

    def step(x, y):
        if mutant != "no_zero_grad":
            opt.zero_grad()
        p = model(x)
        half = 1.0 if mutant == "no_half" else 0.5
        per_sample = half * F.mse_loss(p, y.view_as(p), reduction="none").flatten(1).mean(1)
        if mutant == "mse_loss":  # nn.MSELoss(): one mean over every element, no 0.5
            F.mse_loss(p, y.view_as(p)).backward()
        elif mutant == "no_rescale":  # trainer.step(B)'s 1/B forgotten
            per_sample.sum().backward()
        else:
            (per_sample.sum() / x.shape[0]).backward()
        opt.step()
        return per_sample.mean().reshape(1)  # MXNet full reductions have shape (1,)

    return step


class MXAdam(torch.optim.Optimizer):
    """MXNet's Adam: wd is L2 added to the gradient; eps is added before bias correction."""

    def __init__(self, params, lr, wd=0.0, betas=(0.9, 0.999), eps=1e-8):
        super().__init__(params, dict(lr=lr, wd=wd, betas=betas, eps=eps))

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            b1, b2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state["t"], state["m"], state["v"] = 0, torch.zeros_like(p), torch.zeros_like(p)
                state["t"] += 1
                g = p.grad + group["wd"] * p
                state["m"].mul_(b1).add_((1 - b1) * g)
                state["v"].mul_(b2).add_((1 - b2) * g * g)
                lr_t = group["lr"] * math.sqrt(1 - b2 ** state["t"]) / (1 - b1 ** state["t"])
                p.sub_(lr_t * state["m"] / (state["v"].sqrt() + group["eps"]))


def make_adam_step(model, mutant=None):
    if mutant == "adamw":
        opt = torch.optim.AdamW(model.parameters(), lr=0.05, weight_decay=1e-2)
    else:
        opt = MXAdam(model.parameters(), lr=0.05, wd=1e-2)

    def step(x, y):
        opt.zero_grad()
        p = model(x)
        per_sample = 0.5 * F.mse_loss(p, y.view_as(p), reduction="none").flatten(1).mean(1)
        (per_sample.sum() / x.shape[0]).backward()
        opt.step()
        return per_sample.mean().reshape(1)  # MXNet full reductions have shape (1,)

    return step
