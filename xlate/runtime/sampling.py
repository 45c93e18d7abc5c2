"""MXNet's random samplers with per-element parameters: `sample_*`, `random.*` with array arguments,
`sample_multinomial` (rules MX800-MX802).

# Note [sampler shapes]
# MXNet's `sample_<dist>(params..., shape=s)` draws `s` values for every element of its parameter
# arrays: the output's shape is `param.shape + s` (measured on 1.9.1). Its dtype is `dtype`, float32
# when none is given, whatever the parameters' dtype (float64 parameters give float32 samples).
# No gradient flows through a draw: MXNet's samplers give the parameters a zero gradient
# (gluonts writes `sigma * sample_normal(zeros, ones) + mu` where it wants one), so the helpers draw
# from detached parameters. `random.<dist>(...)` is the same sampler when its parameters are arrays
# and a draw of `shape` values (shape (1,) when none is given) when they are numbers; MXNet decides
# by the first parameter's type at run time, and so do the helpers. The random stream is torch's:
# seeded runs give other numbers than MXNet's, with the same distributions.
"""
import torch


def _mx_sample_size(shape):
    """MXNet's `shape=` of a sampler (None, an int or a tuple) as a tuple."""
    if shape is None:
        return ()
    if not hasattr(shape, "__len__") and hasattr(shape, "__index__"):  # an int, a NumPy integer
        return (int(shape),)
    return tuple(int(s) for s in shape)


def _mx_sample_draw(params, shape, dtype, draw):
    """Note [sampler shapes]: `draw(*params)` on the parameters, each repeated over `shape`."""
    tensors = [p.detach() if isinstance(p, torch.Tensor) else torch.as_tensor(p, dtype=torch.float32) for p in params]
    tensors = torch.broadcast_tensors(*tensors)
    extra = _mx_sample_size(shape)
    size = tuple(tensors[0].shape) + extra
    work = torch.float64 if any(t.dtype == torch.float64 for t in tensors) else torch.float32
    wide = [t.to(work).reshape(tuple(t.shape) + (1,) * len(extra)).expand(size) for t in tensors]
    with torch.no_grad():
        drawn = draw(*wide)
    return drawn.to(_mx_dtype(dtype) if dtype is not None else torch.float32)


def _mx_gamma_draw(alpha, scale):
    """Gamma with shape `alpha` and scale `scale` (mean alpha * scale): MXNet's `beta` is a scale,
    torch.distributions.Gamma takes a rate."""
    return torch.distributions.Gamma(alpha, torch.ones_like(alpha)).sample() * scale


def _mx_sample_normal(mu=None, sigma=None, shape=(), dtype=None, out=None, name=None):
    """MXNet's sample_normal: N(mu, sigma), sigma the standard deviation (Note [sampler shapes])."""
    _mx_no_out(out)
    return _mx_sample_draw((mu, sigma), shape, dtype, lambda m, s: torch.normal(m, s))


def _mx_sample_uniform(low=None, high=None, shape=(), dtype=None, out=None, name=None):
    """MXNet's sample_uniform: U[low, high) (Note [sampler shapes])."""
    _mx_no_out(out)
    return _mx_sample_draw((low, high), shape, dtype, lambda lo, hi: lo + (hi - lo) * torch.rand_like(lo))


def _mx_sample_gamma(alpha=None, beta=None, shape=(), dtype=None, out=None, name=None):
    """MXNet's sample_gamma: shape alpha and SCALE beta, mean alpha * beta (Note [sampler shapes])."""
    _mx_no_out(out)
    return _mx_sample_draw((alpha, beta), shape, dtype, _mx_gamma_draw)


def _mx_sample_exponential(lam=None, shape=(), dtype=None, out=None, name=None):
    """MXNet's sample_exponential: RATE lam, mean 1 / lam (Note [sampler shapes])."""
    _mx_no_out(out)
    return _mx_sample_draw((lam,), shape, dtype, lambda rate: torch.empty_like(rate).exponential_() / rate)


def _mx_sample_poisson(lam=None, shape=(), dtype=None, out=None, name=None):
    """MXNet's sample_poisson: Poisson(lam), counts in a float dtype by default (Note [sampler shapes])."""
    _mx_no_out(out)
    return _mx_sample_draw((lam,), shape, dtype, torch.poisson)


def _mx_sample_negative_binomial(k=None, p=None, shape=(), dtype=None, out=None, name=None):
    """MXNet's sample_negative_binomial: failures before the k-th success, success probability p
    (mean k (1 - p) / p), drawn as MXNet does, a Poisson of a Gamma(k, scale (1 - p) / p)."""
    _mx_no_out(out)
    return _mx_sample_draw((k, p), shape, dtype, lambda k_, p_: torch.poisson(_mx_gamma_draw(k_, (1 - p_) / p_)))


def _mx_sample_generalized_negative_binomial(mu=None, alpha=None, shape=(), dtype=None, out=None, name=None):
    """MXNet's sample_generalized_negative_binomial: mean mu, variance mu + alpha mu^2; a Poisson of
    a Gamma(1 / alpha, scale alpha mu), and Poisson(mu) where alpha is 0."""
    _mx_no_out(out)

    def draw(m, a):
        safe = torch.where(a > 0, a, torch.ones_like(a))
        rate = torch.where(a > 0, _mx_gamma_draw(1 / safe, safe * m), m)
        return torch.poisson(rate)
    return _mx_sample_draw((mu, alpha), shape, dtype, draw)


def _mx_sample_multinomial(data=None, shape=(), get_prob=False, dtype="int32", out=None, name=None):
    """MXNet's sample_multinomial (and random.multinomial): draws category indices from the
    probabilities on data's last axis, `shape` of them per distribution; the output's shape is
    data.shape[:-1] + shape, and (1,) where that is empty. With get_prob=True, also the log of each
    drawn category's probability, differentiable in data (MXNet's REINFORCE gradient) and in data's
    dtype. MXNet expects each row to sum to 1; torch.multinomial normalises it."""
    _mx_no_out(out)
    extra = _mx_sample_size(shape)
    batch = tuple(data.shape[:-1])
    count = 1
    for s in extra:
        count *= s
    rows = data.detach().reshape(-1, data.shape[-1])
    drawn = torch.multinomial(rows.float() if rows.dtype == torch.float16 else rows, count, replacement=True)
    size = (batch + extra) or (1,)
    indices = drawn.reshape(size)
    samples = indices.to(_mx_dtype(dtype))
    if not get_prob:
        return samples
    picked = torch.gather(data.reshape(-1, data.shape[-1]), 1, drawn).reshape(size)
    return [samples, torch.log(picked)]


def _mx_random_draw(sampler, numbers, params, shape, dtype, ctx, out):
    """`random.<dist>`: MXNet's sampler `sampler` where the first parameter is an array; where it is
    a number, `numbers(*params, size)` with `shape` values (shape (1,), or out's, when none is given),
    float32 unless dtype says otherwise (Note [sampler shapes])."""
    if isinstance(params[0], torch.Tensor):
        drawn = sampler(*params, shape=shape, dtype=dtype)
    else:
        if shape is None:
            size = tuple(out.shape) if out is not None else (1,)
        else:
            size = _mx_sample_size(shape)
        device = torch.device(ctx) if isinstance(ctx, str) else ctx
        wide = [torch.full(size, float(p), dtype=torch.float64, device=device) for p in params]
        with torch.no_grad():
            drawn = numbers(*wide).to(_mx_dtype(dtype) if dtype is not None else torch.float32)
    if out is not None:
        return out.copy_(drawn)
    return drawn


def _mx_random_normal(loc=0.0, scale=1.0, shape=None, dtype=None, ctx=None, out=None, name=None):
    """MXNet's random.normal with array or number parameters (Note [sampler shapes])."""
    return _mx_random_draw(_mx_sample_normal, torch.normal, (loc, scale), shape, dtype, ctx, out)


def _mx_random_uniform(low=0.0, high=1.0, shape=None, dtype=None, ctx=None, out=None, name=None):
    """MXNet's random.uniform with array or number parameters (Note [sampler shapes])."""
    return _mx_random_draw(_mx_sample_uniform, lambda lo, hi: lo + (hi - lo) * torch.rand_like(lo), (low, high),
                           shape, dtype, ctx, out)


def _mx_random_gamma(alpha=1.0, beta=1.0, shape=None, dtype=None, ctx=None, out=None, name=None):
    """MXNet's random.gamma: shape alpha, SCALE beta (Note [sampler shapes])."""
    return _mx_random_draw(_mx_sample_gamma, _mx_gamma_draw, (alpha, beta), shape, dtype, ctx, out)


def _mx_random_exponential(scale=1.0, shape=None, dtype=None, ctx=None, out=None, name=None):
    """MXNet's random.exponential: takes the SCALE (mean), and draws with rate 1 / scale."""
    rate = 1.0 / scale
    return _mx_random_draw(_mx_sample_exponential, lambda lam: torch.empty_like(lam).exponential_() / lam, (rate,),
                           shape, dtype, ctx, out)


def _mx_random_poisson(lam=1.0, shape=None, dtype=None, ctx=None, out=None, name=None):
    """MXNet's random.poisson (Note [sampler shapes])."""
    return _mx_random_draw(_mx_sample_poisson, torch.poisson, (lam,), shape, dtype, ctx, out)


def _mx_random_negative_binomial(k=1, p=1, shape=None, dtype=None, ctx=None, out=None, name=None):
    """MXNet's random.negative_binomial: failures before the k-th success (Note [sampler shapes])."""
    return _mx_random_draw(_mx_sample_negative_binomial, lambda k_, p_: torch.poisson(_mx_gamma_draw(k_, (1 - p_) / p_)),
                           (k, p), shape, dtype, ctx, out)


def _mx_random_generalized_negative_binomial(mu=1, alpha=1, shape=None, dtype=None, ctx=None, out=None, name=None):
    """MXNet's random.generalized_negative_binomial: mean mu, variance mu + alpha mu^2."""
    def numbers(m, a):
        return _mx_sample_generalized_negative_binomial(m, a)
    return _mx_random_draw(_mx_sample_generalized_negative_binomial, numbers, (mu, alpha), shape, dtype, ctx, out)


def _mx_random_multinomial(data=None, shape=None, get_prob=False, out=None, dtype="int32", name=None):
    """MXNet's random.multinomial: sample_multinomial with random.*'s argument order."""
    return _mx_sample_multinomial(data, shape=shape, get_prob=get_prob, dtype=dtype, out=out)


def _mx_random_randn(*shape, loc=0.0, scale=1.0, dtype=None, ctx=None, out=None, **kwargs):
    """mx.nd.random.randn(*shape, loc=0, scale=1, dtype, ctx, out): normal draws of the shape given
    as separate arguments; MXNet's random.normal otherwise."""
    return _mx_random_normal(loc, scale, shape or None, dtype, ctx, out)
