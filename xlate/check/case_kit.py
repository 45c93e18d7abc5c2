"""The pieces the rule case tables are made of (rule_cases.py for NDArray and devices,
dialect_cases.py for the numpy dialect): a case, its snippet helpers and the shape strategies
its drawn examples come from. hypothesis is imported when a strategy is drawn, not here."""
from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Optional, Sequence

HEADER = "import mxnet as mx\nimport numpy as np\nfrom mxnet import nd\n"
# numpy-dialect cases (xlate/check/dialect_cases.py): `np` is mxnet.numpy there, the inputs are
# mx.np arrays and MXNet runs them in numpy mode (np_shape and np_array on, as npx.set_np() does)
DIALECT_HEADER = "import mxnet as mx\nfrom mxnet import np, npx\n"


@lru_cache(maxsize=4096)
def convert(source: str):
    """`convert_source` with every rule enabled, once per snippet and process: a case's drawn
    examples, and the several test files and self-check rows that run the same case, convert
    the same text (2,585 conversions of 768 texts in three test files). The result is shared:
    callers read it and never change it. Conversion's own determinism is tested where it is
    the subject (tests/test_cold.py, tests/test_reliability.py), never through this cache."""
    from xlate.convert.engine import convert_source

    return convert_source(source)


@dataclass
class Case:
    id: str
    src: str
    args: tuple = ()
    codes: tuple = ()
    grad: tuple = ()
    # a strategy factory: () -> strategy of (specs, options); None keeps `args` fixed
    draw: Optional[Callable[[], Any]] = None
    options: dict = field(default_factory=dict)
    dialect: bool = False  # an mx.np snippet (DIALECT_HEADER)

    @property
    def source(self) -> str:
        return self.source_for(self.options)

    def source_for(self, options: dict) -> str:
        text = textwrap.dedent(self.src).lstrip("\n")
        for key, value in options.items():
            text = text.replace("{" + key + "}", repr(value))
        return (DIALECT_HEADER if self.dialect else HEADER) + text

    @property
    def rule(self) -> str:
        """The rule the case is filed under: its first code ("" for a case of code left as written,
        which no rule rewrites: it has no row of `xlate check --rules`, its test runs it)."""
        return self.codes[0].partition(":")[0] if self.codes else ""

    def inputs(self):
        """A strategy of (input specs, snippet options)."""
        if self.draw is None:
            from hypothesis import strategies as st

            return st.just((self.args, dict(self.options)))
        return self.draw()


def C(id, codes, src, *args, grad=(), draw=None, options=None, dialect=False):
    return Case(id, src, tuple(args), (codes,) if isinstance(codes, str) else tuple(codes), tuple(grad), draw,
                dict(options or {}), dialect)


def ret(expr: str) -> str:
    """A snippet whose f returns `expr` of its inputs x, y, z (as many as it uses)."""
    params = [p for p in ("x", "y", "z") if re.search(rf"\b{p}\b", expr)]
    return f"def f({', '.join(params)}):\n    return {expr}\n"


def meth(expr: str) -> str:
    """Like `ret`, with `a` bound to x as a known NDArray (for method forms)."""
    params = [p for p in ("x", "y", "z") if p == "x" or re.search(rf"\b{p}\b", expr)]
    return f"def f({', '.join(params)}):\n    a = x.as_in_context(mx.cpu())\n    return {expr}\n"


# -- shape strategies (small sizes; keyword-only knobs) ----------------------------------------

def _check_knobs(min_rank: int, max_rank: int, max_side: int) -> None:
    if not 0 <= min_rank <= max_rank:
        raise ValueError(f"need 0 <= min_rank <= max_rank, got {min_rank}, {max_rank}")
    if max_side < 1:
        raise ValueError(f"max_side must be at least 1, got {max_side}")


def same(n: int = 1, *, min_rank: int = 1, max_rank: int = 4, max_side: int = 4, kind: Optional[str] = None):
    """() -> `n` inputs of one drawn shape (as ("kind", shape) specs with `kind`)."""
    _check_knobs(min_rank, max_rank, max_side)

    def strategy():
        from hypothesis import strategies as st

        shape = st.lists(st.integers(1, max_side), min_size=min_rank, max_size=max_rank).map(tuple)
        return shape.map(lambda s: (tuple((kind, s) if kind else s for _ in range(n)), {}))
    return strategy


def along(n: int, *, axis: Optional[int] = None, min_rank: int = 1, max_rank: int = 4, max_side: int = 4,
          hole: str = "dim", negative: bool = True):
    """() -> `n` inputs whose shapes agree but at one axis (concat); `axis` None draws it into `hole`
    (from [-rank, rank), or [0, rank) without `negative`)."""
    _check_knobs(min_rank, max_rank, max_side)

    def strategy():
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            rank = draw(st.integers(max(min_rank, 1 if axis is None else (axis + 1 if axis >= 0 else -axis)),
                                    max_rank))
            ax = draw(st.integers(-rank if negative else 0, rank - 1)) if axis is None else axis
            base = draw(st.lists(st.integers(1, max_side), min_size=rank, max_size=rank))
            shapes = []
            for _ in range(n):
                s = list(base)
                s[ax] = draw(st.integers(1, max_side))
                shapes.append(tuple(s))
            return tuple(shapes), ({} if axis is not None else {hole: ax})
        return draw()
    return strategy


def on_axis(n: int = 1, *, min_rank: int = 1, max_rank: int = 4, max_side: int = 4, hole: str = "axis",
            extra_axis: bool = False):
    """() -> `n` inputs of one shape and a drawn axis in [-rank, rank) (`extra_axis`: in [-rank-1, rank])."""
    _check_knobs(min_rank, max_rank, max_side)

    def strategy():
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            shape = tuple(draw(st.lists(st.integers(1, max_side), min_size=max(min_rank, 1), max_size=max_rank)))
            rank = len(shape) + int(extra_axis)
            return tuple(shape for _ in range(n)), {hole: draw(st.integers(-rank, rank - 1))}
        return draw()
    return strategy


def splits(*, max_rank: int = 4, max_side: int = 3, max_outputs: int = 3):
    """() -> one input and `axis`, `n`, `squeeze` for nd.split: the axis' size is a multiple of n."""
    _check_knobs(1, max_rank, max_side)

    def strategy():
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            shape = draw(st.lists(st.integers(1, max_side), min_size=1, max_size=max_rank))
            axis = draw(st.integers(-len(shape), len(shape) - 1))
            n = draw(st.integers(1, max_outputs))
            squeeze = draw(st.booleans())
            shape[axis] = n * (1 if squeeze else draw(st.integers(1, max_side)))
            return (tuple(shape),), {"axis": axis, "n": n, "squeeze": squeeze}
        return draw()
    return strategy


def reductions(*, min_rank: int = 1, max_rank: int = 4, max_side: int = 4, all_axes: bool = True,
               none_keepdims: bool = True):
    """() -> one input and `axis` (an int, a tuple of distinct axes or None), `keepdims`.

    A tuple may cover every axis unless `all_axes=False`; `none_keepdims=False` draws axis=None
    only with keepdims=False."""
    _check_knobs(min_rank, max_rank, max_side)

    def strategy():
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            shape = tuple(draw(st.lists(st.integers(1, max_side), min_size=max(min_rank, 1), max_size=max_rank)))
            rank = len(shape)
            one = st.integers(-rank, rank - 1)
            several = st.lists(st.integers(0, rank - 1), min_size=1, max_size=rank if all_axes else rank - 1,
                               unique=True).map(tuple)
            axis = draw(st.one_of(one, several, st.none()))
            keepdims = draw(st.booleans()) if axis is not None or none_keepdims else False
            return (shape,), {"axis": axis, "keepdims": keepdims}
        return draw()
    return strategy


def broadcasting(n: int = 2, *, min_rank: int = 1, max_rank: int = 4, max_side: int = 4,
                 kinds: Sequence[Optional[str]] = ()):
    """() -> `n` inputs of one rank whose sizes are the drawn size or 1 (each broadcasts)."""
    _check_knobs(min_rank, max_rank, max_side)

    def strategy():
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            full = draw(st.lists(st.integers(1, max_side), min_size=min_rank, max_size=max_rank))
            shapes = [tuple(s if draw(st.booleans()) else 1 for s in full) for _ in range(n)]
            specs = tuple((kinds[i], s) if i < len(kinds) and kinds[i] else s for i, s in enumerate(shapes))
            return specs, {}
        return draw()
    return strategy


def fixed_rank(*ranks: int, max_side: int = 4, kind: Optional[str] = None):
    """() -> one input per rank in `ranks`, every size drawn (ops that need a given rank)."""
    def strategy():
        from hypothesis import strategies as st

        side = st.integers(1, max_side)
        shapes = st.tuples(*(st.tuples(*([side] * r)) for r in ranks))
        return shapes.map(lambda ss: (tuple((kind, s) if kind else s for s in ss), {}))
    return strategy


def matmuls(*, batch: int = 0, transpose_a: bool = False, transpose_b: bool = False, max_side: int = 4):
    """() -> x, y for a (batched) matrix product with the transpose flags, every size drawn."""
    def strategy():
        from hypothesis import strategies as st

        side = st.integers(1, max_side)

        def shapes(t):
            lead, m, k, n = t[:batch], t[batch], t[batch + 1], t[batch + 2]
            x = (*lead, k, m) if transpose_a else (*lead, m, k)
            y = (*lead, n, k) if transpose_b else (*lead, k, n)
            return (x, y), {}
        return st.tuples(*([side] * (batch + 3))).map(shapes)
    return strategy



def shaped(rank: int, *, min_side: int = 1, max_side: int = 4, **options):
    """() -> one input of `rank` drawn sizes, and each option drawn from `options[name](st)`
    (`st` is hypothesis.strategies: `shaped(4, nsize=lambda st: st.integers(1, 6))`)."""
    _check_knobs(rank, rank, max_side)

    def strategy():
        from hypothesis import strategies as st

        shape = st.tuples(*([st.integers(min_side, max_side)] * rank))
        return st.tuples(shape, st.fixed_dictionaries({k: f(st) for k, f in options.items()})).map(
            lambda so: ((so[0],), so[1]))
    return strategy


def convolutions(*, rank: int = 2, transposed: bool = False, max_side: int = 5):
    """() -> x, weight and bias for nd.Convolution/Deconvolution of `rank` spatial axes, and the
    `kernel`, `stride`, `pad`, `dilate`, `groups`, `filters` (and `adj`) options, sizes valid."""
    _check_knobs(rank, rank, max_side)

    def strategy():
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            def axes(lo, hi):
                return tuple(draw(st.integers(lo, hi)) for _ in range(rank))
            groups = draw(st.integers(1, 2))
            c, o = groups * draw(st.integers(1, 2)), groups * draw(st.integers(1, 2))
            kernel, stride, dilate, pad = axes(1, 3), axes(1, 2), axes(1, 2), axes(0, 2)
            sizes = []
            for k, s, d, p in zip(kernel, stride, dilate, pad):
                side = draw(st.integers(1, max_side))
                sizes.append(side if transposed else max(side, d * (k - 1) + 1 - 2 * p))
            options = {"kernel": kernel, "stride": stride, "pad": pad, "dilate": dilate, "groups": groups,
                       "filters": o}
            if transposed:  # torch and MXNet want adj below the stride; the output must not be empty
                options["adj"] = tuple(draw(st.integers(0, s - 1)) for s in stride)
                options["pad"] = tuple(min(p, ((h - 1) * s + d * (k - 1) + a) // 2) for p, h, s, d, k, a in
                                       zip(pad, sizes, stride, dilate, kernel, options["adj"]))
                weight = (c, o // groups, *kernel)
            else:
                weight = (o, c // groups, *kernel)
            return ((draw(st.integers(1, 2)), c, *sizes), weight, (o,)), options
        return draw()
    return strategy


def poolings(*, rank: int = 2, torch_exact: bool = False, max_side: int = 6):
    """() -> one input for nd.Pooling and its `kernel`, `stride`, `pad`, `kind`, `convention` and
    `include` options: with `torch_exact`, what torch's own pooling computes the same way
    (valid convention, max/avg, padding at most half the kernel), else any of MXNet's
    (sum, 'full', padding up to the kernel's size - 1; average with 'full' only in fixed cases,
    as MXNet's own backward differs from its forward there)."""
    _check_knobs(rank, rank, max_side)

    def strategy():
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            kernel = tuple(draw(st.integers(1, 3)) for _ in range(rank))
            stride = tuple(draw(st.integers(1, 3)) for _ in range(rank))
            pad = tuple(draw(st.integers(0, k // 2 if torch_exact else k - 1)) for k in kernel)
            sizes = tuple(max(draw(st.integers(1, max_side)), k - 2 * p) for k, p in zip(kernel, pad))
            kinds = ("max", "avg") if torch_exact else ("max", "avg", "sum")
            options = {"kernel": kernel, "stride": stride, "pad": pad, "kind": draw(st.sampled_from(kinds)),
                       "convention": "valid" if torch_exact else draw(st.sampled_from(("valid", "full"))),
                       "include": draw(st.booleans())}
            if options["kind"] == "avg" and options["convention"] == "full":  # MX061: reviewed, fixed cases
                options["kind"] = "sum"
            return ((draw(st.integers(1, 2)), draw(st.integers(1, 3)), *sizes),), options
        return draw()
    return strategy


def slices(*, max_rank: int = 4, max_side: int = 5, negative_steps: bool = True):
    """() -> one input and `begin`, `end`, `step` tuples for nd.slice: bounds None or anywhere in
    [-side - 1, side + 1] (Python clips them; MXNet rejects a begin before -side), steps None or +-1, +-2 (negative ones with
    `negative_steps`). The result is never empty: after backward through an empty slice MXNet
    1.9.1 allocates arrays it cannot read back ("Check failed: delay_alloc")."""
    _check_knobs(1, max_rank, max_side)

    def strategy():
        from hypothesis import assume, strategies as st

        @st.composite
        def draw(draw):
            shape = draw(st.lists(st.integers(1, max_side), min_size=1, max_size=max_rank))
            n = draw(st.integers(1, len(shape)))
            begin = tuple(draw(st.one_of(st.none(), st.integers(-s, s + 1))) for s in shape[:n])
            end = tuple(draw(st.one_of(st.none(), st.integers(-s - 1, s + 1))) for s in shape[:n])
            steps = [None, 1, 2] + ([-1, -2] if negative_steps else [])
            step = tuple(draw(st.sampled_from(steps)) for _ in range(n)) if draw(st.booleans()) else ()
            sizes = [len(range(*slice(b, e, step[i] if step else None).indices(s)))
                     for i, (b, e, s) in enumerate(zip(begin, end, shape))]
            assume(all(sizes))
            return (tuple(shape),), {"begin": begin, "end": end, "step": step}
        return draw()
    return strategy


def boxes(*, max_boxes: int = 5, center: bool = False):
    """() -> two ("const", boxes) inputs of shape (n, 4) and (m, 4) for box_iou: corners (x1, y1,
    x2, y2) with sides in [-0.1, 0.6] (some negative: MXNet gives them area 0), or (x, y, w, h)."""
    def strategy():
        from hypothesis import strategies as st

        coord = st.integers(-20, 100).map(lambda v: v / 100)
        side = st.integers(-10, 60).map(lambda v: v / 100)

        def box(t):
            x, y, w, h = t
            return [x, y, w, h] if center else [x, y, x + w, y + h]
        one = st.tuples(coord, coord, side, side).map(box)
        many = st.lists(one, min_size=1, max_size=max_boxes)
        return st.tuples(many, many).map(lambda ab: ((("const", ab[0]), ("const", ab[1])), {}))
    return strategy


def nms_inputs(*, max_boxes: int = 8):
    """() -> one ("const", rows) input of shape (batch, n, 6) (id, score, x1, y1, x2, y2) with ties
    among the scores and three classes, and box_nms options `thresh`, `valid`, `topk`, `force`,
    `background`, `fmt` (in, out)."""
    def strategy():
        from hypothesis import strategies as st

        score = st.integers(0, 10).map(lambda v: v / 10)  # coarse: ties are common
        coord = st.integers(-10, 100).map(lambda v: v / 100)
        side = st.integers(-5, 60).map(lambda v: v / 100)
        row = st.tuples(st.integers(0, 2).map(float), score, coord, coord, side, side).map(
            lambda r: [r[0], r[1], r[2], r[3], r[2] + r[4], r[3] + r[5]])

        @st.composite
        def draw(draw):
            n = draw(st.integers(1, max_boxes))
            rows = draw(st.lists(st.lists(row, min_size=n, max_size=n), min_size=1, max_size=2))
            options = {"thresh": draw(st.sampled_from([0.1, 0.3, 0.5, 0.7])),
                       "valid": draw(st.sampled_from([0.0, 0.25, -1.0])),
                       "topk": draw(st.sampled_from([-1, 1, 3, 20])), "force": draw(st.booleans()),
                       "background": draw(st.sampled_from([-1, 0, 2])),
                       "fmt": draw(st.sampled_from([("corner", "corner"), ("corner", "center"),
                                                    ("center", "corner"), ("center", "center")]))}
            return (("const", rows),), options
        return draw()
    return strategy
