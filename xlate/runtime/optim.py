"""Gluon's Trainer, MXNet's optimizers and learning-rate schedulers, exactly, in torch.

Copied as text into converted programs (xlate/runtime/__init__.py): torch and other `_mx_*`
helpers only. tests/test_numeric_training.py compares every optimizer, scheduler and the
Trainer with MXNet 1.9.1.

Note [Gluon's Trainer]
`trainer.step(batch_size)` hands each parameter's gradient to MXNet's optimizer with
`rescale_grad = 1 / batch_size` folded into the update rule; the gradient array itself is
left as backward wrote it. The optimizers differ from torch.optim in ways that change the
numbers (layers.md 8.x): Adam adds epsilon to sqrt(v) before its bias correction (which it
folds into the learning rate), `wd` is an L2 term added to the gradient (never AdamW's
decoupled decay), `clip_gradient` clips each element of the rescaled gradient (SGD before
adding wd * w, Adam, RMSProp and the others after), SGD's momentum buffer holds lr * grad
(`mom = momentum * mom - lr * grad`), so a learning rate that changes between steps (a
scheduler, `set_learning_rate`) weighs past gradients with their own rates where torch's
SGD rescales the whole buffer. So `_mx_Trainer` drives `_mx_Optimizer` subclasses that
compute MXNet's update formulas element by element, in MXNet's order of operations, on the
tensors torch's autograd filled (`p.grad`).

Gradients: MXNet's default grad_req='write' makes every backward overwrite the gradient;
torch adds to it. The translation calls `trainer.zero_grad()` before the backward calls a
step uses (the converter places it); `zero_grad` leaves alone the parameters Gluon would
accumulate (`grad_req = 'add'`, recorded as `p._mx_grad_req`). A parameter backward did not
reach since the last step is stale: MXNet raises, or with `ignore_stale_grad=True` skips its
update (no weight decay, no momentum): tracked with a post-accumulate hook per parameter.
Per-parameter `lr_mult` / `wd_mult` are read from `p._mx_lr_mult` / `p._mx_wd_mult`
(`_mx_param_attr`).
"""

import torch


def _mx_clip_grad(x, bound):
    """MXNet's clip of a gradient to [-bound, bound]."""
    return x.clamp(-bound, bound)


class _mx_Optimizer:
    """MXNet's `mx.optimizer.Optimizer`: hyperparameters, the update count, per-parameter
    learning-rate and weight-decay multipliers, the registry `create_optimizer` reads."""

    opt_registry = {}

    def __init__(self, rescale_grad=1.0, param_idx2name=None, wd=0.0, clip_gradient=None, learning_rate=None,
                 lr_scheduler=None, sym=None, begin_num_update=0, multi_precision=False, param_dict=None):
        self.rescale_grad = rescale_grad
        self.lr_scheduler = lr_scheduler
        if lr_scheduler is None and learning_rate is None:
            learning_rate = 0.01
        self.lr = learning_rate
        if lr_scheduler is not None and learning_rate is not None and lr_scheduler.base_lr != learning_rate:
            print(UserWarning("learning rate from ``lr_scheduler`` has been overwritten by ``learning_rate`` in "
                              "optimizer."))
            lr_scheduler.base_lr = learning_rate
        self.wd = wd
        self.lr_mult = {}
        self.wd_mult = {}
        self.begin_num_update = begin_num_update
        self.num_update = begin_num_update
        self._index_update_count = {}
        self.clip_gradient = clip_gradient
        self.multi_precision = multi_precision
        self.idx2name = dict(param_idx2name or {})
        self.param_dict = param_dict or {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.__name__.startswith("_mx_"):  # the translated built-ins, under MXNet's names
            _mx_Optimizer.opt_registry[cls.__name__[4:].lower()] = cls

    @staticmethod
    def register(klass):
        _mx_Optimizer.opt_registry[klass.__name__.lower()] = klass
        return klass

    @staticmethod
    def create_optimizer(name, **kwargs):
        if name.lower() not in _mx_Optimizer.opt_registry:
            raise ValueError(f"Cannot find optimizer {name}")
        return _mx_Optimizer.opt_registry[name.lower()](**kwargs)

    @property
    def learning_rate(self):
        return self.lr_scheduler(self.num_update) if self.lr_scheduler is not None else self.lr

    def set_learning_rate(self, lr):
        if self.lr_scheduler is not None:
            raise UserWarning("LRScheduler of the optimizer has already been defined. Note that set_learning_rate "
                              "can mutate the value of the learning rate of the optimizer only when the LRScheduler "
                              "of the optimizer is undefined.")
        self.lr = lr

    def set_lr_mult(self, args_lr_mult):
        self.lr_mult = dict(args_lr_mult)

    def set_wd_mult(self, args_wd_mult):
        self.wd_mult = dict(args_wd_mult)

    def create_state(self, index, weight):
        return None

    def create_state_multi_precision(self, index, weight):
        return self.create_state(index, weight)

    def update(self, index, weight, grad, state):
        raise NotImplementedError()

    def update_multi_precision(self, index, weight, grad, state):
        self.update(index, weight, grad, state)

    def _update_count(self, index):
        for idx in index if isinstance(index, (list, tuple)) else [index]:
            count = self._index_update_count.get(idx, self.begin_num_update) + 1
            self._index_update_count[idx] = count
            self.num_update = max(count, self.num_update)

    def _mult(self, index, name, table):
        param = self.param_dict.get(index)
        if param is not None:
            return getattr(param, f"_mx_{name}", 1.0)
        if index in table:
            return table[index]
        return table.get(self.idx2name[index], 1.0) if index in self.idx2name else 1.0

    def _get_lr(self, index):
        lr = self.lr_scheduler(self.num_update) if self.lr_scheduler is not None else self.lr
        return lr * self._mult(index, "lr_mult", self.lr_mult)

    def _get_wd(self, index):
        return self.wd * self._mult(index, "wd_mult", self.wd_mult)

    def _rescaled(self, grad):
        """The rescaled, clipped gradient (the optimizers that clip before adding wd * w)."""
        g = grad * self.rescale_grad
        return _mx_clip_grad(g, self.clip_gradient) if self.clip_gradient else g

    def _with_wd(self, grad, weight, wd):
        """rescale, add wd * w, then clip (Adam, RMSProp, NAG and most others)."""
        g = grad * self.rescale_grad + weight * wd
        return _mx_clip_grad(g, self.clip_gradient) if self.clip_gradient else g


class _mx_SGD(_mx_Optimizer):
    """MXNet SGD: w = (1 - lr*wd) * w - lr * clip(rescale * g); with momentum
    mom = momentum * mom - lr*wd * w - lr * clip(rescale * g), w += mom."""

    def __init__(self, momentum=0.0, lazy_update=True, **kwargs):
        super().__init__(**kwargs)
        self.momentum = momentum
        self.lazy_update = lazy_update

    def create_state(self, index, weight):
        return torch.zeros_like(weight) if self.momentum != 0.0 else None

    def update(self, index, weight, grad, state):
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        g = self._rescaled(grad)
        with torch.no_grad():
            if state is None:
                weight.copy_((1.0 - lr * wd) * weight - lr * g)
            else:
                state.copy_(self.momentum * state - lr * wd * weight - lr * g)
                weight.add_(state)


class _mx_NAG(_mx_SGD):
    """MXNet NAG: mom = momentum * mom; w = w - mom + (momentum + 1) * (mom - lr * (clip(rescale
    * g) + wd * w)); then mom -= lr * (clip(rescale * g) + wd * w) with the new w."""

    def update(self, index, weight, grad, state):
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        with torch.no_grad():
            if state is None:
                weight.copy_((1.0 - lr * wd) * weight - lr * self._rescaled(grad))
                return
            g = self._rescaled(grad)
            state.mul_(self.momentum)
            weight.copy_(weight - state + (self.momentum + 1) * (state - lr * (g + wd * weight)))
            state.sub_(lr * (g + wd * weight))  # MXNet's kernel reads the weight it just wrote


class _mx_Adam(_mx_Optimizer):
    """MXNet Adam: the bias correction goes into the learning rate (lr * sqrt(1 - b2^t) /
    (1 - b1^t)) and epsilon is added to sqrt(v) without it; g = clip(rescale * g + wd * w)."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, lazy_update=True, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1, self.beta2, self.epsilon, self.lazy_update = beta1, beta2, epsilon, lazy_update

    def create_state(self, index, weight):
        return torch.zeros_like(weight), torch.zeros_like(weight)

    def update(self, index, weight, grad, state):
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        t = self._index_update_count[index]
        lr *= (1.0 - self.beta2 ** t) ** 0.5 / (1.0 - self.beta1 ** t)
        mean, var = state
        with torch.no_grad():
            g = self._with_wd(grad, weight, wd)
            mean.copy_(self.beta1 * mean + (1.0 - self.beta1) * g)
            var.copy_(self.beta2 * var + (1.0 - self.beta2) * g * g)
            weight.sub_(lr * mean / (var.sqrt() + self.epsilon))


class _mx_AdaGrad(_mx_Optimizer):
    """MXNet AdaGrad: history += g^2 (g rescaled and clipped); w += -lr * (g / sqrt(history +
    eps) + wd * w)."""

    def __init__(self, eps=1e-7, **kwargs):
        super().__init__(**kwargs)
        self.float_stable_eps = eps

    def create_state(self, index, weight):
        return torch.zeros_like(weight)

    def update(self, index, weight, grad, state):
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        with torch.no_grad():
            g = self._rescaled(grad)
            state.add_(g * g)
            weight.add_((g / (state + self.float_stable_eps).sqrt() + weight * wd) * -lr)


class _mx_RMSProp(_mx_Optimizer):
    """MXNet RMSProp (Tieleman & Hinton; `centered=True`: Graves' RMSPropAlex), g = clip(rescale
    * g + wd * w), epsilon inside the square root, optional clip_weights."""

    def __init__(self, learning_rate=0.001, gamma1=0.9, gamma2=0.9, epsilon=1e-8, centered=False,
                 clip_weights=None, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.gamma1, self.gamma2, self.epsilon = gamma1, gamma2, epsilon
        self.centered, self.clip_weights = centered, clip_weights

    def create_state(self, index, weight):
        if self.centered:
            return torch.zeros_like(weight), torch.zeros_like(weight), torch.zeros_like(weight)
        return (torch.zeros_like(weight),)

    def update(self, index, weight, grad, state):
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        with torch.no_grad():
            g = self._with_wd(grad, weight, wd)
            if not self.centered:
                (n,) = state
                n.copy_((1.0 - self.gamma1) * g * g + self.gamma1 * n)
                weight.sub_(lr * g / (n + self.epsilon).sqrt())
            else:
                n, mean, delta = state
                n.copy_((1.0 - self.gamma1) * g * g + self.gamma1 * n)
                mean.copy_((1.0 - self.gamma1) * g + self.gamma1 * mean)
                delta.copy_(self.gamma2 * delta - lr * g / (n - mean * mean + self.epsilon).sqrt())
                weight.add_(delta)
            if self.clip_weights:
                weight.clamp_(-self.clip_weights, self.clip_weights)


class _mx_AdaDelta(_mx_Optimizer):
    """MXNet AdaDelta (no learning rate); like MXNet, it scales the gradient array itself by
    rescale_grad (in place) before using it."""

    def __init__(self, rho=0.90, epsilon=1e-5, **kwargs):
        super().__init__(**kwargs)
        self.rho, self.epsilon = rho, epsilon

    def create_state(self, index, weight):
        return torch.zeros_like(weight), torch.zeros_like(weight)

    def update(self, index, weight, grad, state):
        wd = self._get_wd(index)
        self._update_count(index)
        with torch.no_grad():
            grad.mul_(self.rescale_grad)
            g = _mx_clip_grad(grad, self.clip_gradient) if self.clip_gradient is not None else grad
            acc_g, acc_delta = state
            acc_g.mul_(self.rho).add_((1.0 - self.rho) * g * g)
            delta = (acc_delta + self.epsilon).sqrt() / (acc_g + self.epsilon).sqrt() * g
            acc_delta.mul_(self.rho).add_((1.0 - self.rho) * delta * delta)
            weight.sub_(delta + wd * weight)


class _mx_Adamax(_mx_Optimizer):
    """MXNet Adamax: lr / (1 - b1^t); u = max(b2 * u, |g|); w -= lr * m / u."""

    def __init__(self, learning_rate=0.002, beta1=0.9, beta2=0.999, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1, self.beta2 = beta1, beta2

    def create_state(self, index, weight):
        return torch.zeros_like(weight), torch.zeros_like(weight)

    def update(self, index, weight, grad, state):
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        lr /= 1.0 - self.beta1 ** self._index_update_count[index]
        m, u = state
        with torch.no_grad():
            g = grad * self.rescale_grad + wd * weight
            if self.clip_gradient is not None:
                g = _mx_clip_grad(g, self.clip_gradient)
            m.mul_(self.beta1).add_((1.0 - self.beta1) * g)
            u.copy_(torch.maximum(self.beta2 * u, g.abs()))
            weight.sub_(lr * m / u)


class _mx_Nadam(_mx_Optimizer):
    """MXNet Nadam (Dozat's schedule with schedule_decay)."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, schedule_decay=0.004, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1, self.beta2, self.epsilon, self.schedule_decay = beta1, beta2, epsilon, schedule_decay
        self.m_schedule = 1.0

    def create_state(self, index, weight):
        return torch.zeros_like(weight), torch.zeros_like(weight)

    def update(self, index, weight, grad, state):
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        t = self._index_update_count[index]
        with torch.no_grad():
            g = grad * self.rescale_grad + wd * weight
            if self.clip_gradient is not None:
                g = _mx_clip_grad(g, self.clip_gradient)
            momentum_t = self.beta1 * (1.0 - 0.5 * (pow(0.96, t * self.schedule_decay)))
            momentum_t_1 = self.beta1 * (1.0 - 0.5 * (pow(0.96, (t + 1) * self.schedule_decay)))
            self.m_schedule = self.m_schedule * momentum_t
            m_schedule_next = self.m_schedule * momentum_t_1
            m, v = state
            m.mul_(self.beta1).add_((1.0 - self.beta1) * g)
            v.mul_(self.beta2).add_((1.0 - self.beta2) * g * g)
            g_prime = g / (1.0 - self.m_schedule)
            m_prime = m / (1.0 - m_schedule_next)
            v_prime = v / (1.0 - pow(self.beta2, t))
            m_bar = (1.0 - momentum_t) * g_prime + momentum_t_1 * m_prime
            weight.sub_(lr * m_bar / (v_prime.sqrt() + self.epsilon))


class _mx_Ftrl(_mx_Optimizer):
    """MXNet FTRL-Proximal (McMahan et al.), on the rescaled and clipped gradient."""

    def __init__(self, lamda1=0.01, learning_rate=0.1, beta=1, **kwargs):
        super().__init__(**kwargs)
        self.lamda1, self.beta, self.lr = lamda1, beta, learning_rate

    def create_state(self, index, weight):
        return torch.zeros_like(weight), torch.zeros_like(weight)

    def update(self, index, weight, grad, state):
        self._update_count(index)
        wd, lr = self._get_wd(index), self._get_lr(index)
        z, n = state
        with torch.no_grad():
            g = self._rescaled(grad)
            z.add_(g - ((n + g * g).sqrt() - n.sqrt()) * weight / lr)
            n.add_(g * g)
            weight.copy_((torch.sign(z) * self.lamda1 - z) / ((self.beta + n.sqrt()) / lr + wd)
                         * (z.abs() > self.lamda1))


class _mx_Signum(_mx_Optimizer):
    """MXNet Signum / signSGD: the sign of the momentum of clip(rescale * g) + wd * w, with
    decoupled decay wd_lh."""

    def __init__(self, learning_rate=0.01, momentum=0.9, wd_lh=0.0, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.momentum, self.wd_lh = momentum, wd_lh

    def create_state(self, index, weight):
        return torch.zeros_like(weight) if self.momentum != 0.0 else None

    def update(self, index, weight, grad, state):
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        with torch.no_grad():
            g = self._rescaled(grad)
            if state is None:
                weight.copy_((1.0 - lr * wd) * weight - lr * torch.sign(g))
                return
            state.copy_(self.momentum * state - (1.0 - self.momentum) * wd * weight - (1.0 - self.momentum) * g)
            weight.copy_((1.0 - lr * self.wd_lh) * weight + lr * torch.sign(state))


class _mx_LAMB(_mx_Optimizer):
    """MXNet LAMB: Adam's direction (bias-corrected unless bias_correction=False) plus wd * w,
    scaled by the trust ratio ||w|| / ||g|| (bounded by lower_bound / upper_bound)."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-6, lower_bound=None,
                 upper_bound=None, bias_correction=True, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1, self.beta2, self.epsilon = beta1, beta2, epsilon
        self.lower_bound, self.upper_bound, self.bias_correction = lower_bound, upper_bound, bias_correction

    def create_state(self, index, weight):
        return torch.zeros_like(weight), torch.zeros_like(weight)

    def update(self, index, weight, grad, state):
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        t = self._index_update_count[index]
        mean, var = state
        with torch.no_grad():
            g = self._rescaled(grad)
            mean.copy_(self.beta1 * mean + (1.0 - self.beta1) * g)
            var.copy_(self.beta2 * var + (1.0 - self.beta2) * g * g)
            if self.bias_correction:
                m_hat = mean / (1.0 - self.beta1 ** t)
                v_hat = var / (1.0 - self.beta2 ** t)
                step = m_hat / (v_hat.sqrt() + self.epsilon) + wd * weight
            else:
                step = mean / (var.sqrt() + self.epsilon) + wd * weight
            r1, r2 = weight.norm(), step.norm()
            if self.lower_bound:
                r1 = torch.clamp(r1, min=self.lower_bound)
            if self.upper_bound:
                r1 = torch.clamp(r1, max=self.upper_bound)
            ratio = r1 / r2 if bool(r1 != 0) and bool(r2 != 0) else torch.ones_like(r1)
            weight.sub_(lr * ratio * step)


class _mx_FTML(_mx_Optimizer):
    """MXNet FTML (Zheng & Kwok, follow the moving leader)."""

    def __init__(self, beta1=0.6, beta2=0.999, epsilon=1e-8, **kwargs):
        super().__init__(**kwargs)
        self.beta1, self.beta2, self.epsilon = beta1, beta2, epsilon

    def create_state(self, index, weight):
        return torch.zeros_like(weight), torch.zeros_like(weight), torch.zeros_like(weight)

    def update(self, index, weight, grad, state):
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        t = self._index_update_count[index]
        d, v, z = state
        with torch.no_grad():
            g = self._with_wd(grad, weight, wd)
            v.copy_(self.beta2 * v + (1.0 - self.beta2) * g * g)
            d_t = (1.0 - self.beta1 ** t) / lr * ((v / (1.0 - self.beta2 ** t)).sqrt() + self.epsilon)
            sigma = d_t - self.beta1 * d
            z.copy_(self.beta1 * z + (1.0 - self.beta1) * g - sigma * weight)
            d.copy_(d_t)
            weight.copy_(-z / d_t)


class _mx_DCASGD(_mx_Optimizer):
    """MXNet DCASGD (delay-compensated asynchronous SGD)."""

    def __init__(self, momentum=0.0, lamda=0.04, **kwargs):
        super().__init__(**kwargs)
        self.momentum, self.lamda = momentum, lamda

    def create_state(self, index, weight):
        return (torch.zeros_like(weight) if self.momentum != 0.0 else None), weight.detach().clone()

    def update(self, index, weight, grad, state):
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        mom, previous = state
        with torch.no_grad():
            g = grad * self.rescale_grad
            if self.clip_gradient is not None:
                g = _mx_clip_grad(g, self.clip_gradient)
            step = -lr * (g + wd * weight + self.lamda * g * g * (weight - previous))
            if mom is not None:
                mom.mul_(self.momentum).add_(step)
                step = mom
            previous.copy_(weight)
            weight.add_(step)


class _mx_SGLD(_mx_Optimizer):
    """MXNet SGLD: half an SGD step plus Gaussian noise of variance lr (torch's generator:
    the noise is not MXNet's draw)."""

    def update(self, index, weight, grad, state):
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        with torch.no_grad():
            g = grad * self.rescale_grad
            if self.clip_gradient is not None:
                g = _mx_clip_grad(g, self.clip_gradient)
            weight.add_(-lr / 2 * (g + wd * weight))
            weight.add_(torch.randn_like(weight) * lr ** 0.5)


def _mx_create_optimizer(name, **kwargs):
    """`mx.optimizer.create(name, **kwargs)`."""
    return _mx_Optimizer.create_optimizer(name, **kwargs)


class _mx_Trainer:
    """Gluon's Trainer (Note [Gluon's Trainer]): Gluon's constructor (params as a dict of
    tensors, sorted by name as Gluon does, or a list; an optimizer name with its parameters or
    an optimizer object), `step(batch_size)` = `allreduce_grads()` + `update(batch_size)`,
    learning_rate, set_learning_rate, _init_optimizer (a restart), save_states / load_states, and
    `zero_grad()` for MXNet's grad_req='write'. kvstore and compression only concern MXNet's device
    communication."""

    def __init__(self, params, optimizer, optimizer_params=None, kvstore="device", compression_params=None,
                 update_on_kvstore=None):
        # a store chosen at run time (SageMaker's scripts: 'dist_sync' on several hosts, 'local' on one): MXNet's
        # distributed training sums every worker's gradients, which one torch process cannot: loud, never silent
        if isinstance(kvstore, str) and kvstore.startswith(("dist", "horovod", "byteps")):
            raise NotImplementedError(f"kvstore '{kvstore}' is MXNet's distributed training over several workers: "
                                      "launch the translation under torchrun and wrap the model in torch's "
                                      "DistributedDataParallel (which averages gradients over the processes where "
                                      "MXNet sums them), or give a single-process kvstore such as 'local'")
        if isinstance(params, dict):
            params = [params[key] for key in sorted(params)]
        elif isinstance(params, torch.Tensor):
            params = [params]
        else:
            params = list(params)
        self._params = params
        for param in params:
            if not isinstance(param, torch.Tensor):
                raise ValueError(f"First argument must be a list or dict of Parameters, got list of {type(param)}.")
            param._mx_fresh = False
            _mx_watch_fresh(param)
        self._init_optimizer(optimizer, optimizer_params or {})
        self._scale = self._optimizer.rescale_grad

    def _init_optimizer(self, optimizer, optimizer_params):
        """Gluon's own (tutorials call it to restart with another learning rate): a new optimizer
        and fresh states for the same parameters; the gradient scale set at construction stays."""
        param_dict = dict(enumerate(self._params))
        if isinstance(optimizer, _mx_Optimizer):
            if optimizer_params:
                raise ValueError("optimizer_params must be None if optimizer is an instance of Optimizer instead "
                                 "of str")
            self._optimizer = optimizer
            optimizer.param_dict = param_dict
        else:
            self._optimizer = _mx_Optimizer.create_optimizer(optimizer, param_dict=param_dict, **optimizer_params)
        self._states = {}

    @property
    def learning_rate(self):
        return self._optimizer.learning_rate

    @property
    def optimizer(self):
        return self._optimizer

    def set_learning_rate(self, lr):
        self._optimizer.set_learning_rate(lr)

    def zero_grad(self):
        """MXNet's grad_req='write': the next backward sets these gradients rather than adding to
        them (parameters with grad_req='add' keep theirs)."""
        for param in self._params:
            if param.grad is not None and getattr(param, "_mx_grad_req", "write") != "add":
                param.grad.zero_()

    def step(self, batch_size, ignore_stale_grad=False):
        self._optimizer.rescale_grad = self._scale / batch_size
        self.allreduce_grads()
        self._update(ignore_stale_grad)

    def allreduce_grads(self):
        """In one process the slices of every device run through the one model (Note [one process,
        several devices]), so backward has already summed their gradients. With one process per
        device (Note [one process per device]) each gradient is summed over the processes, as
        MXNet's kvstore sums over devices (a sum, not DistributedDataParallel's average)."""
        for param in self._params:
            if getattr(param, "_mx_all_reduce", False) and param.grad is not None:
                torch.distributed.all_reduce(param.grad)

    def update(self, batch_size, ignore_stale_grad=False):
        self._optimizer.rescale_grad = self._scale / batch_size
        self._update(ignore_stale_grad)

    def _update(self, ignore_stale_grad=False):
        scaler = getattr(self, "_amp_loss_scaler", None)  # Note [MXNet's AMP] in amp.py
        if scaler is not None and scaler.has_overflow(self._params):
            return  # skip on overflow
        for i, param in enumerate(self._params):
            if not param.requires_grad:
                continue
            if not getattr(param, "_mx_fresh_hook", False):  # deferred when the Trainer was built
                param._mx_fresh = param.grad is not None
                _mx_watch_fresh(param)
            fresh = getattr(param, "_mx_fresh", False)
            if not fresh and not ignore_stale_grad:
                raise UserWarning(f"Gradient of Parameter {i} (shape {tuple(param.shape)}) has not been updated by "
                                  "backward since last `step`. This could mean a bug in your model that made it only "
                                  "use a subset of the Parameters (Blocks) for this iteration. If you are "
                                  "intentionally only using a subset, call step with ignore_stale_grad=True to "
                                  "suppress this warning and skip updating of Parameters with stale gradient")
            if not fresh:
                continue
            if i not in self._states:
                self._states[i] = self._optimizer.create_state_multi_precision(i, param.detach())
            self._optimizer.update_multi_precision(i, param.data, param.grad, self._states[i])
            param._mx_fresh = False

    def save_states(self, fname):
        torch.save({"states": self._states, "optimizer": _mx_optimizer_state(self._optimizer)}, fname)

    def load_states(self, fname):
        saved = torch.load(fname, weights_only=False)
        self._states = saved["states"]
        param_dict = self._optimizer.param_dict
        self._optimizer.__dict__.update(saved["optimizer"])
        self._optimizer.param_dict = param_dict


def _mx_watch_fresh(param):
    """Track whether backward wrote this parameter's gradient since the last step (MXNet's
    `_fresh_grad`). A parameter whose size is still deferred (a lazy layer before its first
    forward: a Trainer built right after initialize(), as MXNet's tutorials do) cannot take a
    hook yet; the Trainer watches it at its first step, when the first backward has run."""
    if param.requires_grad and not getattr(param, "_mx_fresh_hook", False) \
            and not torch.nn.parameter.is_lazy(param):
        param.register_post_accumulate_grad_hook(_mx_mark_fresh)
        param._mx_fresh_hook = True


def _mx_mark_fresh(param):
    """Backward wrote this parameter's gradient since the last step (MXNet's `_fresh_grad`)."""
    param._mx_fresh = True


def _mx_optimizer_state(optimizer):
    """What `save_states` keeps of an optimizer: everything but the parameters themselves."""
    return {k: v for k, v in optimizer.__dict__.items() if k != "param_dict"}


class _mx_LRScheduler:
    """MXNet's `mx.lr_scheduler.LRScheduler`: called with the optimizer's update count
    (num_update, counted per step, not per epoch), it returns the learning rate; warmup first."""

    def __init__(self, base_lr=0.01, warmup_steps=0, warmup_begin_lr=0, warmup_mode="linear"):
        self.base_lr = base_lr
        if not isinstance(warmup_steps, int):
            raise AssertionError("warmup_steps must be an int")
        self.warmup_steps = warmup_steps
        self.warmup_final_lr = base_lr
        self.warmup_begin_lr = warmup_begin_lr
        if self.warmup_begin_lr > self.warmup_final_lr:
            raise ValueError("Base lr has to be higher than warmup_begin_lr")
        if self.warmup_steps < 0:
            raise ValueError("Warmup steps has to be positive or 0")
        if warmup_mode not in ("linear", "constant"):
            raise ValueError("Supports only linear and constant modes of warmup")
        self.warmup_mode = warmup_mode

    def get_warmup_lr(self, num_update):
        if self.warmup_mode == "linear":
            increase = (self.warmup_final_lr - self.warmup_begin_lr) * float(num_update) / float(self.warmup_steps)
            return self.warmup_begin_lr + increase
        return self.warmup_begin_lr

    def __call__(self, num_update):
        raise NotImplementedError("must override this")


class _mx_FactorScheduler(_mx_LRScheduler):
    """MXNet FactorScheduler: base_lr * factor every `step` updates, not below stop_factor_lr."""

    def __init__(self, step, factor=1, stop_factor_lr=1e-8, base_lr=0.01, warmup_steps=0, warmup_begin_lr=0,
                 warmup_mode="linear"):
        super().__init__(base_lr, warmup_steps, warmup_begin_lr, warmup_mode)
        if step < 1:
            raise ValueError("Schedule step must be greater or equal than 1 round")
        if factor > 1.0:
            raise ValueError("Factor must be no more than 1 to make lr reduce")
        self.step, self.factor, self.stop_factor_lr, self.count = step, factor, stop_factor_lr, 0

    def __call__(self, num_update):
        if num_update < self.warmup_steps:
            return self.get_warmup_lr(num_update)
        while num_update > self.count + self.step:
            self.count += self.step
            self.base_lr *= self.factor
            if self.base_lr < self.stop_factor_lr:
                self.base_lr = self.stop_factor_lr
        return self.base_lr


class _mx_MultiFactorScheduler(_mx_LRScheduler):
    """MXNet MultiFactorScheduler: base_lr * factor after each update count in `step`."""

    def __init__(self, step, factor=1, base_lr=0.01, warmup_steps=0, warmup_begin_lr=0, warmup_mode="linear"):
        super().__init__(base_lr, warmup_steps, warmup_begin_lr, warmup_mode)
        if not (isinstance(step, list) and len(step) >= 1):
            raise AssertionError("step must be a non-empty list")
        for i, s in enumerate(step):
            if i != 0 and step[i] <= step[i - 1]:
                raise ValueError("Schedule step must be an increasing integer list")
            if s < 1:
                raise ValueError("Schedule step must be greater or equal than 1 round")
        if factor > 1.0:
            raise ValueError("Factor must be no more than 1 to make lr reduce")
        self.step, self.cur_step_ind, self.factor, self.count = step, 0, factor, 0

    def __call__(self, num_update):
        if num_update < self.warmup_steps:
            return self.get_warmup_lr(num_update)
        while self.cur_step_ind <= len(self.step) - 1:
            if num_update > self.step[self.cur_step_ind]:
                self.count = self.step[self.cur_step_ind]
                self.cur_step_ind += 1
                self.base_lr *= self.factor
            else:
                return self.base_lr
        return self.base_lr


class _mx_PolyScheduler(_mx_LRScheduler):
    """MXNet PolyScheduler: final_lr + (base_lr - final_lr) * (1 - t / max_steps) ** pwr."""

    def __init__(self, max_update, base_lr=0.01, pwr=2, final_lr=0, warmup_steps=0, warmup_begin_lr=0,
                 warmup_mode="linear"):
        super().__init__(base_lr, warmup_steps, warmup_begin_lr, warmup_mode)
        if not isinstance(max_update, int):
            raise AssertionError("max_update must be an int")
        if max_update < 1:
            raise ValueError("maximum number of updates must be strictly positive")
        self.power, self.base_lr_orig, self.max_update, self.final_lr = pwr, self.base_lr, max_update, final_lr
        self.max_steps = self.max_update - self.warmup_steps

    def __call__(self, num_update):
        if num_update < self.warmup_steps:
            return self.get_warmup_lr(num_update)
        if num_update <= self.max_update:
            self.base_lr = self.final_lr + (self.base_lr_orig - self.final_lr) * \
                pow(1 - float(num_update - self.warmup_steps) / float(self.max_steps), self.power)
        return self.base_lr


class _mx_CosineScheduler(_mx_LRScheduler):
    """MXNet CosineScheduler: final_lr + (base_lr - final_lr) * (1 + cos(pi * t / max_steps)) / 2."""

    def __init__(self, max_update, base_lr=0.01, final_lr=0, warmup_steps=0, warmup_begin_lr=0,
                 warmup_mode="linear"):
        super().__init__(base_lr, warmup_steps, warmup_begin_lr, warmup_mode)
        if not isinstance(max_update, int):
            raise AssertionError("max_update must be an int")
        if max_update < 1:
            raise ValueError("maximum number of updates must be strictly positive")
        self.base_lr_orig, self.max_update, self.final_lr = base_lr, max_update, final_lr
        self.max_steps = self.max_update - self.warmup_steps

    def __call__(self, num_update):
        if num_update < self.warmup_steps:
            return self.get_warmup_lr(num_update)
        if num_update <= self.max_update:
            angle = torch.tensor(torch.pi * (num_update - self.warmup_steps) / self.max_steps, dtype=torch.float64)
            self.base_lr = self.final_lr + (self.base_lr_orig - self.final_lr) * (1 + torch.cos(angle).item()) / 2
        return self.base_lr


class _mx_gcv_LRScheduler(_mx_LRScheduler):
    """GluonCV's `utils.LRScheduler(mode, base_lr, target_lr, niters, nepochs, iters_per_epoch,
    offset, power, step_iter, step_epoch, step_factor)`: 'constant', 'step', 'linear', 'poly' or
    'cosine' from base_lr to target_lr over niters updates (nepochs * iters_per_epoch when that is
    positive), starting `offset` updates in; called with the update count, it returns the rate and
    keeps it in `learning_rate`. An optimizer's learning_rate overwrites base_lr, as for MXNet's."""

    def __init__(self, mode, base_lr=0.1, target_lr=0, niters=0, nepochs=0, iters_per_epoch=0, offset=0,
                 power=2, step_iter=None, step_epoch=None, step_factor=0.1, baselr=None, targetlr=None):
        import warnings

        super().__init__()
        if mode not in ("constant", "step", "linear", "poly", "cosine"):
            raise AssertionError()
        if mode == "step" and step_iter is None and step_epoch is None:
            raise AssertionError()
        if baselr is not None:
            warnings.warn("baselr is deprecated. Please use base_lr.")
            base_lr = baselr if base_lr == 0.1 else base_lr
        if targetlr is not None:
            warnings.warn("targetlr is deprecated. Please use target_lr.")
            target_lr = targetlr if target_lr == 0 else target_lr
        self.mode, self.base_lr = mode, base_lr
        self.target_lr = base_lr if mode == "constant" else target_lr
        self.niters, self.step = niters, step_iter
        if nepochs * iters_per_epoch > 0:
            self.niters = nepochs * iters_per_epoch
            if step_epoch is not None:
                self.step = [s * iters_per_epoch for s in step_epoch]
        self.offset, self.power, self.step_factor = offset, power, step_factor

    def __call__(self, num_update):
        self.update(num_update)
        return self.learning_rate

    def update(self, num_update):
        import math

        last = self.niters - 1
        t = min(max(0, num_update - self.offset), last)
        if self.mode == "step":
            count = sum(1 for s in self.step if s <= t) if self.step is not None else 0
            self.learning_rate = self.base_lr * pow(self.step_factor, count)
            return
        factor = {"constant": lambda: 0, "linear": lambda: 1 - t / last,
                  "poly": lambda: pow(1 - t / last, self.power),
                  "cosine": lambda: (1 + math.cos(math.pi * t / last)) / 2}[self.mode]()
        self.learning_rate = self.target_lr + (self.base_lr - self.target_lr) * factor


class _mx_gcv_LRSequential(_mx_LRScheduler):
    """GluonCV's `utils.LRSequential(schedulers)`: each LRScheduler for its own `niters` updates,
    one after another (each one's offset is the updates before it), the last one after them all."""

    def __init__(self, schedulers):
        super().__init__()
        if not len(schedulers) > 0:
            raise AssertionError()
        self.update_sep, self.count, self.learning_rate, self.schedulers = [], 0, 0, []
        for scheduler in schedulers:
            self.add(scheduler)

    def add(self, scheduler):
        if not isinstance(scheduler, _mx_gcv_LRScheduler):
            raise AssertionError()
        scheduler.offset = self.count
        self.count += scheduler.niters
        self.update_sep.append(self.count)
        self.schedulers.append(scheduler)

    def __call__(self, num_update):
        self.update(num_update)
        return self.learning_rate

    def update(self, num_update):
        num_update = min(num_update, self.count - 1)
        index = next((i for i, sep in enumerate(self.update_sep) if sep > num_update), len(self.schedulers) - 1)
        self.schedulers[index].update(num_update)
        self.learning_rate = self.schedulers[index].learning_rate


class _mx_optimizer_module(metaclass=_mx_ModuleValue):
    """`mxnet.optimizer` as a value (`getattr(mx.optimizer, config['type'])(**args)`): its optimizers,
    `create` and `register` as xlate's helpers."""
    _mx_module = "mxnet.optimizer"

    @staticmethod
    def _mx_members():
        return {"SGD": _mx_SGD, "NAG": _mx_NAG, "Adam": _mx_Adam, "AdaGrad": _mx_AdaGrad, "RMSProp": _mx_RMSProp,
                "AdaDelta": _mx_AdaDelta, "Adamax": _mx_Adamax, "Nadam": _mx_Nadam, "Ftrl": _mx_Ftrl,
                "Signum": _mx_Signum, "LAMB": _mx_LAMB, "FTML": _mx_FTML, "DCASGD": _mx_DCASGD, "SGLD": _mx_SGLD,
                "Optimizer": _mx_Optimizer, "create": _mx_create_optimizer, "register": _mx_Optimizer.register}


class _mx_lr_scheduler_module(metaclass=_mx_ModuleValue):
    """`mxnet.lr_scheduler` as a value: its schedulers as xlate's helpers."""
    _mx_module = "mxnet.lr_scheduler"

    @staticmethod
    def _mx_members():
        return {"LRScheduler": _mx_LRScheduler, "FactorScheduler": _mx_FactorScheduler,
                "MultiFactorScheduler": _mx_MultiFactorScheduler, "PolyScheduler": _mx_PolyScheduler,
                "CosineScheduler": _mx_CosineScheduler}


def _mx_clip_grad_global_norm(parameters, max_norm, check_isfinite=True):
    """gluonnlp's `utils.clip_grad_global_norm(parameters, max_norm)`: the gradients of the parameters
    that have one (Gluon's grad_req != 'null': torch's requires_grad) scaled in place by 1 / max(1,
    total norm / max_norm), with no epsilon (MXNet's clip_global_norm adds 1e-8, torch's
    clip_grad_norm_ 1e-6); a total norm that is not finite scales by itself, with gluonnlp's warning.
    The total norm is returned as gluonnlp 0.10 returns it, a tensor of shape (1,)."""
    import warnings

    params = [p for p in parameters if p.requires_grad]
    if not params:
        raise AssertionError("No parameter found available for gradient norm.")
    with torch.no_grad():
        grads = [p.grad if p.grad is not None else torch.zeros_like(p) for p in params]  # MXNet's zeros
        device = grads[0].device
        total = torch.stack([g.float().pow(2).sum().to(device) for g in grads]).sum().sqrt().reshape(1)
        scale = total / max_norm
        finite = bool(torch.isfinite(scale).all())
        if check_isfinite and not finite:
            warnings.warn(UserWarning("nan or inf is detected. Clipping results will be undefined."), stacklevel=2)
        chosen = torch.maximum(torch.ones(1, device=device), scale) if finite else scale
        for p in params:
            if p.grad is not None:
                p.grad.mul_((1 / chosen).to(p.grad.device, p.grad.dtype))
    return total


def _mx_clip_global_norm(arrays, max_norm, check_isfinite=True):
    """`gluon.utils.clip_global_norm`: scales the arrays (gradients, in place) by max_norm /
    (total norm + 1e-8) when that is below 1 and returns the total norm before clipping (a
    float; with check_isfinite=False a tensor of shape (1,)). torch's clip_grad_norm_ takes
    parameters, not gradients, and adds 1e-6."""
    if len(arrays) == 0:
        raise AssertionError("arrays must not be empty")
    with torch.no_grad():
        device = arrays[0].device
        total = torch.stack([torch.dot(a.reshape(-1), a.reshape(-1)).to(device) for a in arrays]).sum().sqrt()
        total = total.reshape(1)
        if check_isfinite and not bool(torch.isfinite(total).all()):
            print(UserWarning("nan or inf is detected. Clipping results will be undefined."))
        scale = torch.minimum(max_norm / (total + 1e-8), torch.ones(1, device=device))
        for a in arrays:
            a.mul_(scale.to(a.device))
    return total.item() if check_isfinite else total
