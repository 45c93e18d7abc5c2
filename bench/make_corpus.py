"""Generate a large, realistic MXNet/Gluon source file for benchmarking xlate.

The output is deterministic for a given (lines, seed): a seeded ``random.Random`` picks
names, shapes, axes and which idioms go where. It mixes what real MXNet code contains:
several import spellings, Block/HybridBlock classes, training loops with autograd.record,
Trainer and split_and_load (not converted yet, only reported), helper functions dense with
the NDArray idioms the rules cover (``rules/0xx_ndarray.toml``, ``rules/5xx_context_seed.toml``),
numpy code that must stay untouched, comments and blank lines.

    .venv/bin/python bench/make_corpus.py                 # ~3000 lines to stdout
    .venv/bin/python bench/make_corpus.py -n 1000 -o corpus.py --seed 7
"""
from __future__ import annotations

import argparse
import ast
import random
import sys

DEFAULT_LINES = 3000
DEFAULT_SEED = 20240611

# ---------------------------------------------------------------------------------------
# vocabularies

_ARRAY_NAMES = [
    "x", "h", "feat", "feats", "logits", "scores", "emb", "hidden", "out", "enc", "dec",
    "query", "key", "value", "attn", "weight", "bias", "grad", "state", "mask", "prob",
    "pred", "inp", "data", "sample", "proj", "ctx_vec", "memory", "gate", "resid", "tok_emb",
    "pos_emb", "pooled", "act", "z", "y_hat", "mu", "sigma", "alpha", "beta", "delta",
]
_OUT_NAMES = [
    "res", "tmp", "t", "y", "r", "v", "u", "w2", "m", "p", "q", "acc", "norm", "flat",
    "merged", "stacked", "part", "summed", "avg", "peak", "picked", "clipped", "masked",
    "expanded", "tiled", "rep", "sorted_v", "order", "idx", "top", "cur", "nxt", "buf",
]
_VERBS = [
    "compute", "build", "prepare", "apply", "merge", "score", "project", "pool", "encode",
    "decode", "normalize", "gather", "mask", "align", "reduce", "attend", "mix", "update",
    "collect", "shift", "smooth", "rank", "select", "pack", "unpack", "blend", "route",
]
_NOUNS = [
    "attention", "features", "logits", "embeddings", "hidden", "batch", "scores", "window",
    "tokens", "heads", "states", "residual", "gates", "memory", "labels", "targets",
    "weights", "anchors", "boxes", "patches", "frames", "spans", "context", "outputs",
]
_CLASS_STEMS = [
    "Residual", "Attention", "Gated", "Conv", "Dense", "Highway", "Pooling", "Projection",
    "Encoder", "Decoder", "Embedding", "Mixer", "Bottleneck", "Squeeze", "Temporal",
    "Spatial", "Graph", "Fusion", "Classifier", "Regressor",
]
_CLASS_TAILS = ["Block", "Unit", "Layer", "Cell", "Head", "Module", "Net", "Stack"]
_COMMENTS = [
    "# shapes follow the NTC layout unless stated otherwise",
    "# keep this in float32: the loss is unstable in float16",
    "# TODO: vectorise this once the data loader returns padded batches",
    "# the extra dimension is the head axis",
    "# see the paper, eq. (3)",
    "# NOTE: MXNet evaluates lazily; waitall() makes timings honest",
    "# batch axis first",
    "# (N, C) -> (N, 1, C)",
    "# mask out padding before the softmax",
    "# numerically stable variant",
    "# copied from the reference implementation",
    "# this path is only taken at inference time",
    "# FIXME: the last batch may be smaller",
    "# temperature scaling",
    "# reduce over everything but the batch axis",
]
_DOC_LINES = [
    "Follows the original implementation closely.",
    "Inputs are (batch, time, channels) unless noted.",
    "All arrays live on the same context.",
    "Returns a new array; the inputs are not modified.",
    "Used by the training loop below.",
    "The result is detached from the autograd graph.",
]
_CTX = ["ctx", "mx.cpu()", "mx.gpu(0)", "mx.cpu(0)", "device"]
_DTYPES = ["'float32'", "'float16'", "'int32'", "'int64'", "np.float32", "'uint8'"]
_TOPK_ARGS = ["", ", k=5", ", k=3, ret_typ='value'", ", k=3, ret_typ='value', is_ascend=True",
              ", axis=1, k=2, ret_typ='both'", ", k=top_k, ret_typ='indices'"]
_PICK_ARGS = ["", ", axis=1", ", axis=-1, keepdims=True", ", axis=1, mode='wrap'"]
_TRAINER_EXTRA = ["", ", 'wd': 1e-4", ", 'momentum': 0.9"]
_ACTS = ["'relu'", "'sigmoid'", "'tanh'", "'softrelu'", "'softsign'"]


class Gen:
    """Emits source lines with an indentation level; chooses with a seeded RNG."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.lines: list[str] = []
        self.level = 0
        self.serial = 0
        self.used_names: set[str] = set()

    # -- output helpers -------------------------------------------------------
    def emit(self, text: str = "") -> None:
        for line in text.split("\n"):
            self.lines.append(("    " * self.level + line) if line else "")

    def blank(self, n: int = 1) -> None:
        self.lines.extend([""] * n)

    def maybe_comment(self, p: float = 0.15) -> None:
        if self.rng.random() < p:
            self.emit(self.rng.choice(_COMMENTS))

    # -- random choices ---------------------------------------------------------
    def pick(self, seq):
        return self.rng.choice(seq)

    def dim(self) -> int:
        return self.pick([2, 3, 4, 8, 16, 32, 64, 128, 256, 10, 12, 5, 7])

    def shape(self, n: int | None = None) -> str:
        n = n or self.pick([1, 2, 2, 3, 3, 4])
        dims = [str(self.dim()) for _ in range(n)]
        return "(" + ", ".join(dims) + ("," if n == 1 else "") + ")"

    def axis(self) -> int:
        return self.pick([0, 1, 1, 2, -1, -1])

    def unique(self, stem: str) -> str:
        self.serial += 1
        name = f"{stem}_{self.serial}" if stem in self.used_names or self.rng.random() < 0.5 else stem
        if name in self.used_names:
            name = f"{stem}_{self.serial}"
        self.used_names.add(name)
        return name

    def func_name(self) -> str:
        return self.unique(f"{self.pick(_VERBS)}_{self.pick(_NOUNS)}")

    def class_name(self) -> str:
        return self.unique(f"{self.pick(_CLASS_STEMS)}{self.pick(_CLASS_TAILS)}").replace("_", "")


# ---------------------------------------------------------------------------------------
# NDArray statements: each returns (source line, new variable or None, is the new value
# numpy). `P` is the namespace prefix (nd, mx.nd or F), `a`/`b` existing arrays.

def _stmt_templates():
    T = []

    def t(fn, weight=1):
        T.extend([fn] * weight)
        return fn

    # creation
    t(lambda g, P, a, b, o: (f"{o} = {P}.array({g.pick(['[1, 2, 3]', '[[0.5, 1.5], [2.5, 3.5]]', 'np_vals', 'raw_list', '[0] * 8'])})", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {P}.array({a}.asnumpy(), dtype={g.pick(_DTYPES)})", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {P}.array(np_vals, ctx={g.pick(_CTX)})", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {P}.{g.pick(['zeros', 'ones', 'empty'])}({g.shape()}{g.pick(['', ', ctx=ctx', ', dtype=' + g.pick(_DTYPES), ', ctx=' + g.pick(_CTX) + ', dtype=' + g.pick(_DTYPES)])})", o, False), 3)
    t(lambda g, P, a, b, o: (f"{o} = {P}.{g.pick(['zeros', 'ones'])}({g.dim()})", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {P}.full({g.shape(2)}, {g.pick(['7', '0.5', '-1e9', 'fill_value'])})", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {P}.{g.pick(['zeros_like', 'ones_like'])}({a})", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {P}.arange({g.pick(['5', 'n', '0, n, 2', '2, 10, 2, repeat=2', 'seq_len', 'start=1, stop=n + 1'])})", o, False), 2)
    t(lambda g, P, a, b, o: (f"{o} = {P}.random.uniform({g.pick(['-1, 1', '0, 1', 'low=-0.1, high=0.1', '-scale, scale'])}, shape={g.shape()}{g.pick(['', ', ctx=ctx'])})", o, False), 2)
    t(lambda g, P, a, b, o: (f"{o} = {P}.random.normal({g.pick(['0, 1', '0, 0.01', 'loc=0, scale=sigma_0'])}, shape={g.shape()}{g.pick(['', ', ctx=ctx', ', dtype=' + g.pick(_DTYPES)])})", o, False), 2)
    t(lambda g, P, a, b, o: (f"{o} = {P}.random.randint(0, {g.dim()}, shape={g.shape(1)})", o, False))
    # conversions
    t(lambda g, P, a, b, o: (f"{o} = {a}.asnumpy()", o, True), 2)
    t(lambda g, P, a, b, o: (f"{o} = {a}.{g.pick(['sum', 'mean', 'max'])}().asscalar()", None, False), 2)
    t(lambda g, P, a, b, o: (f"loss_val = float({a}.mean().asscalar())", None, False))
    t(lambda g, P, a, b, o: (f"{o} = {a}.astype({g.pick(_DTYPES)})", o, False), 2)
    t(lambda g, P, a, b, o: (f"{o} = {P}.cast({a}, dtype={g.pick(_DTYPES)})", o, False))
    # shapes
    t(lambda g, P, a, b, o: (f"{o} = {a}.reshape({g.pick(['(0, -1)', '(-1, %d)' % g.dim(), '(-3, -2)', '(0, 0, -1)', '(-4, 2, -1, -2)', '(%d, -1)' % g.dim(), '(-1,)', '(0, -1, %d)' % g.dim(), 'shape=(-3, 0)'])})", o, False), 4)
    t(lambda g, P, a, b, o: (f"{o} = {a}.reshape({g.dim()}, -1)", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {P}.reshape({a}, shape={g.pick(['(-3, -2)', '(0, -1)', '(-1, 0)', '(0, 0, -1, 1)'])})", o, False), 2)
    t(lambda g, P, a, b, o: (f"{o} = {a}.expand_dims({g.pick(['1', 'axis=0', 'axis=-1', '2'])})", o, False), 2)
    t(lambda g, P, a, b, o: (f"{o} = {P}.expand_dims({a}, axis={g.axis()})", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {P}.transpose({a}, axes={g.pick(['(1, 0, 2)', '(0, 2, 1)', '(0, 2, 1, 3)', '(2, 0, 1)'])})", o, False), 2)
    t(lambda g, P, a, b, o: (f"{o} = {a}.transpose({g.pick(['', '(1, 0)', '(0, 2, 1)', 'axes=(1, 0, 2)'])})", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {P}.swapaxes({a}, {g.pick(['0, 1', '1, 2', 'dim1=1, dim2=2'])})", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {P}.flatten({a})", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {a}.flatten()", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {P}.concat({a}, {b}{g.pick(['', ', dim=0', ', dim=1', ', dim=-1', ', dim=2'])})", o, False), 3)
    t(lambda g, P, a, b, o: (f"{o} = {P}.concat(*[{a}, {b}, {a}], dim={g.axis()})", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {P}.stack({a}, {b}{g.pick(['', ', axis=0', ', axis=1', ', axis=-1'])})", o, False), 2)
    t(lambda g, P, a, b, o: (f"{o} = {P}.split({a}, {g.pick(['2', '3', 'num_outputs=4, axis=0', 'num_outputs=2, axis=1, squeeze_axis=True', 'num_heads, axis=-1'])})", None, False), 2)
    t(lambda g, P, a, b, o: (f"{o}, {o}_b = {P}.split({a}, num_outputs=2, axis={g.axis()})", None, False))
    t(lambda g, P, a, b, o: (f"{o} = {P}.dot({a}, {b}{g.pick(['', ', transpose_b=True', ', transpose_a=True'])})", o, False), 3)
    t(lambda g, P, a, b, o: (f"{o} = {P}.batch_dot({a}, {b}{g.pick(['', ', transpose_b=True', ', transpose_a=True', ', transpose_a=True, transpose_b=True'])})", o, False), 2)
    # reductions
    t(lambda g, P, a, b, o: (f"{o} = {P}.{g.pick(['sum', 'mean', 'max', 'min', 'prod', 'nansum'])}({a}{g.pick(['', ', axis=1', ', axis=0, keepdims=True', ', axis=(1, 2)', ', axis=-1, keepdims=True', ', axis=0, exclude=True', ', axis=1, exclude=True'])})", o, False), 5)
    t(lambda g, P, a, b, o: (f"{o} = {a}.{g.pick(['sum', 'mean', 'max', 'min'])}({g.pick(['', 'axis=1', 'axis=0, keepdims=True', 'axis=-1'])})", o, False), 3)
    t(lambda g, P, a, b, o: (f"{o} = ({a} * {b}).sum(axis={g.axis()}) / {a}.shape[0]", o, False))
    # softmax / argmax / topk
    t(lambda g, P, a, b, o: (f"{o} = {P}.{g.pick(['softmax', 'log_softmax'])}({a}{g.pick(['', ', axis=1', ', axis=-1', ', axis=1, temperature=2.0'])})", o, False), 3)
    t(lambda g, P, a, b, o: (f"{o} = {a}.softmax({g.pick(['', 'axis=-1', 'axis=1'])})", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {P}.{g.pick(['argmax', 'argmin'])}({a}{g.pick(['', ', axis=1', ', axis=-1', ', axis=0, keepdims=True'])})", o, False), 2)
    t(lambda g, P, a, b, o: (f"{o} = {a}.argmax(axis={g.axis()})", o, False), 2)
    t(lambda g, P, a, b, o: (f"{o} = {P}.topk({a}{g.pick(_TOPK_ARGS)})", o, False), 2)
    t(lambda g, P, a, b, o: (f"{o} = {P}.where({g.pick([a + ' > 0', 'mask', a + ' >= threshold'])}, {a}, {b})", o, False), 2)
    t(lambda g, P, a, b, o: (f"{o} = {P}.clip({a}, {g.pick(['0, 1', '-5, 5', '-clip_value, clip_value', 'a_min=1e-6, a_max=1.0'])})", o, False), 2)
    t(lambda g, P, a, b, o: (f"{o} = {P}.one_hot({g.pick(['label', 'labels', 'tokens', a])}, {g.pick(['10', 'depth', 'num_classes', 'vocab_size'])})", o, False), 2)
    t(lambda g, P, a, b, o: (f"{o} = {P}.pick({a}, {g.pick(['label', 'labels', 'idx'])}{g.pick(_PICK_ARGS)})", o, False), 2)
    # broadcasting and elementwise
    t(lambda g, P, a, b, o: (f"{o} = {P}.{g.pick(['broadcast_add', 'broadcast_sub', 'broadcast_mul', 'broadcast_div', 'broadcast_minus', 'broadcast_plus', 'broadcast_power', 'broadcast_maximum', 'elemwise_add', 'elemwise_mul', 'broadcast_greater', 'broadcast_equal', 'broadcast_lesser_equal'])}({a}, {g.pick([b, b + ' - ' + a, b + ' + 1e-8', '1 - ' + b])})", o, False), 4)
    t(lambda g, P, a, b, o: (f"{o} = {P}.broadcast_to({a}, shape={g.pick(['(0, %d)' % g.dim(), '(%d, %d)' % (g.dim(), g.dim()), 'target_shape'])})", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {a}.broadcast_to({g.shape(2)})", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {a}.broadcast_like({b})", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {P}.broadcast_axis({a}, axis={g.axis()}, size={g.dim()})", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {P}.SequenceMask({a}, {g.pick(['lengths', 'valid_len', 'seq_len'])}, use_sequence_length=True, value={g.pick(['-1e6', '0', '-1e9'])}, axis={g.pick([0, 1])})", o, False), 2)
    t(lambda g, P, a, b, o: (f"{o} = {P}.{g.pick(['relu', 'sigmoid', 'tanh', 'exp', 'sqrt', 'square', 'abs', 'log1p', 'floor', 'sign', 'reciprocal', 'negative'])}({a})", o, False), 4)
    t(lambda g, P, a, b, o: (f"{o} = {P}.relu({a}) + {P}.exp(-{b})", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {P}.log({a} + 1e-{g.pick([6, 8, 12])})", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {P}.{g.pick(['maximum', 'minimum'])}({a}, {g.pick(['0', b, '1e-6', 'floor_val'])})", o, False), 2)
    t(lambda g, P, a, b, o: (f"{o} = {a}.copy()", o, False), 2)
    t(lambda g, P, a, b, o: (f"{o} = {a}.copyto({g.pick(['ctx', 'mx.cpu()', 'mx.gpu(1)'])})", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {P}.repeat({a}, {g.pick(['2', 'repeats=3', 'n'])}, axis={g.axis()})", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {a}.repeat({g.pick(['2', 'repeats=num_heads'])}, axis={g.axis()})", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {P}.tile({a}, {g.pick(['(2, 1)', 'reps=(1, n)', '(batch_size, 1, 1)'])})", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {P}.squeeze({a}{g.pick(['', ', axis=1', ', axis=(1, 2)', ', axis=-1'])})", o, False))
    t(lambda g, P, a, b, o: (f"assert isinstance({a}, {P}.NDArray), type({a})", None, False))
    t(lambda g, P, a, b, o: (f"{o} = {a}.size", None, False))
    t(lambda g, P, a, b, o: (f"n_elems = {a}.size // {a}.shape[0]", None, False))
    t(lambda g, P, a, b, o: (f"{o} = {P}.Activation({a}, act_type={g.pick(_ACTS)})", o, False), 2)
    t(lambda g, P, a, b, o: (f"{o} = {P}.LeakyReLU({a}, slope={g.pick(['0.1', '0.2', '0.01'])})", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {P}.{g.pick(['sort', 'argsort'])}({a}{g.pick(['', ', axis=0', ', is_ascend=False', ', axis=-1, is_ascend=False'])})", o, False), 2)
    t(lambda g, P, a, b, o: (f"{o} = {P}.slice_axis({a}, axis={g.axis()}, begin={g.pick(['0', '1', 'start'])}, end={g.pick(['None', '-1', 'stop', str(g.dim())])})", o, False), 2)
    t(lambda g, P, a, b, o: (f"{o} = {a}.slice_axis(axis=1, begin=0, end={g.dim()})", o, False))
    # devices
    t(lambda g, P, a, b, o: (f"{o} = {a}.as_in_context({g.pick(_CTX)})", o, False), 3)
    t(lambda g, P, a, b, o: (f"dev = {a}.context", None, False))
    t(lambda g, P, a, b, o: (f"{o} = {P}.zeros({a}.shape, ctx={a}.context)", o, False))
    # plain arithmetic and indexing (nothing to convert)
    t(lambda g, P, a, b, o: (f"{o} = {a} * {g.pick(['0.5', 'scale', '2', 'alpha_t'])} + {b}", o, False), 2)
    t(lambda g, P, a, b, o: (f"{o} = {a}[:, {g.pick(['0', '1:', ':-1', '::2'])}]", o, False))
    t(lambda g, P, a, b, o: (f"{o} = {a} / ({b} + 1e-5)", o, False))
    return T


_STMTS = _stmt_templates()


def _prefix(g: Gen, module_F: bool) -> str:
    return g.pick(["nd", "nd", "nd", "mx.nd"] + (["F"] if module_F else []))


def helper_function(g: Gen) -> None:
    """A function dense with NDArray idioms."""
    P = _prefix(g, True)
    name = g.func_name()
    params = g.rng.sample(_ARRAY_NAMES, g.pick([1, 2, 2, 3]))
    extras = g.pick(["", ", ctx=mx.cpu()", ", axis=1", ", eps=1e-6", ", num_heads=4", ", training=False"])
    g.emit(f"def {name}({', '.join(params)}{extras}):")
    g.level += 1
    if g.rng.random() < 0.7:
        g.emit(f'"""{g.pick(_DOC_LINES)}"""')
    arrays = list(params)
    if g.rng.random() < 0.5:
        v = g.pick(["base", "buf0", "seed_arr", "zeros0"])
        g.emit(f"{v} = {P}.{g.pick(['zeros', 'ones'])}({g.shape(2)})")
        arrays.append(v)
    nps: list[str] = []
    for _ in range(g.rng.randint(5, 13)):
        g.maybe_comment(0.12)
        a = g.pick(arrays)
        b = g.pick(arrays)
        o = g.pick(_OUT_NAMES)
        line, new, is_np = g.pick(_STMTS)(g, P, a, b, o)
        g.emit(line)
        if new:
            (nps if is_np else arrays).append(new)
        if g.rng.random() < 0.06:
            g.emit(f"if {g.pick(arrays)}.shape[0] == 0:")
            g.level += 1
            g.emit(f"return {P}.zeros((1,))")
            g.level -= 1
        if g.rng.random() < 0.04 and nps:
            g.emit(f"logging.debug('stats: %s', {g.pick(nps)}.mean(axis=0))")
    if g.rng.random() < 0.2:
        g.emit(f"{P}.waitall()")
    g.emit(f"return {g.pick(arrays[-3:])}")
    g.level -= 1


def hybrid_block(g: Gen) -> str:
    name = g.class_name()
    base = g.pick(["gluon.HybridBlock", "gnn.HybridBlock", "gluon.nn.HybridBlock", "HybridBlock"])
    units = g.pick(["units", "channels", "hidden_size", "num_hidden"])
    g.emit(f"class {name}({base}):")
    g.level += 1
    g.emit(f'"""{g.pick(_DOC_LINES)}"""')
    g.blank()
    g.emit(f"def __init__(self, {units}, dropout=0.{g.rng.randint(0, 5)}, **kwargs):")
    g.level += 1
    g.emit(f"super({name}, self).__init__(**kwargs)" if g.rng.random() < 0.6 else "super().__init__(**kwargs)")
    g.emit(f"self._{units} = {units}")
    g.emit("with self.name_scope():")
    g.level += 1
    layers = []
    for i in range(g.rng.randint(2, 5)):
        stem, kind = g.pick([
            ("proj", f"gnn.Dense({units}, flatten=False)"),
            ("dense", f"gnn.Dense({units}, activation='relu', flatten=False)"),
            ("fc", f"gluon.nn.Dense({units} * 4, use_bias=False)"),
            ("conv", f"gnn.Conv1D({units}, kernel_size=3, padding=1)"),
            ("conv", f"gnn.Conv2D({units}, kernel_size=(3, 3), strides=1, padding=1)"),
            ("bn", "gnn.BatchNorm()"), ("norm", "gnn.LayerNorm(epsilon=1e-5)"),
            ("drop", "gnn.Dropout(dropout)"), ("emb", f"gnn.Embedding(vocab_size, {units})"),
        ])
        attr = f"{stem}{i}"
        g.emit(f"self.{attr} = {kind}")
        layers.append(attr)
    if g.rng.random() < 0.4:
        g.emit(f"self.scale = self.params.get('scale', shape=(1, {units}), init=init.One())")
    g.level -= 2
    g.blank()
    g.emit("def hybrid_forward(self, F, x, *args, **kwargs):")
    g.level += 1
    g.emit("h = x")
    for attr in layers:
        g.emit(f"h = self.{attr}(h)")
        g.maybe_comment(0.1)
        r = g.rng.random()
        if r < 0.2:
            g.emit(f"h = F.Activation(h, act_type={g.pick(_ACTS)})")
        elif r < 0.35:
            g.emit("h = F.relu(h)")
        elif r < 0.45:
            g.emit(f"h = F.softmax(h, axis={g.axis()})")
        elif r < 0.55:
            g.emit("h = F.broadcast_add(h, F.zeros_like(h))")
        elif r < 0.62:
            g.emit("h = F.reshape(h, shape=(0, -1))")
    g.emit(g.pick(["return h", "return x + h", "return F.concat(x, h, dim=-1)", "return F.relu(x + h)"]))
    g.level -= 2
    return name


def block(g: Gen) -> str:
    name = g.class_name()
    base = g.pick(["gluon.Block", "gnn.Block", "gluon.nn.Block", "Block"])
    g.emit(f"class {name}({base}):")
    g.level += 1
    g.emit(f"def __init__(self, num_classes={g.pick([2, 10, 100, 1000])}, hidden={g.dim()}, **kwargs):")
    g.level += 1
    g.emit(f"super({name}, self).__init__(**kwargs)")
    g.emit("with self.name_scope():")
    g.level += 1
    g.emit("self.body = gnn.Sequential()")
    for _ in range(g.rng.randint(2, 4)):
        g.emit(g.pick([
            "self.body.add(gnn.Dense(hidden, activation='relu'))",
            "self.body.add(gnn.Dropout(0.5))",
            "self.body.add(gnn.BatchNorm(), gnn.Activation('relu'))",
            "self.body.add(gnn.Conv2D(hidden, 3, padding=1), gnn.MaxPool2D(2))",
        ]))
    g.emit("self.output = gnn.Dense(num_classes)")
    g.emit("self.rnn = gluon.rnn.LSTM(hidden, num_layers=2, layout='NTC')" if g.rng.random() < 0.3 else "self.rnn = None")
    g.level -= 2
    g.blank()
    g.emit("def forward(self, x, valid_len=None):")
    g.level += 1
    g.emit(f"x = x.as_in_context({g.pick(['self.output.weight.list_ctx()[0]', 'mx.cpu()', 'x.context'])})")
    g.emit("h = self.body(x)")
    g.emit("if self.rnn is not None:")
    g.level += 1
    g.emit("h = self.rnn(h.expand_dims(axis=1)).reshape((0, -1))")
    g.level -= 1
    g.emit("if valid_len is not None:")
    g.level += 1
    g.emit("h = nd.SequenceMask(h, valid_len, use_sequence_length=True, axis=1)")
    g.level -= 1
    g.emit(g.pick(["return self.output(h)", "return nd.log_softmax(self.output(h), axis=-1)",
                   "logits = self.output(h)\nreturn logits, nd.argmax(logits, axis=1)"]))
    g.level -= 2
    return name


def train_loop(g: Gen) -> None:
    name = g.unique(g.pick(["train", "train_epoch", "fit", "run_training", "train_multi_gpu"]))
    g.emit(f"def {name}(net, train_data, num_epochs={g.pick([1, 5, 10, 20])}, lr={g.pick(['0.1', '0.01', '1e-3', '5e-4'])}, batch_size={g.pick([32, 64, 128, 256])}):")
    g.level += 1
    g.emit(g.pick([
        "ctx = [mx.gpu(i) for i in range(mx.context.num_gpus())] or [mx.cpu()]",
        "ctx = [mx.gpu(i) for i in range(num_gpus)] if num_gpus > 0 else [mx.cpu()]",
        "ctx = try_all_gpus()",
    ]))
    g.emit(f"net.initialize(init.{g.pick(['Xavier()', 'Normal(sigma=0.01)', 'Xavier(magnitude=2.24)', 'Uniform(0.07)'])}, ctx=ctx, force_reinit=True)")
    if g.rng.random() < 0.5:
        g.emit("net.hybridize()")
    g.emit(f"trainer = gluon.Trainer(net.collect_params(), {g.pick(['sgd', 'adam', 'nag', 'adagrad'])!r}, {{'learning_rate': lr{g.pick(_TRAINER_EXTRA)}}})")
    g.emit(f"loss_fn = gluon.loss.{g.pick(['SoftmaxCrossEntropyLoss()', 'L2Loss()', 'SigmoidBinaryCrossEntropyLoss()', 'L1Loss()'])}")
    g.emit("for epoch in range(num_epochs):")
    g.level += 1
    g.emit("train_l_sum, train_acc_sum, n, start = 0.0, 0.0, 0, time.time()")
    g.emit("for i, (X, y) in enumerate(train_data):")
    g.level += 1
    split = g.pick(["gluon.utils.split_and_load", "gutils.split_and_load"])
    g.emit(f"gpu_Xs = {split}(X, ctx{g.pick(['', ', even_split=False', ', batch_axis=0'])})")
    g.emit(f"gpu_ys = {split}(y, ctx)")
    g.emit("with autograd.record():")
    g.level += 1
    g.emit("y_hats = [net(gpu_X) for gpu_X in gpu_Xs]")
    g.emit("ls = [loss_fn(y_hat, gpu_y) for y_hat, gpu_y in zip(y_hats, gpu_ys)]")
    g.level -= 1
    g.emit("for l in ls:")
    g.level += 1
    g.emit("l.backward()")
    g.level -= 1
    g.emit(f"trainer.step({g.pick(['batch_size', 'X.shape[0]'])})")
    g.emit("train_l_sum += sum([l.sum().asscalar() for l in ls])")
    g.emit("train_acc_sum += sum([(y_hat.argmax(axis=1) == gpu_y.astype('float32')).sum().asscalar()")
    g.emit("                      for y_hat, gpu_y in zip(y_hats, gpu_ys)])")
    g.emit("n += y.size")
    g.maybe_comment(0.3)
    g.emit("if i % 100 == 0:")
    g.level += 1
    g.emit("logging.info('epoch %d iter %d loss %.4f', epoch, i, train_l_sum / max(n, 1))")
    g.level -= 2
    g.emit("nd.waitall()")
    g.emit("print('epoch %d, loss %.4f, train acc %.3f, time %.1f sec'")
    g.emit("      % (epoch + 1, train_l_sum / n, train_acc_sum / n, time.time() - start))")
    if g.rng.random() < 0.5:
        g.emit(f"net.save_parameters('{name}_%d.params' % epoch)")
    g.level -= 1
    g.emit("return net")
    g.level -= 1


def evaluate(g: Gen) -> None:
    name = g.unique(g.pick(["evaluate_accuracy", "evaluate", "eval_metric", "validate"]))
    g.emit(f"def {name}(data_iter, net, ctx=[mx.cpu()]):")
    g.level += 1
    g.emit("if isinstance(ctx, mx.Context):")
    g.level += 1
    g.emit("ctx = [ctx]")
    g.level -= 1
    g.emit("acc_sum, n = nd.array([0]), 0")
    g.emit("for batch in data_iter:")
    g.level += 1
    g.emit("features, labels = batch")
    g.emit("Xs = gutils.split_and_load(features, ctx)")
    g.emit("ys = gutils.split_and_load(labels, ctx)")
    g.emit("for X, y in zip(Xs, ys):")
    g.level += 1
    g.emit("y = y.astype('float32')")
    g.emit("acc_sum += (net(X).argmax(axis=1) == y).sum().copyto(mx.cpu())")
    g.emit("n += y.size")
    g.level -= 1
    g.emit("acc_sum.wait_to_read()")
    g.level -= 1
    g.emit("return acc_sum.asscalar() / n")
    g.level -= 1


def numpy_function(g: Gen) -> None:
    """numpy only: every line must come out unchanged."""
    name = g.unique(g.pick(["np_normalize", "compute_stats", "load_matrix", "make_batches",
                            "pad_sequences", "moving_average", "np_softmax", "confusion"]))
    g.emit(f"def {name}(raw, axis={g.pick([0, 1, -1])}, eps=1e-{g.pick([5, 6, 8])}):")
    g.level += 1
    g.emit(f'"""{g.pick(_DOC_LINES)} (numpy)"""')
    g.emit(f"arr = np.asarray(raw, dtype=np.{g.pick(['float32', 'float64'])})")
    stmts = [
        "mean = arr.mean(axis=axis, keepdims=True)",
        "std = arr.std(axis=axis, keepdims=True)",
        "arr = (arr - mean) / (std + eps)",
        f"flat = np.reshape(arr, ({g.dim()}, -1))",
        "total = np.sum(arr, axis=axis)",
        "order = np.argsort(total)[::-1]",
        f"padded = np.zeros(({g.dim()}, {g.dim()}), dtype=np.int64)",
        "stacked = np.stack([arr, arr * 2], axis=0)",
        "joined = np.concatenate([arr, arr], axis=-1)",
        "e = np.exp(arr - np.max(arr, axis=-1, keepdims=True))",
        "probs = e / e.sum(axis=-1, keepdims=True)",
        "clipped = np.clip(arr, 0.0, 1.0)",
        "idx = np.where(arr > 0)[0]",
        f"window = np.ones({g.dim()}) / {g.dim()}.0",
        "smoothed = np.convolve(arr.ravel(), window, mode='same')",
        "rng = np.random.RandomState(0)",
        "noise = rng.normal(0, 0.1, size=arr.shape)",
        "arr = arr + noise",
        "eye = np.eye(arr.shape[-1])",
        "top = np.argmax(arr, axis=-1)",
        "hist, edges = np.histogram(arr, bins=10)",
    ]
    for s in g.rng.sample(stmts, g.rng.randint(4, 9)):
        g.emit(s)
        g.maybe_comment(0.1)
    g.emit("return arr")
    g.level -= 1


def data_section(g: Gen) -> None:
    name = g.unique(g.pick(["load_data", "make_dataset", "synthetic_data", "build_loader"]))
    g.emit(f"def {name}(num_examples={g.pick([1000, 5000, 60000])}, num_inputs={g.dim()}, batch_size={g.pick([32, 64, 256])}):")
    g.level += 1
    g.emit(f"true_w = nd.array({g.pick(['[2, -3.4]', '[1.0, 0.5, -2.0]', 'np.random.randn(num_inputs)'])})")
    g.emit("features = nd.random.normal(scale=1, shape=(num_examples, num_inputs))")
    g.emit("labels = nd.dot(features, true_w) + 4.2")
    g.emit("labels += nd.random.normal(scale=0.01, shape=labels.shape)")
    g.emit("dataset = gluon.data.ArrayDataset(features, labels)")
    g.emit("loader = gluon.data.DataLoader(dataset, batch_size, shuffle=True,")
    g.emit(f"                               num_workers={g.pick([0, 2, 4])}, last_batch='rollover')")
    g.emit("return loader")
    g.level -= 1


def utilities(g: Gen) -> None:
    """Device and seed utilities."""
    choice = g.rng.randrange(4)
    if choice == 0:
        g.emit(f"def {g.unique('try_gpu')}(i=0):")
        g.level += 1
        g.emit('"""Return gpu(i) if it exists, otherwise cpu()."""')
        g.emit("if mx.context.num_gpus() >= i + 1:")
        g.level += 1
        g.emit("return mx.gpu(i)")
        g.level -= 1
        g.emit("return mx.cpu()")
        g.level -= 1
    elif choice == 1:
        g.emit(f"def {g.unique('set_seed')}(seed={g.pick([0, 42, 2020, 1234])}):")
        g.level += 1
        g.emit("random.seed(seed)")
        g.emit("np.random.seed(seed)")
        g.emit("mx.random.seed(seed)")
        g.emit(f"mx.random.seed(seed, ctx={g.pick(['mx.gpu(0)', 'mx.cpu()', 'ctx'])})" if g.rng.random() < 0.3 else "os.environ['PYTHONHASHSEED'] = str(seed)")
        g.level -= 1
    elif choice == 2:
        g.emit(f"def {g.unique('try_all_gpus')}():")
        g.level += 1
        g.emit("ctxes = [mx.gpu(i) for i in range(mx.num_gpus())]")
        g.emit("return ctxes if ctxes else [mx.cpu()]")
        g.level -= 1
    else:
        g.emit(f"def {g.unique('grad_clipping')}(params, theta, ctx):")
        g.level += 1
        g.emit("norm = nd.array([0], ctx)")
        g.emit("for param in params:")
        g.level += 1
        g.emit("norm += (param.grad ** 2).sum()")
        g.level -= 1
        g.emit("norm = norm.sqrt().asscalar()")
        g.emit("if norm > theta:")
        g.level += 1
        g.emit("for param in params:")
        g.level += 1
        g.emit("param.grad[:] *= theta / norm")
        g.level -= 3


def header(g: Gen) -> None:
    g.emit('"""Training and model code for a sequence classifier, MXNet/Gluon edition.')
    g.emit("")
    g.emit("Generated by bench/make_corpus.py for benchmarking the converter; it mirrors the")
    g.emit("shape of real research code: layers, helpers, data loading and training loops.")
    g.emit('"""')
    g.emit("from __future__ import print_function")
    g.blank()
    g.emit("import logging\nimport os\nimport random\nimport time")
    g.blank()
    g.emit("import numpy as np")
    g.emit("import mxnet as mx")
    g.emit("import mxnet.ndarray as F")
    g.emit("from mxnet import nd, gluon, autograd, init")
    g.emit("from mxnet.gluon import nn as gnn")
    g.emit("from mxnet.gluon import utils as gutils")
    g.emit("from mxnet.gluon import Block, HybridBlock")
    g.blank()
    g.emit("logging.basicConfig(level=logging.INFO)")
    g.emit("ctx = mx.gpu(0) if mx.context.num_gpus() > 0 else mx.cpu()")
    g.emit("device = ctx")
    g.emit("num_gpus = mx.context.num_gpus()")
    g.emit("np_vals = np.linspace(0, 1, 8, dtype=np.float32)")
    g.emit("raw_list = [0.1, 0.2, 0.3]")
    g.emit("n, seq_len, start, stop, top_k = 8, 16, 0, 4, 5")
    g.emit("depth = num_classes = vocab_size = 10")
    g.emit("fill_value, threshold, clip_value, floor_val, scale, sigma_0 = 0.0, 0.5, 5.0, 1e-6, 0.1, 0.02")
    g.emit("label = labels = tokens = idx = nd.array([1, 0, 3])")
    g.emit("lengths = valid_len = nd.array([3, 2, 1])")
    g.emit("mask = nd.ones((3, 3))")
    g.emit("target_shape = (3, 3)")
    g.emit("batch_size, num_heads, alpha_t, total_loss = 64, 4, 0.9, 0.0")
    g.emit("mx.random.seed(42)")
    g.blank(2)


def generate(lines: int = DEFAULT_LINES, seed: int = DEFAULT_SEED) -> str:
    """A valid Python module of about `lines` lines (never fewer)."""
    g = Gen(seed)
    header(g)
    models: list[str] = []
    kinds = [helper_function] * 6 + [hybrid_block] * 2 + [block, train_loop, evaluate, numpy_function,
                                                          numpy_function, data_section, utilities]
    while len(g.lines) < lines - 12:
        kind = g.pick(kinds)
        g.maybe_comment(0.3)
        if kind in (hybrid_block, block):
            models.append(kind(g))
        else:
            kind(g)
        g.blank(2)
    g.emit("def main():")
    g.level += 1
    model = models[-1] if models else "gnn.Dense"
    g.emit(f"net = {model}(10)")
    g.emit("net.initialize(ctx=ctx)")
    g.emit("x = nd.random.uniform(shape=(4, 10), ctx=ctx)")
    g.emit("print(net(x).asnumpy().shape)")
    g.level -= 1
    g.blank(2)
    g.emit('if __name__ == "__main__":')
    g.emit("    main()")
    source = "\n".join(g.lines) + "\n"
    ast.parse(source)  # the generator must only ever produce valid Python
    return source


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-n", "--lines", type=int, default=DEFAULT_LINES, help="approximate line count")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED)
    p.add_argument("-o", "--output", help="file to write (default: stdout)")
    args = p.parse_args(argv)
    src = generate(args.lines, args.seed)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(src)
        print(f"wrote {args.output}: {src.count(chr(10))} lines", file=sys.stderr)
    else:
        sys.stdout.write(src)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
