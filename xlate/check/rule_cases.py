"""Each NDArray/device rule's translation, run against live MXNet: the case table and its runner.

A case is an MXNet snippet that defines `f`, the inputs it takes, and the rule codes the
conversion must report. `check_case` converts the snippet with every rule enabled, runs both
versions on the same inputs (float32, asymmetric, non-zero, free of ties unless the case is
about ties) and compares values, shapes and dtypes; with `grad`, it also compares the
gradients of the listed inputs under the same random head gradient.

Each case has its inputs as fixed specs (`args`, the example the tests run) and, where the
op allows, a hypothesis strategy (`draw`) of specs around them, and of options filled into
`{name}` holes of the snippet (a random axis, say) together with `options`, the holes'
values for the fixed example. `xlate check --rules` draws from `Case.inputs()`.

Method forms need a receiver xlate knows to be an NDArray; `a = x.as_in_context(mx.cpu())`
makes one (it returns `x` itself in MXNet, as `x.to(device)` does in torch, so gradients
still flow to `x`).

Random draws (MX015), the seed (MX507) and counting GPUs (MX503) cannot be compared value by
value: `SPECIAL_CHECKS` holds their checks, which raise AssertionError on a difference.

The numpy dialect's cases (family 7xx) are in dialect_cases.py and appended to CASES; both
tables are built from case_kit.py (Case, snippet helpers, shape strategies).

mxnet, torch and hypothesis are imported when a check runs, not with this module.
"""
from __future__ import annotations

import contextlib
import io
import warnings
import zlib
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

import numpy as np

from xlate.check.compare import EXACT, Mismatch, compare, tolerance_for
from xlate.check.case_kit import (  # noqa: F401  (the table's pieces, found here by its users)
    DIALECT_HEADER, HEADER, C, Case, along, boxes, broadcasting, convolutions, fixed_rank, matmuls, meth, nms_inputs,
    on_axis, poolings, reductions, ret, same, shaped, slices, splits)


TIES = ("const", [[1.0, 3.0, 3.0, -2.0], [5.0, 5.0, 0.5, 5.0], [-1.0, -4.0, -4.0, -1.0]])
DOT = ("MX031",)

CASES = [
    # -- MX010 nd.array: float32 whatever the data ---------------------------------------
    C("array-int-list", "MX010", ret("nd.array([1, 2, 3])")),
    C("array-assign-fraction", "MX010", """
        def f():
            a = nd.array([1, 2, 3])
            a[0] = 0.7
            return a
        """),
    C("array-int64-numpy", "MX010", ret("nd.array(np.arange(6).reshape(2, 3))")),
    C("array-float64-numpy", "MX010", ret("nd.array(np.linspace(-1.0, 2.0, 5))")),
    C("array-dtype-int32", "MX010", ret("nd.array([1.7, -2.2, 3.0], dtype='int32')")),
    C("array-dtype-float64", "MX010", ret("nd.array([[1, 2], [3, 4]], dtype=np.float64)")),
    C("array-ctx", ("MX010", "MX501"), ret("nd.array([1.5, -2.5], ctx=mx.cpu())")),
    # -- MX011 zeros/ones/empty ----------------------------------------------------------------
    C("zeros", "MX011", ret("nd.zeros((2, 3))")),
    C("ones-int-shape-float16", "MX011", ret("mx.nd.ones(4, dtype='float16')")),
    C("ones-int32-ctx", ("MX011", "MX501"), ret("nd.ones((2, 2), ctx=mx.cpu(), dtype='int32')")),
    C("empty-shape-dtype", "MX011", """
        def f():
            e = nd.empty((2, 3, 4))
            return list(e.shape), nd.zeros_like(e)
        """),
    # -- MX012 full ----------------------------------------------------------------------------
    C("full-int-value", "MX012", ret("nd.full((2, 2), 7)")),
    C("full-float64", "MX012", ret("nd.full((3,), 2.5, dtype='float64')")),
    C("full-int32", "MX012", ret("nd.full(shape=(2,), val=7, dtype='int32')")),
    # -- MX013 arange ----------------------------------------------------------------------------
    C("arange-stop", "MX013", ret("nd.arange(5)")),
    C("arange-mean", ("MX013", "MX033"), ret("nd.arange(5).mean()")),
    C("arange-repeat", "MX013", ret("nd.arange(2, 10, 2, repeat=2)")),
    C("arange-float-step", "MX013", ret("nd.arange(0, 1, 0.1)")),
    C("arange-negative-step", "MX013", ret("nd.arange(3, -3, -0.5)")),
    C("arange-keywords", "MX013", ret("nd.arange(start=1, stop=5, dtype='int32')")),
    C("arange-ctx", ("MX013", "MX501"), ret("nd.arange(4, ctx=mx.cpu())")),
    # -- MX014 zeros_like/ones_like ------------------------------------------------------------
    C("zeros-like", "MX014", ret("nd.zeros_like(x)"), (2, 3)),
    C("ones-like-int32", "MX014", ret("nd.ones_like(x)"), ("int32", (3,), 0, 9)),
    # -- MX020 asnumpy, MX021 asscalar ---------------------------------------------------------
    C("asnumpy", "MX020", ret("(x * 2).asnumpy()"), (2, 3)),
    C("asnumpy-known", ("MX020", "MX011"), ret("nd.ones((2, 2), dtype='int32').asnumpy()")),
    C("asscalar-sum", ("MX021", "MX033"), ret("nd.sum(x).asscalar()"), (2, 3)),
    C("asscalar-one-element", "MX021", ret("x.asscalar()"), (1,)),
    C("asscalar-mean-method", "MX021", meth("a.mean().asscalar() + 1"), (3, 2)),  # the mean is kept as written
    # untyped full reductions: NDArray's (1,) decided at run time (Note [untyped full reductions]); ties of max
    C("full-reductions-untyped", "MX033", ret("[x.mean(), x.sum(), x.max(), x.prod(), x.min() * 2]"),
      ("const", [[1.5, 0.5, 1.5], [0.75, 1.25, 0.5]]), grad=(0,)),
    # -- MX022 astype / cast -----------------------------------------------------------------------
    C("cast-int32-truncates", "MX022", ret("nd.cast(x, dtype='int32')"), (3, 4)),
    C("cast-capital", "MX022", ret("nd.Cast(x, dtype='float16')"), (3, 4)),
    C("astype-float64", "MX022", meth("a.astype('float64')"), (2, 3), grad=(0,)),
    C("astype-numpy-dtype", "MX022", meth("a.astype(np.int32)"), (2, 3)),
    C("astype-same-dtype-copies", "MX022", """
        def f(x):
            a = x.as_in_context(mx.cpu())
            b = a.astype('float32')
            b[:] = 0
            return a, b
        """, (2, 3)),
    C("astype-copy-false-aliases", "MX022", """
        def f(x):
            a = x.as_in_context(mx.cpu())
            b = a.astype('float32', copy=False)
            b[:] = 0
            return a, b
        """, (2, 3)),
    # -- MX023 reshape with special codes -------------------------------------------------------
    C("reshape-0-minus1", "MX023", meth("a.reshape((0, -1))"), (2, 3, 4), grad=(0,)),
    C("reshape-fn-minus3-minus2", "MX023", ret("nd.reshape(x, shape=(-3, -2))"), (2, 3, 4, 5), grad=(0,)),
    C("reshape-minus4", "MX023", meth("a.reshape((-4, 1, -1, -2))"), (6, 2, 2), grad=(0,)),
    C("reshape-minus4-right", "MX023", ret("nd.reshape(x, shape=(0, -4, -1, 2, 0))"), (2, 6, 3)),
    C("reshape-varargs", "MX023", meth("a.reshape(0, 0, -1)"), (2, 3, 4)),
    C("reshape-shape-keyword", "MX023", meth("a.reshape(shape=(-1, 0))"), (2, 3, 4)),
    C("reshape-minus1-after-minus4", "MX023", ret("nd.reshape(x, shape=(-4, 1, 2, -1, 0))"), (2, 2, 1)),
    C("reshape-reverse", "MX023", meth("a.reshape((-1, 0), reverse=True)"), (2, 3, 4), grad=(0,)),
    C("reshape-fn-reverse", "MX023", ret("nd.Reshape(x, shape=(0, 0, -1), reverse=True)"), (5, 3, 2, 2)),
    C("reshape-plain-fn", "MX023", ret("nd.reshape(x, shape=(3, -1))"), (2, 3, 4)),
    C("reshape-spec-in-variable", "MX023", """
        def f(x):
            a = x.as_in_context(mx.cpu())
            spec = (0, -3)
            return a.reshape(spec)
        """, (2, 3, 4)),
    C("reshape-is-a-view", "MX023", """
        def f(x):
            a = x.as_in_context(mx.cpu())
            b = a.reshape((0, -1))
            b[0] = 0.5
            return a
        """, (2, 3, 2)),
    # -- MX024 expand_dims --------------------------------------------------------------------------
    C("expand-dims-fn", "MX024", ret("nd.expand_dims(x, axis=1)"), (2, 3), grad=(0,)),
    C("expand-dims-method-negative", "MX024", meth("a.expand_dims(-1)"), (2, 3)),
    # -- MX025 transpose -----------------------------------------------------------------------------
    C("transpose-no-axes-fn", "MX025", ret("nd.transpose(x)"), (2, 3, 4), grad=(0,)),
    C("transpose-no-axes-method", "MX025", meth("a.transpose()"), (2, 3, 4, 5)),
    C("transpose-axes-kw", "MX025", ret("nd.transpose(x, axes=(1, 0, 2))"), (2, 3, 4), grad=(0,)),
    # axes known at run time only: empty reverses them all (MXFusion's `axes = axes if axes is not None else []`)
    C("transpose-axes-runtime", "MX025", """
        def f(x):
            none, some = [], (2, 0, 1)
            return nd.transpose(data=x, axes=none), nd.transpose(x, axes=some)
        """, (2, 3, 4), grad=(0,)),
    C("transpose-axes-tuple-method", "MX025", meth("a.transpose((2, 0, 1))"), (2, 3, 4)),
    C("transpose-literal-rank", ("MX025", "MX011"), ret("nd.ones((2, 3, 4)).transpose()")),
    C("transpose-2d-no-axes", "MX025", ret("nd.transpose(x)"), (3, 5)),
    # -- MX026 swapaxes ------------------------------------------------------------------------------
    C("swapaxes", "MX026", ret("nd.swapaxes(x, 1, 2)"), (2, 3, 4), grad=(0,)),
    C("swapaxis-keywords", "MX026", ret("nd.SwapAxis(x, dim1=0, dim2=2)"), (2, 3, 4)),
    C("swapaxes-defaults", "MX026", ret("nd.swapaxes(x)"), (2, 3)),
    # -- NDArray methods no method rule names (Note [array methods without a method rule]): a fluent method goes to
    # its operator's rule with the array first, whatever keywords it takes; torch's same-named method stays where it
    # computes MXNet's value (the list in xlate/convert/array_methods.py, every entry compared here with gradients)
    C("method-fluent-keywords", ("MX038", "MX052", "MX078", "MX026"),
      meth("[a.clip(a_min=-0.5, a_max=0.5), a.sort(axis=0), a.flip(axis=1), a.swapaxes(dim1=0, dim2=1)]"), (3, 4),
      grad=(0,)),
    # -- MX808 cbrt, rcbrt, degrees, radians, softmin (functions and fluent methods) -------------------------------
    C("cbrt-degrees-softmin", "MX808",
      meth("[nd.cbrt(x), a.rcbrt(), nd.degrees(x), a.radians(), nd.softmin(x, axis=0), a.softmin(temperature=2.0)]"),
      (3, 4), grad=(0,)),
    # -- MX813 softsign, MX815 broadcast_hypot, MX814 hard_sigmoid, fix (MX044), true_divide (MX041) ----------------
    C("softsign-hypot-hard-sigmoid", ("MX813", "MX814", "MX815", "MX044", "MX041"),
      ret("[nd.softsign(x), nd.broadcast_hypot(x, y), nd.hard_sigmoid(x * 3, alpha=0.3, beta=0.4), nd.hard_sigmoid(x), "
          "nd.fix(x * 3), nd.true_divide(x, y + 3)]"), (3, 4), (3, 4), grad=(0, 1)),
    C("depth-space", "MX845", meth("[nd.depth_to_space(x, 2), a.depth_to_space(2).space_to_depth(2), "
                                   "nd.space_to_depth(x, 1)]"), (2, 8, 2, 4), grad=(0,)),
    C("argmax-channel", "MX845", meth("[nd.argmax_channel(x), a.argmax_channel()]"), (2, 3, 5)),
    C("nanprod", "MX845", meth("[nd.nanprod(x), nd.nanprod(x, axis=1), a.nanprod(axis=(0, 2), keepdims=True), "
                               "nd.nanprod(x, axis=1, exclude=True)]"), (2, 3, 2), grad=(0,)),
    C("nanprod-of-nans", "MX845", ret("[nd.nanprod(nd.log(x), axis=0), nd.nanprod(nd.log(x))]"), (3, 2)),
    # on a value xlate cannot type (a parameter), MXNet's own keywords decide it at run time (_mx_fluent_method)
    C("method-untyped-mxnet-keywords", ("MX078", "MX026", "MX052", "MX038"),
      ret("[x.flip(axis=1), x.swapaxes(dim1=0, dim2=1), x.sort(axis=0, is_ascend=False), "
          "x.argsort(axis=1, is_ascend=False), x.clip(a_min=-0.5, a_max=0.5)]"), (3, 4)),
    C("method-argsort-squeeze-diag", ("MX052", "MX054", "MX092"),
      meth("[a.argsort(axis=2, is_ascend=False), a.squeeze(axis=1), a.reshape((3, 4)).diag(k=1)]"), (3, 1, 4)),
    C("method-same-in-torch", (), """
        def f(x):
            a = x.as_in_context(mx.cpu())
            p = a.abs() + 1.5
            u = a / (a.abs() + 1.0)
            return [a.abs(), u.arccos(), p.arccosh(), u.arcsin(), a.arcsinh(), a.arctan(), u.arctanh(), a.ceil(),
                    a.cos(), a.cosh(), a.exp(), a.expm1(), a.fix(), a.floor(), p.log(), p.log10(), p.log1p(), p.log2(),
                    p.reciprocal(), a.relu(), p.rsqrt(), a.sigmoid(), a.sign(), a.sin(), a.sinh(), p.sqrt(),
                    a.square(), a.tan(), a.tanh(), a.trunc()]
        """, (2, 5), grad=(0,)),
    # -- MX162 `p.data().grad`: MXNet's gradient of the Parameter (torch's `p.data.grad` is always None) ------------
    C("param-data-grad", ("MX162", "MX164"), """
        def f(x, y):
            net = mx.gluon.nn.Dense(3, in_units=4, use_bias=False)
            net.initialize()
            net.weight.set_data(x)
            with mx.autograd.record():
                out = (net(y) * y.sum()).sum()
            out.backward()
            return [net.weight.data().grad, net.weight.list_data()[0].grad]
        """, (3, 4), (2, 4)),
    # -- MX868 moveaxis: one axis, negative ones, sequences -----------------------------------------
    C("moveaxis", "MX868", ret("[nd.moveaxis(x, 0, -1), nd.moveaxis(x, -1, 1), nd.moveaxis(x, (0, 1), [2, 0])]"),
      (2, 3, 4), grad=(0,)),
    # -- MX027 flatten -------------------------------------------------------------------------------
    C("flatten-4d", "MX027", ret("nd.flatten(x)"), (2, 3, 4, 5), grad=(0,)),
    C("flatten-method", "MX027", meth("a.flatten()"), (3, 2, 2)),
    C("flatten-capital", "MX027", ret("nd.Flatten(x)"), (2, 3, 4)),
    # -- MX028 concat ----------------------------------------------------------------------------------
    C("concat-default-dim1", "MX028", ret("nd.concat(x, y)"), (2, 3), (2, 4), grad=(0, 1)),
    C("concat-dim0", "MX028", ret("nd.concat(x, y, dim=0)"), (2, 3), (4, 3)),
    C("concat-three-3d", "MX028", ret("nd.concat(x, y, z)"), (2, 1, 3), (2, 2, 3), (2, 3, 3)),
    C("concat-capital-num-args", "MX028", ret("nd.Concat(x, y, num_args=2, dim=2)"), (2, 3, 1), (2, 3, 2)),
    # -- MX029 stack ----------------------------------------------------------------------------------
    # -- MX057 add_n: element-wise sum of same-shape arrays ---------------------------------------
    C("add-n-args", "MX057", ret("nd.add_n(x, y, z)"), (2, 3), (2, 3), (2, 3), grad=(0, 1, 2)),
    C("add-n-one", "MX057", ret("nd.add_n(x)"), (4,), grad=(0,)),
    C("add-n-unpacked", "MX057", """
        def f(x, y):
            parts = [x * 2, y]
            return nd.add_n(x, *parts)
        """, (2, 1, 3), (2, 1, 3), grad=(0, 1)),
    # -- MX055 concatenate: one list, axis 0 by default -------------------------------------------
    C("concatenate-default-axis0", "MX055", ret("nd.concatenate([x, y])"), (2, 3), (4, 3)),
    C("concatenate-axis1", "MX055", ret("nd.concatenate([x, y, z], axis=1)"), (2, 1), (2, 3), (2, 2)),
    C("concatenate-list-variable", "MX055", """
        def f(x, y):
            parts = [x, y]
            return nd.concatenate(parts, axis=1, always_copy=False)
        """, (2, 3), (2, 1)),
    C("stack-default-axis0", "MX029", ret("nd.stack(x, y)"), (2, 3), (2, 3), grad=(0, 1)),
    C("stack-axis1", "MX029", ret("nd.stack(x, y, axis=1)"), (2, 3), (2, 3)),
    C("stack-axis-negative", "MX029", ret("nd.stack(x, y, z, axis=-1)"), (2, 3), (2, 3), (2, 3)),
    # -- MX030 split -----------------------------------------------------------------------------------
    C("split-count-axis1", "MX030", ret("nd.split(x, 3)"), (2, 6, 2), grad=(0,)),
    C("split-squeeze-axis0", "MX030", ret("nd.split(x, num_outputs=4, axis=0, squeeze_axis=True)"), (4, 3)),
    C("split-one-output", "MX030", ret("nd.split(x, 1, axis=0)"), (2, 3)),
    C("split-one-output-squeeze", "MX030", ret("nd.split(x, 1, axis=0, squeeze_axis=True)"), (1, 3)),
    C("split-negative-axis", "MX030", ret("nd.split(x, 2, axis=-1)"), (2, 3, 4)),
    C("slicechannel", "MX030", ret("nd.SliceChannel(x, num_outputs=2)"), (3, 4)),
    C("split-method", "MX030", meth("a.split(2, axis=2)"), (2, 3, 4), grad=(0,)),
    C("split-runtime-count", "MX030", """
        def f(x):
            n = x.shape[1] // 2
            return nd.split(x, n), nd.split(x, n - 1, axis=0)
        """, (3, 4), grad=(0,)),
    C("split-runtime-squeeze", ("MX030", "MX053", "MX504"), """
        def f(x):
            a = x.as_in_context(mx.cpu())
            squeeze = x.shape[0] == 3
            axis = x.ndim - 2
            return [nd.split(x, 3, axis=0, squeeze_axis=squeeze), a.split(num_outputs=2, axis=-1,
                    squeeze_axis=not squeeze), nd.slice_axis(x, axis=axis, begin=1, end=None),
                    x.slice_axis(axis=axis - 1, begin=0, end=2)]
        """, (3, 4, 2), grad=(0,)),
    # -- MX031 dot -------------------------------------------------------------------------------------
    C("dot-2d", DOT, ret("nd.dot(x, y)"), (3, 4), (4, 5), grad=(0, 1)),
    C("dot-1d-1d-shape-1", DOT, ret("nd.dot(x, y)"), (4,), (4,), grad=(0, 1)),
    C("dot-2d-1d", DOT, ret("nd.dot(x, y)"), (3, 4), (4,), grad=(0, 1)),
    C("dot-1d-2d", DOT, ret("nd.dot(x, y)"), (4,), (4, 3), grad=(0, 1)),
    C("dot-nd", DOT, ret("nd.dot(x, y)"), (2, 3, 2), (2, 2, 4), grad=(0, 1)),
    C("dot-nd-transpose-a", DOT, ret("nd.dot(x, y, transpose_a=True)"), (2, 3, 4), (2, 5), grad=(0, 1)),
    C("dot-nd-transpose-b-3d", DOT, ret("nd.dot(x, y, transpose_b=True)"), (2, 3, 4), (5, 6, 4), grad=(0, 1)),
    C("dot-nd-transpose-b-2d", DOT, ret("nd.dot(x, y, transpose_b=True)"), (2, 3, 4), (5, 4)),
    C("dot-nd-both", DOT, ret("nd.dot(x, y, transpose_a=True, transpose_b=True)"), (4, 2, 3), (5, 4),
      grad=(0, 1)),
    C("dot-2d-transpose-a", DOT, ret("nd.dot(x, y, transpose_a=True)"), (4, 3), (4, 5), grad=(0, 1)),
    C("dot-2d-transpose-b", DOT, ret("nd.dot(x, y, False, True)"), (3, 4), (5, 4)),
    C("dot-2d-both", DOT, ret("nd.dot(x, y, transpose_a=True, transpose_b=True)"), (4, 3), (5, 4)),
    C("dot-square-transpose-a", DOT, ret("nd.dot(x, y, transpose_a=True)"), (3, 3), (3, 3)),
    # -- MX032 batch_dot --------------------------------------------------------------------------------
    C("batch-dot", "MX032", ret("nd.batch_dot(x, y)"), (2, 3, 4), (2, 4, 5), grad=(0, 1)),
    C("batch-dot-transpose-b-square", "MX032", ret("nd.batch_dot(x, y, transpose_b=True)"), (2, 3, 3), (2, 3, 3),
      grad=(0, 1)),
    C("batch-dot-transpose-a", "MX032", ret("nd.batch_dot(x, y, transpose_a=True)"), (2, 4, 3), (2, 4, 5),
      grad=(0, 1)),
    C("batch-dot-both", "MX032", ret("nd.batch_dot(x, y, True, True)"), (2, 4, 3), (2, 5, 4), grad=(0, 1)),
    C("batch-dot-4d", "MX032", ret("nd.batch_dot(x, y, transpose_b=True)"), (2, 2, 3, 4), (2, 2, 5, 4),
      grad=(0, 1)),
    C("batch-dot-4d-transpose-a", "MX032", ret("nd.batch_dot(x, y, transpose_a=True)"), (3, 2, 4, 3), (3, 2, 4, 2)),
    # -- MX033 reductions -------------------------------------------------------------------------------
    C("sum-axis-keepdims", "MX033", ret("nd.sum(x, axis=1, keepdims=True)"), (2, 3, 4), grad=(0,)),
    C("sum-full-shape-1", "MX033", ret("nd.sum(x)"), (2, 3), grad=(0,)),
    C("mean-full-shape-1", "MX033", ret("nd.mean(x)"), (2, 3, 4), grad=(0,)),
    C("sum-full-keepdims", "MX033", ret("nd.sum(x, keepdims=True)"), (2, 3)),
    C("sum-axis-none", "MX033", ret("nd.sum(x, axis=None)"), (2, 3)),
    C("sum-axis-empty-tuple", "MX033", ret("nd.sum(x, axis=())"), (2, 3), grad=(0,)),
    C("max-axis", "MX033", ret("nd.max(x, axis=1)"), (3, 4), grad=(0,)),
    C("min-axis-tuple", "MX033", ret("nd.min(x, axis=(0, 2))"), (2, 3, 4), grad=(0,)),
    C("max-full", "MX033", ret("nd.max(x)"), (3, 4), grad=(0,)),
    C("sum-exclude", "MX033", ret("nd.sum(x, axis=1, exclude=True)"), (2, 3, 4), grad=(0,)),
    C("mean-exclude-tuple-keepdims", "MX033", ret("nd.mean(x, axis=(0, -1), exclude=True, keepdims=True)"),
      (2, 3, 4), grad=(0,)),
    C("max-exclude", "MX033", ret("nd.max(x, axis=0, exclude=True)"), (3, 4, 2)),
    C("sum-exclude-no-axis", "MX033", ret("nd.sum(x, exclude=True)"), (2, 3)),
    C("sum-keepdims-int-flag", "MX033", ret("nd.sum(x, keepdims=1)"), (2, 3)),
    C("mean-exclude-int-flag", "MX033", ret("nd.mean(x, axis=1, exclude=1)"), (2, 3, 4)),
    C("max-axis-empty-tuple", "MX033", ret("nd.max(x, axis=())"), (2, 3)),
    C("prod-axis", "MX033", ret("nd.prod(x, axis=1)"), (2, 3), grad=(0,)),
    C("prod-full", "MX033", ret("nd.prod(x)"), (2, 3)),
    # reductions passed as values, called with MXNet's parameters (MXFusion's operator tests)
    C("reductions-as-values", "MX033", """
        def f(x):
            ops = [nd.sum, nd.mean, nd.prod, nd.max, nd.min, nd.nansum]
            return [op(x) for op in ops] + [ops[0](x, axis=1, keepdims=True), ops[1](x, 0), ops[2](data=x, axis=1,
                    exclude=True)]
        """, (2, 3), grad=(0,)),
    # the axis known at run time only, None (MXFusion's prod operator): every axis, as without one
    C("reductions-axis-runtime-none", "MX033", """
        def f(x):
            axis = None
            return [nd.prod(x, axis), nd.sum(x, axis=axis), nd.max(x, axis), nd.mean(x, axis=())]
        """, (2, 3)),
    C("prod-several-axes", "MX033", """
        def f(x):
            ax = (0, 2)  # an axis known at run time, as gluonts' self.axis
            return [nd.prod(x, axis=(0, 2)), nd.prod(x, ax, keepdims=True), nd.prod(x, axis=(1,))]
        """, (2, 3, 2), grad=(0,)),
    C("nansum", "MX033", """
        def f(x):
            x[0, 1] = np.nan
            return nd.nansum(x, axis=0), nd.nansum(x)
        """, (2, 3)),
    C("sum-method-axis", "MX033", meth("a.sum(axis=0)"), (3, 2), grad=(0,)),
    C("max-method-full", "MX033", meth("a.max()"), (3, 2), grad=(0,)),
    C("min-method-axis-keepdims", "MX033", meth("a.min(axis=-1, keepdims=True)"), (3, 2, 4), grad=(0,)),
    C("mean-method-negative-axis", "MX033", meth("a.mean(axis=-2)"), (3, 2, 4)),
    C("prod-nansum-methods", "MX033", meth("[a.prod(axis=1), a.nansum(axis=0, keepdims=True), a.prod()]"), (2, 3)),
    # -- MX034 softmax ----------------------------------------------------------------------------------
    C("softmax-3d-default", "MX034", ret("nd.softmax(x)"), (2, 3, 4), grad=(0,)),
    C("log-softmax-3d-default", "MX034", ret("nd.log_softmax(x)"), (2, 3, 4), grad=(0,)),
    C("softmax-axis1", "MX034", ret("nd.softmax(x, axis=1)"), (2, 3, 4), grad=(0,)),
    C("softmax-temperature", "MX034", ret("nd.softmax(x, temperature=2.0)"), (3, 4), grad=(0,)),
    C("log-softmax-axis-temperature", "MX034", ret("nd.log_softmax(x, axis=0, temperature=0.5)"), (3, 4),
      grad=(0,)),
    C("softmax-method", "MX034", meth("a.softmax()"), (2, 3, 4), grad=(0,)),
    # -- MX094-MX097 MXNet's fused attention products (sockeye): 3 heads of 2 ------------------------------
    C("interleaved-selfatt-qk", "MX094", ret("nd.contrib.interleaved_matmul_selfatt_qk(x, heads=3)"), (4, 2, 18),
      grad=(0,)),
    C("interleaved-selfatt-valatt", "MX095", ret("nd.contrib.interleaved_matmul_selfatt_valatt(x, y, heads=3)"),
      (4, 2, 18), (6, 4, 4), grad=(0, 1)),
    C("interleaved-encdec-qk", "MX096", ret("nd.contrib.interleaved_matmul_encdec_qk(x, y, heads=3)"), (3, 2, 6),
      (4, 2, 12), grad=(0, 1)),
    C("interleaved-encdec-valatt", "MX097", ret("nd.contrib.interleaved_matmul_encdec_valatt(x, y, heads=3)"),
      (4, 2, 12), (6, 3, 4), grad=(0, 1)),
    # -- MX098 logical operators, MX099 gammaln and linalg_gemm2 (gluonts' distributions) ------------------
    C("logical-and-broadcast", "MX098", ret("nd.broadcast_logical_and(x, y)"), ("cond", (2, 3)), ("cond", (1, 3))),
    C("logical-or-broadcast", "MX098", ret("nd.broadcast_logical_or(x, y)"), ("cond", (2, 3)), ("cond", (2, 1))),
    C("logical-xor-broadcast", "MX098", ret("nd.broadcast_logical_xor(x, y)"), ("cond", (2, 3)), ("cond", (2, 3))),
    C("logical-not", "MX098", ret("nd.logical_not(x)"), ("cond", (2, 3))),
    # nd.logical_and/or/xor: ndarray.py's functions, broadcasting, a number on either side, two numbers (the OCR IOU loss)
    C("logical-or-function", "MX098", ret("nd.logical_or(x, y)"), ("cond", (2, 3)), ("cond", (2, 1))),
    C("logical-and-scalar", "MX098", ret("nd.logical_and(x, 0.5) + nd.logical_xor(2, y)"), ("cond", (2, 3)),
      ("cond", (3,))),
    C("logical-numbers", "MX098", ret("nd.logical_xor(0, 2) + nd.logical_and(3, 0.0) + x"), (2,)),
    C("isnan", "MX098", ret("nd.contrib.isnan(nd.log(x))"), (2, 3)),
    # the loss layer: its backward ignores the head gradient (each output's sums into x's)
    C("softmax-output", ("MX421", "MX010"), """
        def f(x):
            lab = nd.array([[0, 1, 3], [2, 0, 0]])
            return [nd.SoftmaxOutput(x, lab, ignore_label=0, use_ignore=True, normalization='valid',
                                     smooth_alpha=0.1, grad_scale=1.5, preserve_shape=True),
                    nd.SoftmaxOutput(data=x, label=lab, normalization='batch', preserve_shape=True),
                    nd.SoftmaxOutput(x[0], nd.array([1, 0, 3]), grad_scale=0.5)]
        """, (2, 3, 4), grad=(0,)),
    C("isinf-isfinite", "MX098", """
        def f(x):
            y = nd.log(x) / (x - x[0, 0])
            return [nd.contrib.isinf(y), nd.contrib.isfinite(y), nd.contrib.isfinite(y).sum()]
        """, (2, 3)),
    C("gammaln", "MX099", ret("nd.gammaln(x)"), ("pos", (2, 3)), grad=(0,)),
    C("gemm2-batched", "MX099", ret("nd.linalg_gemm2(x, y)"), (2, 3, 4), (2, 4, 5), grad=(0, 1)),
    C("gemm2-transposed-alpha", "MX099", ret("nd.linalg_gemm2(x, y, transpose_a=True, transpose_b=True, alpha=0.5)"),
      (2, 4, 3), (2, 5, 4), grad=(0, 1)),
    # sockeye's attention: lengths (batch*heads, query) mask the keys; a length of 0 is a row of zeros
    C("softmax-use-length", "MX034", ret("nd.softmax(x, axis=-1, length=y, use_length=True)"), (2, 3, 4),
      ("const", np.array([[4, 2, 0], [1, 3, 4]], dtype=np.int32)), grad=(0,)),
    C("log-softmax-method-axis", "MX034", meth("a.log_softmax(axis=1)"), (2, 3, 4)),
    # -- MX035 argmax ----------------------------------------------------------------------------------
    C("argmax-axis-float", "MX035", ret("nd.argmax(x, axis=1)"), (3, 5)),
    C("argmax-ties-first", "MX035", ret("nd.argmax(x, axis=1)"), TIES),
    C("argmin-ties-axis0", "MX035", ret("nd.argmin(x, axis=0)"), TIES),
    C("argmax-flat-shape-1", "MX035", ret("nd.argmax(x)"), (3, 4)),
    C("argmin-flat-ties", "MX035", ret("nd.argmin(x)"), TIES),
    C("argmax-keepdims", "MX035", ret("nd.argmax(x, axis=0, keepdims=True)"), (3, 4)),
    C("argmax-method", "MX035", meth("a.argmax(axis=-1)"), (2, 3, 4)),
    C("argmin-method-flat", "MX035", meth("a.argmin()"), (2, 3)),
    # -- MX036 topk ----------------------------------------------------------------------------------
    C("topk-defaults", "MX036", ret("nd.topk(x)"), (3, 5)),
    C("topk-value-ascend", "MX036", ret("nd.topk(x, k=3, ret_typ='value', is_ascend=True)"), (3, 5)),
    C("topk-value-descend", "MX036", ret("nd.topk(x, k=2, ret_typ='value')"), (2, 3, 4), grad=(0,)),
    C("topk-axis0-indices", "MX036", ret("nd.topk(x, axis=0, k=2)"), (4, 3)),
    C("topk-indices-int32", "MX036", ret("nd.topk(x, k=2, dtype='int32')"), (2, 5)),
    C("topk-method", "MX036", meth("a.topk(k=2, ret_typ='value')"), (3, 4)),
    C("topk-axis-none", "MX036", ret("nd.topk(x, axis=None, k=3)"), (3, 4)),
    # -- MX037 where -----------------------------------------------------------------------------------
    C("where-float-cond", "MX037", ret("nd.where(x, y, z)"), ("cond", (3, 4)), (3, 4), (3, 4), grad=(1, 2)),
    C("where-1d-cond-rows-square", "MX037", ret("nd.where(x, y, z)"), ("cond", (3,)), (3, 3), (3, 3),
      grad=(1, 2)),
    C("where-1d-cond-rows-3d", "MX037", ret("nd.where(x, y, z)"), ("cond", (2,)), (2, 3, 4), (2, 3, 4)),
    C("where-negative-cond", "MX037", ret("nd.where(x - 1, y, z)"), ("cond", (4,)), (4,), (4,)),
    # -- MX038 clip ------------------------------------------------------------------------------------
    C("clip", "MX038", ret("nd.clip(x, -0.47, 0.83)"), (3, 4), grad=(0,)),
    C("clip-keywords", "MX038", ret("nd.clip(x, a_min=0.1, a_max=0.5)"), (6,)),
    # -- MX039 one_hot -------------------------------------------------------------------------------
    C("one-hot-out-of-range", "MX039", ret("nd.one_hot(x, 3)"), ("const", [0.0, 2.0, -1.0, 5.0, 1.0, 3.0])),
    C("one-hot-fractional-ids", "MX039", ret("nd.one_hot(x, 3)"), ("const", [0.0, 2.7, -0.5, 1.2])),
    C("one-hot-2d-on-off", "MX039", ret("nd.one_hot(x, 4, on_value=2.5, off_value=-1)"), ("ids", (2, 3), -1, 5)),
    C("one-hot-dtype", "MX039", ret("nd.one_hot(x, depth=5, dtype='int32')"), ("ids", (4,), 0, 6)),
    # -- MX086 / MX087 nd.image.to_tensor / normalize ----------------------------------------------
    C("image-to-tensor-uint8", ("MX086", "MX022"), ret("nd.image.to_tensor(nd.cast(x, dtype='uint8'))"),
      ("ids", (4, 5, 3), 0, 256)),
    C("image-to-tensor-float-batch", "MX086", ret("nd.image.to_tensor(x)"), (2, 4, 5, 3)),
    C("image-normalize-per-channel", "MX087", ret("nd.image.normalize(x, mean=(0.1, -0.2, 0.3), std=(0.5, 2.0, 0.25))"),
      (3, 4, 5), grad=(0,)),
    C("image-normalize-batch-numbers", "MX087", ret("nd.image.normalize(x, 0.5, 0.25)"), (2, 3, 4, 5)),
    C("image-normalize-one-value", "MX087", ret("nd.image.normalize(x, mean=(0.3,), std=(2.0,))"), (3, 4, 4)),
    C("image-to-tensor-then-normalize", ("MX086", "MX087"),
      ret("nd.image.normalize(nd.image.to_tensor(x), (0.485, 0.456, 0.406), (0.229, 0.224, 0.225))"),
      ("ids", (2, 6, 5, 3), 0, 256)),
    # -- MX004 / MX005 nd.image operators (needing no OpenCV; tests/test_image.py has the rest) -------
    C("image-crop-uint8-batch", ("MX004", "MX022"), ret("nd.image.crop(nd.cast(x, dtype='uint8'), 1, 2, 3, 2)"),
      ("ids", (2, 5, 6, 3), 0, 256)),
    C("image-adjust-lighting-uint8", ("MX004", "MX022"),
      ret("nd.image.adjust_lighting(nd.cast(x, dtype='uint8'), alpha=(0.3, -0.1, 0.2))"), ("ids", (4, 5, 3), 0, 256)),
    C("image-brightness-between-equal-bounds", "MX005:review", ret("nd.image.random_brightness(x, 0.7, 0.7)"), (4, 5, 3)),
    # -- MX040 pick ----------------------------------------------------------------------------------
    C("pick-clip-minus1", "MX040", ret("nd.pick(x, y)"), (3, 4), ("const", [0.0, 3.0, -1.0]), grad=(0,)),
    C("pick-clip-large", "MX040", ret("nd.pick(x, y, mode='clip')"), (4, 4), ("const", [7.0, 1.0, -3.0, 2.6])),
    C("pick-wrap", "MX040", ret("nd.pick(x, y, mode='wrap')"), (4, 3), ("const", [-1.0, 3.0, 5.0, -4.0]),
      grad=(0,)),
    C("pick-axis0", "MX040", ret("nd.pick(x, y, axis=0)"), (3, 4), ("ids", (4,), 0, 3), grad=(0,)),
    C("pick-keepdims-3d", "MX040", ret("nd.pick(x, y, axis=1, keepdims=True)"), (2, 3, 4), ("ids", (2, 4), -1, 4)),
    C("pick-axis-minus2", "MX040", ret("nd.pick(x, y, axis=-2, mode='wrap')"), (2, 3, 4), ("ids", (2, 4), -4, 7)),
    C("pick-method", "MX040", meth("a.pick(y, axis=1)"), (3, 4), ("ids", (3,), 0, 4)),
    # the index with `axis` kept as size 1 (MXFusion's categorical log_pdf: data (n, k, 3), index (n, k, 1))
    C("pick-index-axis-kept", "MX040", ret("nd.pick(x, y, axis=-1)"), (2, 3, 4), ("ids", (2, 3, 1), 0, 4), grad=(0,)),
    C("pick-index-axis-kept-middle", "MX040", ret("nd.pick(x, y, axis=1, keepdims=True)"), (2, 3, 4),
      ("ids", (2, 1, 4), 0, 3)),
    # -- MX041 broadcast_* / elemwise_* ------------------------------------------------------------
    # operators of two operands passed as values (MXFusion's operator tests), called positionally and by keyword
    C("binary-ops-as-values", ("MX041", "MX031"), """
        def f(x, y):
            ops = [nd.add, nd.broadcast_mul, nd.dot, nd.subtract, nd.elemwise_div]
            return [op(x, y) for op in ops] + [ops[1](lhs=y, rhs=x)]
        """, (3, 3), (3, 3), grad=(0, 1)),
    C("broadcast-add", "MX041", ret("nd.broadcast_add(x, y)"), (2, 3), (1, 3), grad=(0, 1)),
    C("broadcast-sub-nested", "MX041", ret("nd.broadcast_sub(x, y - z)"), (2, 3), (2, 1), (1, 3), grad=(0, 1, 2)),
    C("broadcast-mul-minus", "MX041", ret("nd.broadcast_minus(x, y) * 2"), (3, 1), (1, 4)),
    C("broadcast-div", "MX041", ret("nd.broadcast_div(x, y)"), (2, 3), ("pos", (2, 1)), grad=(0, 1)),
    C("broadcast-power", "MX041", ret("nd.broadcast_power(x, y)"), ("pos", (2, 3)), (1, 3), grad=(0, 1)),
    C("broadcast-maximum", "MX041", ret("nd.broadcast_maximum(x, y)"), (2, 3), (1, 3), grad=(0, 1)),
    C("broadcast-minimum", "MX041", ret("nd.broadcast_minimum(x, y)"), (2, 1), (2, 3)),
    C("elemwise-ops", "MX041", ret("nd.elemwise_mul(nd.elemwise_add(x, y), nd.elemwise_sub(x, y))"), (2, 3), (2, 3)),
    C("elemwise-div", "MX041", ret("nd.elemwise_div(x, y)"), (2, 3), ("pos", (2, 3))),
    C("compare-functions", "MX041:review",
      ret("[nd.equal(x, x * (y > 0)), nd.not_equal(x, y), nd.greater(x, y), nd.greater_equal(x, 0.1), "
          "nd.lesser(x, y), nd.lesser_equal(0.2, x)]"), (2, 3), (2, 3)),
    C("add-subtract-multiply-divide", "MX041",
      ret("nd.add(x, y) + nd.subtract(x, 1.5) * nd.multiply(y, x) - nd.divide(x, 2)"), (2, 3), (2, 3)),
    C("broadcast-equal", "MX041", ret("nd.broadcast_equal(x, y)"), ("ids", (3, 4), 0, 3), ("ids", (1, 4), 0, 3)),
    C("broadcast-compare-computed", "MX041:review", ret("nd.broadcast_greater(x * 2, y + 1)"), (3, 4), (3, 1)),
    C("broadcast-compare-one-plain", "MX041", ret("nd.broadcast_lesser(nd.reshape(x, (1, -1)), y)"),
      ("int32", (3, 4), 0, 5), ("int32", (12, 1), 0, 5)),
    C("broadcast-comparisons-int32", "MX041",
      ret("[nd.broadcast_greater(x, y), nd.broadcast_lesser_equal(x, y)]"), ("int32", (3, 4), 0, 3),
      ("int32", (3, 1), 0, 3)),
    C("broadcast-comparisons", "MX041",
      ret("[nd.broadcast_greater(x, y), nd.broadcast_lesser_equal(x, y), nd.broadcast_not_equal(x, y)]"),
      ("ids", (3, 4), 0, 3), ("ids", (3, 1), 0, 3)),
    # -- MX042 broadcast_to/like/axis -------------------------------------------------------------
    C("broadcast-to-zero-keeps", "MX042", ret("nd.broadcast_to(x, shape=(0, 3))"), (2, 1), grad=(0,)),
    C("broadcast-to-new", "MX042", ret("nd.broadcast_to(x, (4, 3))"), (1, 3), grad=(0,)),
    C("broadcast-to-method", "MX042", meth("a.broadcast_to((2, 2, 3))"), (2, 1, 3)),
    C("broadcast-like", "MX042", ret("nd.broadcast_like(x, y)"), (2, 1), (2, 3), grad=(0,)),
    C("broadcast-axis", "MX042", ret("nd.broadcast_axis(x, axis=1, size=3)"), (2, 1), grad=(0,)),
    C("broadcast-axis-two", "MX042", ret("nd.broadcast_axis(x, axis=(0, 2), size=(3, 4))"), (1, 2, 1)),
    C("broadcast-axis-run-time", "MX042",
      ret("[nd.broadcast_axis(x, axis=0, size=x.shape[1] + 1), nd.broadcast_axis(x.exp(), axis=(0, 2), "
          "size=(x.shape[1], 2)), nd.broadcast_axis(x, 0, size=len(x))]"), (1, 2, 1), grad=(0,)),
    C("broadcast-like-method", "MX042", meth("a.broadcast_like(y)"), (1, 3), (2, 3)),
    C("broadcast-axes-method", "MX042", meth("a.broadcast_axes(axis=0, size=3)"), (1, 2, 2), grad=(0,)),
    C("broadcast-to-shape-variable", "MX042:review", """
        def f(x):
            shape = (2, 4)
            return nd.broadcast_to(x, shape=shape)
        """, (1, 4)),
    # -- MX043 SequenceMask -----------------------------------------------------------------------
    C("sequence-mask-axis0", "MX043",
      ret("nd.SequenceMask(x, y, use_sequence_length=True, value=-1)"), (5, 3, 2), ("const", [2.0, 5.0, 0.0]),
      grad=(0,)),
    C("sequence-mask-axis1", "MX043",
      ret("nd.SequenceMask(x, y, use_sequence_length=True, axis=1)"), (3, 5, 2), ("const", [1.0, 4.0, 5.0]),
      grad=(0,)),
    C("sequence-mask-2d", "MX043",
      ret("nd.SequenceMask(x, sequence_length=y, use_sequence_length=True, value=7.5)"), (4, 3),
      ("const", [3.0, 1.0, 4.0])),
    C("sequence-mask-off", "MX043", ret("[nd.SequenceMask(x), nd.SequenceMask(x, use_sequence_length=False)]"),
      (4, 3)),
    C("sequence-mask-fractional-lengths", "MX043",
      ret("nd.SequenceMask(x, y, use_sequence_length=True)"), (4, 3, 2), ("const", [1.5, 2.7, 0.2])),
    # -- MX205 SequenceLast / SequenceReverse ------------------------------------------------------
    C("sequence-last-reverse", "MX205",
      ret("[nd.SequenceLast(x, y, use_sequence_length=True), nd.SequenceReverse(x, y, use_sequence_length=True), "
          "nd.SequenceLast(x), nd.SequenceReverse(x)]"), (4, 3, 2), ("const", [2.0, 4.0, 1.7]), grad=(0,)),
    C("sequence-last-axis1", "MX205",
      ret("nd.SequenceLast(x, sequence_length=y, use_sequence_length=True, axis=1)"), (3, 5, 2),
      ("const", [1.0, 5.0, 3.0]), grad=(0,)),
    # -- MX044 elementwise functions --------------------------------------------------------------
    C("elementwise-real", "MX044",
      ret("[nd.relu(x), nd.sigmoid(x), nd.tanh(x), nd.exp(x), nd.abs(x), nd.sign(x), nd.square(x), "
          "nd.floor(x), nd.ceil(x), nd.trunc(x), nd.sin(x), nd.cos(x), nd.sinh(x), nd.cosh(x), nd.negative(x), "
          "nd.erf(x), nd.expm1(x), nd.tan(x)]"), ("unit", (3, 4)), grad=(0,)),
    C("elementwise-positive", "MX044",
      ret("[nd.log(x), nd.log2(x), nd.log10(x), nd.log1p(x), nd.sqrt(x), nd.rsqrt(x), nd.reciprocal(x)]"),
      ("pos", (3, 4)), grad=(0,)),
    C("elementwise-erfinv", "MX044", ret("nd.erfinv(x)"), ("unit", (2, 5)), grad=(0,)),
    C("diag", "MX092", ret("[nd.diag(x), nd.diag(x, k=1), nd.diag(x, k=-1, axis1=1, axis2=2), nd.diag(x[0, 0]), "
                           "nd.diag(x[0, 0], k=-2)]"), (2, 3, 4), grad=(0,)),
    C("index-array", "MX018", ret("[nd.contrib.index_array(x), nd.contrib.index_array(x, axes=(1,)), "
                                  "nd.contrib.index_array(x, axes=(-1, 0))]"), (2, 3, 4)),
    # DCN v1 (Note [deformable sampling]): offsets of up to a few pixels, taps between pixels and off the input
    C("deformable-conv", "MX019", ret("nd.contrib.DeformableConvolution(x, y * 2, z, kernel=(3, 3), stride=(2, 1), "
                                      "pad=(1, 1), num_filter=4, num_group=2, num_deformable_group=2, no_bias=True)"),
      (2, 4, 5, 6), (2, 36, 3, 6), (4, 2, 3, 3), grad=(0, 1, 2)),
    C("from-numpy", ("MX093", "MX020"), ret("nd.from_numpy(x.asnumpy() * 2)"), (2, 3)),
    C("from-numpy-copy", ("MX093", "MX020"),
      ret("[nd.from_numpy(x.asnumpy()[:, ::-1], zero_copy=False), nd.from_numpy(x.asnumpy().T, False), "
          "nd.from_numpy(x.asnumpy().astype('float64') + 1, zero_copy=True)]"), (2, 3)),
    C("elementwise-inverse-trig", "MX044",
      ret("[nd.arcsin(x), nd.arccos(x), nd.arctan(x), nd.arcsinh(x), nd.arctanh(x), nd.arccosh(x + 2.0)]"),
      ("unit", (3, 4)), grad=(0,)),
    C("elementwise-relu-mixed", "MX044", ret("nd.relu(x) + nd.exp(x)"), (2, 3), grad=(0,)),
    # -- MX045 maximum/minimum -------------------------------------------------------------------
    C("maximum-scalar-right", "MX045", ret("nd.maximum(x, 0)"), (3, 4), grad=(0,)),
    C("maximum-scalar-left", "MX045", ret("nd.maximum(0.25, x)"), (3, 4)),
    C("minimum-scalar", "MX045", ret("nd.minimum(x, -0.3)"), (3, 4), grad=(0,)),
    C("minimum-arrays", "MX045", ret("nd.minimum(x, y)"), (2, 3), (2, 3), grad=(0, 1)),
    C("maximum-broadcast", "MX045", ret("nd.maximum(x, y)"), (2, 3), (1, 3)),
    # -- MX091 power: MXNet's `**`, a number on either side, arrays broadcast ------------------------
    C("power-scalar-exponent", "MX091", ret("[nd.power(x, 2), nd.power(x, 3.5), nd.power(x, -1)]"), ("pos", (2, 3)),
      grad=(0,)),
    C("power-scalar-base", "MX091", ret("nd.power(2.5, x)"), (3, 4), grad=(0,)),
    C("power-broadcast", "MX091", ret("[nd.power(x, y), nd.power(base=x, exp=z)]"),
      ("pos", (2, 3)), (1, 3), (2, 1), grad=(0, 1, 2)),
    C("power-nested", "MX091", ret("nd.power(nd.power(x, 2), y) - nd.power(x, 2).sum()"), ("pos", (3, 2)), (3, 1),
      grad=(0, 1)),
    C("copy-is-independent", "MX046", """
        def f(x):
            a = x.as_in_context(mx.cpu())
            b = a.copy()
            b[:] = 0
            return a, b
        """, (2, 3)),
    C("copyto-context-copies", ("MX046", "MX501"), """
        def f(x):
            a = x.as_in_context(mx.cpu())
            b = a.copyto(mx.cpu())
            b[:] = 0
            return a, b
        """, (2, 3)),
    C("copyto-array", "MX046", """
        def f(x, y):
            a = x.as_in_context(mx.cpu())
            b = y.as_in_context(mx.cpu())
            c = a.copyto(b)
            return b, c
        """, (2, 3), (2, 3)),
    # -- MX047 repeat, MX048 tile -----------------------------------------------------------------
    C("repeat-axis", "MX047", ret("nd.repeat(x, 2, axis=1)"), (2, 3), grad=(0,)),
    C("repeat-flat", "MX047", ret("nd.repeat(x, repeats=3)"), (2, 2)),
    C("repeat-method", "MX047", meth("a.repeat(3, axis=0)"), (2, 3), grad=(0,)),
    C("tile", "MX048", ret("nd.tile(x, (2, 1))"), (2, 3), grad=(0,)),
    C("tile-short-reps", "MX048", ret("nd.tile(x, reps=(3,))"), (2, 3)),
    C("tile-long-reps", "MX048", ret("nd.tile(x, (2, 1, 2))"), (2, 3)),
    C("tile-int-reps", "MX048", """
        def f(x):
            n = np.int64(2)
            return nd.tile(x, 3), x.as_in_context(mx.cpu()).tile(n)
        """, (2, 3)),
    C("repeat-vs-tile", ("MX047", "MX048"), ret("nd.repeat(x, 2, axis=0) - nd.tile(x, (2, 1))"), (2, 3)),
    # -- MX054 squeeze ---------------------------------------------------------------------------
    C("squeeze-all", "MX054", ret("nd.squeeze(x)"), (2, 1, 3, 1), grad=(0,)),
    C("squeeze-axes", "MX054", ret("nd.squeeze(x, axis=(1, 3))"), (2, 1, 3, 1)),
    C("squeeze-to-one-element", "MX054", ret("nd.squeeze(x)"), (1, 1)),
    C("squeeze-axis-one-element", "MX054", ret("nd.squeeze(x, axis=0)"), (1,)),
    C("squeeze-method-inplace", ("MX054", "MX504"), """
        def f(x):
            a = x.as_in_context(mx.cpu())
            return a.squeeze(axis=1, inplace=True) * 2
        """, (2, 1, 3), grad=(0,)),
    # -- MX049 NDArray type, MX050 size ------------------------------------------------------------
    C("ndarray-isinstance", "MX049", ret("isinstance(x, nd.NDArray)"), (2,)),
    C("ndarray-isinstance-mx", "MX049", ret("isinstance(x, mx.nd.NDArray) and not isinstance(1.0, mx.nd.NDArray)"),
      (2,)),
    C("size-numel", ("MX050", "MX011"), """
        def f():
            a = nd.ones((2, 3, 4))
            return a.size * 2, a.size
        """),
    C("size-unknown-receiver", "MX050", """
        def f(x):
            return x.size * 2, x.size, np.zeros((2, 5)).size
        """, (2, 3, 4)),
    # -- MX051 Activation / LeakyReLU --------------------------------------------------------------
    C("activation-types", "MX051",
      ret("[nd.Activation(x, act_type='relu'), nd.Activation(x, act_type='sigmoid'), nd.Activation(x, 'tanh'), "
          "nd.Activation(x, act_type='softrelu'), nd.Activation(x, act_type='softsign')]"), (3, 4), grad=(0,)),
    C("leaky-relu-default-slope", "MX051", ret("nd.LeakyReLU(x)"), (3, 4), grad=(0,)),
    C("leaky-relu-slope", "MX051", ret("nd.LeakyReLU(x, slope=0.1)"), (3, 4), grad=(0,)),
    C("leaky-relu-elu", "MX051", ret("nd.LeakyReLU(x, act_type='elu', slope=0.7)"), (3, 4), grad=(0,)),
    C("leaky-relu-elu-default", "MX051", ret("nd.LeakyReLU(x, act_type='elu')"), (3, 4)),
    C("leaky-relu-gelu", "MX051", ret("nd.LeakyReLU(x, act_type='gelu')"), (3, 4), grad=(0,)),
    C("leaky-relu-selu-forward", "MX051", ret("nd.LeakyReLU(x, act_type='selu')"), (3, 4)),
    # -- MX052 sort / argsort -------------------------------------------------------------------
    # (MXNet 1.9.1 cannot differentiate sort: its _backward_topk rejects the axis it is given)
    C("sort-default", "MX052", ret("nd.sort(x)"), (3, 5)),
    C("sort-descending-axis0", "MX052", ret("nd.sort(x, axis=0, is_ascend=False)"), (4, 3)),
    C("argsort-float", "MX052", ret("nd.argsort(x)"), (3, 5)),
    C("argsort-descending-int32", "MX052", ret("nd.argsort(x, axis=0, is_ascend=False, dtype='int32')"), (4, 3)),
    C("sort-axis-none", "MX052", ret("nd.sort(x, axis=None)"), (3, 4)),
    C("argsort-axis-none", "MX052", ret("nd.argsort(x, axis=None)"), (3, 4)),
    # -- MX053 slice_axis ------------------------------------------------------------------------
    C("slice-axis", "MX053", ret("nd.slice_axis(x, axis=1, begin=1, end=3)"), (2, 4, 3), grad=(0,)),
    C("slice-axis-end-none", "MX053", ret("nd.slice_axis(x, axis=0, begin=1, end=None)"), (4, 3)),
    C("slice-axis-negative-axis", "MX053", ret("nd.slice_axis(x, axis=-1, begin=-3, end=-1)"), (2, 3, 5)),
    C("slice-axis-middle-negative", "MX053", ret("nd.slice_axis(x, -2, 0, 2)"), (2, 3, 5)),
    C("slice-axis-method", "MX053", meth("a.slice_axis(axis=2, begin=2, end=4)"), (2, 3, 5)),
    C("slice-axis-expression", "MX053", ret("nd.slice_axis(x + 1, axis=0, begin=0, end=1)"), (3, 2)),
    # -- MX501-MX506 devices -------------------------------------------------------------------
    C("cpu-device", "MX501", ret("mx.cpu()")),
    C("np-mode-query", ("MX746:review", "MX044"),
      ret("nd.relu(x) * (2.0 if mx.util.is_np_array() else 3.0) + (1.0 if mx.util.is_np_shape() else -1.0)"),
      (2, 3)),
    C("cpu-indexed-device", "MX501", ret("[mx.cpu(0), mx.cpu(1), mx.context.cpu()]")),
    C("cpu-pinned-device", "MX501", ret("mx.cpu_pinned()")),
    C("gpu-device", "MX502", ret("[mx.gpu(), mx.gpu(1), mx.context.gpu(2)]")),
    C("gpu-device-list", "MX502", ret("[mx.gpu(i) for i in range(3)]")),
    C("as-in-context", ("MX504", "MX501"), ret("x.as_in_context(mx.cpu()) * 2"), (2, 3), grad=(0,)),
    C("context-attribute", ("MX505", "MX011"), """
        def f():
            a = nd.ones(3)
            return a.context, a.ctx
        """),
    C("context-fields", ("MX549", "MX501", "MX502"),
      ret("[(c.device_type, c.device_id, c.device_typeid) for c in [mx.cpu(), mx.gpu(1), mx.gpu()]]")),
    C("context-default-ctx", ("MX810", "MX836", "MX549"), """
        def f():
            with mx.cpu(0):
                inner = mx.context.Context.default_ctx
            return [(c.device_type, c.device_id) for c in [mx.Context.default_ctx, inner, mx.current_context()]]
        """),
    C("context-roundtrip", ("MX505", "MX504"), """
        def f(x):
            a = x.as_in_context(mx.cpu())
            return a.as_in_context(a.context) + 1
        """, (2, 3)),
    # -- MX809 an NDArray's dtype handed to NumPy: MXNet's is a NumPy type --------------------------
    C("dtype-to-numpy", ("MX809", "MX504", "MX501", "MX022"), """
        def f(x):
            a = x.as_in_context(mx.cpu())
            b = a.astype('float64')
            c = a.astype('int32')
            return [np.issubdtype(b.dtype, np.floating), np.issubdtype(c.dtype, np.integer),
                    np.dtype(a.dtype).name, np.zeros(2, dtype=c.dtype).dtype.name, float(np.finfo(b.dtype).eps)]
        """, (2, 3)),
    C("waitall", ("MX506", "MX011"), """
        def f():
            a = nd.ones((2, 2))
            nd.waitall()
            a.wait_to_read()
            return a
        """),
    # -- drawn axes and options: the snippet's {holes} filled per example --------------------------
    C("concat-drawn-dim", "MX028", ret("nd.concat(x, y, dim={dim})"), (2, 3), (2, 4), grad=(0, 1),
      draw=along(2), options={"dim": 1}),
    C("concatenate-drawn-axis", "MX055", ret("nd.concatenate([x, y, z], axis={axis})"), (2, 1), (2, 3), (2, 2),
      draw=along(3, hole="axis", negative=False), options={"axis": 1}),
    C("stack-drawn-axis", "MX029", ret("nd.stack(x, y, axis={axis})"), (2, 3), (2, 3), grad=(0, 1),
      draw=on_axis(2, extra_axis=True), options={"axis": 2}),
    C("split-drawn", "MX030", ret("nd.split(x, {n}, axis={axis}, squeeze_axis={squeeze})"), (2, 6, 2), grad=(0,),
      draw=splits(), options={"n": 3, "axis": 1, "squeeze": False}),
    *(C(f"{op}-drawn-axis", "MX033", ret(f"nd.{op}(x, axis={{axis}}, keepdims={{keepdims}})"), (2, 3, 4),
        grad=(0,), draw=reductions(), options={"axis": 1, "keepdims": False})
      for op in ("sum", "mean", "max", "min")),
    C("softmax-drawn-axis", "MX034", ret("nd.softmax(x, axis={axis})"), (2, 3, 4), grad=(0,), draw=on_axis(),
      options={"axis": 1}),
    C("log-softmax-drawn-axis", "MX034", ret("nd.log_softmax(x, axis={axis})"), (2, 3, 4), grad=(0,),
      draw=on_axis(), options={"axis": 0}),
    C("expand-dims-drawn-axis", "MX024", ret("nd.expand_dims(x, axis={axis})"), (2, 3), grad=(0,),
      draw=on_axis(extra_axis=True), options={"axis": 2}),
    C("argmax-drawn-axis", "MX035", ret("nd.argmax(x, axis={axis})"), (3, 5), draw=on_axis(),
      options={"axis": 1}),
    C("slice-axis-drawn-axis", "MX053", ret("nd.slice_axis(x, axis={axis}, begin=0, end=1)"), (2, 4, 3),
      grad=(0,), draw=on_axis(), options={"axis": 1}),
    # -- MX058 LRN: knorm 2 written; an even nsize is MXNet's own window ------------------------
    # (MXNet 1.9.1's LRN backward gives NaN or crashes on one channel of one pixel: sides from 2)
    C("lrn-odd", "MX058", ret("nd.LRN(x, alpha=0.5, beta=0.75, knorm=1.5, nsize=5)"), (2, 7, 3, 2), grad=(0,),
      draw=shaped(4, min_side=2, max_side=5), options={}),
    C("lrn-default-knorm", "MX058", ret("nd.LRN(x, alpha=2.0, nsize=3)"), (2, 4, 3, 3), grad=(0,)),
    C("lrn-drawn-nsize", "MX058", ret("nd.LRN(x, alpha=0.7, beta=0.6, nsize={nsize})"), (2, 6, 2, 3), grad=(0,),
      draw=shaped(4, min_side=2, max_side=6, nsize=lambda st: st.integers(1, 6)), options={"nsize": 4}),
    C("lrn-runtime-nsize", "MX058", """
        def f(x):
            n = x.shape[1] - 3
            return nd.LRN(x, alpha=0.5, nsize=n)
        """, (1, 5, 2, 3), grad=(0,)),
    C("lrn-in-hybrid-forward", ("MX058", "MX103"), """
        class Norm(mx.gluon.HybridBlock):
            def hybrid_forward(self, F, x):
                return F.LRN(x, alpha=1e-2, beta=0.75, knorm=2, nsize=3, name="norm")

        def f(x):
            return Norm()(x)
        """, (2, 5, 3, 3), grad=(0,)),
    # -- MX059 Convolution, MX060 Deconvolution ---------------------------------------------------
    C("convolution-2d", "MX059",
      ret("nd.Convolution(x, y, z, kernel={kernel}, stride={stride}, pad={pad}, dilate={dilate}, "
          "num_group={groups}, num_filter={filters})"), (2, 4, 5, 6), (4, 2, 3, 2), (4,), grad=(0, 1, 2),
      draw=convolutions(), options={"kernel": (3, 2), "stride": (2, 1), "pad": (1, 0), "dilate": (1, 2),
                                   "groups": 2, "filters": 4}),
    C("convolution-1d", "MX059", ret("nd.Convolution(x, y, kernel={kernel}, stride={stride}, pad={pad}, "
                                     "dilate={dilate}, num_group={groups}, num_filter={filters}, no_bias=True)"),
      (2, 2, 7), (3, 2, 2), grad=(0, 1),
      draw=lambda: convolutions(rank=1)().map(lambda so: (so[0][:2], so[1])),
      options={"kernel": (2,), "stride": (2,), "pad": (1,), "dilate": (1,), "groups": 1, "filters": 3}),
    C("convolution-3d", "MX059", ret("nd.Convolution(x, y, z, kernel={kernel}, stride={stride}, pad={pad}, "
                                     "dilate={dilate}, num_group={groups}, num_filter={filters})"),
      (1, 2, 3, 4, 3), (2, 1, 2, 2, 2), (2,), grad=(0, 1, 2), draw=convolutions(rank=3, max_side=4),
      options={"kernel": (2, 2, 2), "stride": (1, 2, 1), "pad": (0, 1, 1), "dilate": (1, 1, 1), "groups": 2,
               "filters": 2}),
    C("convolution-runtime-kernel", "MX059", """
        def f(x, y, z):
            k = y.shape[2:]
            return nd.Convolution(data=x, weight=y, bias=z, kernel=k, pad=(1, 1), num_filter=3)
        """, (2, 2, 4, 4), (3, 2, 3, 3), (3,), grad=(0, 1, 2)),
    C("convolution-in-hybrid-forward", ("MX059", "MX103"), """
        class Conv(mx.gluon.HybridBlock):
            def hybrid_forward(self, F, x, w):
                return F.relu(F.Convolution(x, w, kernel=(3, 3), num_filter=4, no_bias=True, name="conv"))

        def f(x, y):
            return Conv()(x, y)
        """, (2, 3, 5, 5), (4, 3, 3, 3), grad=(0, 1)),
    C("deconvolution-2d", "MX060",
      ret("nd.Deconvolution(x, y, kernel={kernel}, stride={stride}, pad={pad}, adj={adj}, dilate={dilate}, "
          "num_group={groups}, num_filter={filters})"), (2, 4, 3, 4), (4, 1, 3, 3), grad=(0, 1),
      draw=lambda: convolutions(transposed=True)().map(lambda so: (so[0][:2], so[1])),
      options={"kernel": (3, 3), "stride": (2, 2), "pad": (1, 1), "adj": (1, 0), "dilate": (1, 1), "groups": 2,
               "filters": 2}),
    C("deconvolution-bias", "MX060", ret("nd.Deconvolution(x, y, z, kernel=(4, 4), stride=(2, 2), pad=(1, 1), "
                                         "num_filter=3, no_bias=False)"), (2, 2, 3, 3), (2, 3, 4, 4), (3,),
      grad=(0, 1, 2)),
    C("deconvolution-runtime-kernel-1d", "MX060", """
        def f(x, y):
            return nd.Deconvolution(x, y, kernel=y.shape[2:], stride=(3,), adj=(2,), num_filter=2)
        """, (2, 3, 4), (3, 2, 2), grad=(0, 1)),
    # -- MX061 Pooling ------------------------------------------------------------------------------
    C("pooling-default-stride-1", "MX061", ret("nd.Pooling(x, kernel=(2, 2))"), (2, 3, 4, 5), grad=(0,)),
    C("pooling-empty-tuples-default", ("MX061", "MX059"),
      ret("[nd.Pooling(x, kernel=(2, 2), stride=(), pad=(), pool_type='avg'), "
          "nd.Convolution(x, y, kernel=(2, 2), stride=(), pad=(), dilate=(), num_filter=2, no_bias=True)]"),
      (2, 3, 4, 5), (2, 3, 2, 2), grad=(0, 1)),
    C("pooling-torch-exact", "MX061",
      ret("nd.Pooling(x, kernel={kernel}, stride={stride}, pad={pad}, pool_type={kind}, "
          "count_include_pad={include})"), (2, 3, 5, 6), grad=(0,), draw=poolings(torch_exact=True),
      options={"kernel": (3, 2), "stride": (2, 2), "pad": (1, 1), "kind": "avg", "include": False,
               "convention": "valid"}),
    C("pooling-1d-3d-torch-exact", "MX061", """
        def f(x, y):
            return [nd.Pooling(x, kernel=(3,), stride=(2,), pad=(1,), pool_type='avg'),
                    nd.Pooling(y, kernel=(2, 1, 2), stride=(1, 2, 2), pool_type='max')]
        """, (2, 3, 7), (1, 2, 3, 4, 5), grad=(0, 1)),
    C("pooling-mxnet-only", "MX061",
      ret("nd.Pooling(x, kernel={kernel}, stride={stride}, pad={pad}, pool_type={kind}, "
          "pooling_convention={convention}, count_include_pad={include})"), (2, 2, 7, 8), grad=(0,),
      draw=poolings(), options={"kernel": (2, 3), "stride": (2, 3), "pad": (1, 1), "kind": "max",
                                "convention": "full", "include": True}),
    C("pooling-full-avg-exclude-pad", "MX061:review",
      ret("nd.Pooling(x, kernel=(1, 3), stride=(1, 3), pad=(0, 1), pool_type='avg', pooling_convention='full', "
          "count_include_pad=False)"), (1, 2, 3, 8)),  # MXNet cannot record this one (MKLDNN refuses)
    C("pooling-sum-wide-pad", "MX061",
      ret("nd.Pooling(x, kernel=(3, 3), stride=(2, 2), pad=(2, 2), pool_type='sum')"), (2, 2, 5, 4), grad=(0,)),
    C("pooling-1d-full", "MX061",
      ret("nd.Pooling(x, kernel=(2,), stride=(2,), pad=(1,), pool_type='max', pooling_convention='full')"),
      (2, 3, 7), grad=(0,)),
    C("pooling-3d-full-max", "MX061",
      ret("nd.Pooling(x, kernel=(2, 2, 2), stride=(2, 2, 2), pool_type='max', pooling_convention='full')"),
      (1, 2, 3, 5, 4), grad=(0,)),
    C("pooling-global", "MX061", ret("[nd.Pooling(x, kernel=(3, 3), global_pool=True, pool_type='avg'), "
                                     "nd.Pooling(x, global_pool=True, pool_type='max'), "
                                     "nd.Pooling(x, kernel=(1, 1), global_pool=True, pool_type='sum')]"),
      (2, 3, 4, 5), grad=(0,), draw=shaped(4, max_side=5), options={}),
    C("pooling-runtime-kernel", "MX061", """
        def f(x):
            k = (x.shape[2] // 2, 2)
            return nd.Pooling(x, kernel=k, stride=k, pool_type='avg')
        """, (2, 3, 6, 4), grad=(0,)),
    C("pooling-hybridized", ("MX061", "MX103"), """
        class Pool(mx.gluon.HybridBlock):
            def hybrid_forward(self, F, x):
                y = F.Pooling(x, kernel=(3, 3), stride=(2, 2), pool_type='max', pooling_convention='full',
                              name="pool")
                return F.Pooling(y, kernel=(1, 1), global_pool=True, pool_type='avg')

        def f(x):
            net = Pool()
            net.hybridize()
            return net(x)
        """, (2, 3, 6, 7), grad=(0,)),
    # -- MX062 UpSampling -------------------------------------------------------------------------
    C("upsampling-nearest", "MX062", ret("nd.UpSampling(x, scale={scale}, sample_type='nearest')"), (2, 3, 2, 3),
      grad=(0,), draw=shaped(4, scale=lambda st: st.integers(1, 4)), options={"scale": 2}),
    C("upsampling-nearest-concat", "MX062",
      ret("nd.UpSampling(x, y, scale=2, sample_type='nearest', num_args=2)"), (2, 2, 4, 6), (2, 3, 2, 3),
      grad=(0, 1)),
    C("upsampling-nearest-sum", "MX062",
      ret("nd.UpSampling(x, y, scale=3, sample_type='nearest', multi_input_mode='sum', num_args=2)"),
      (2, 2, 2, 2), (2, 2, 1, 1), grad=(0, 1)),
    C("upsampling-bilinear", "MX062",
      ret("nd.UpSampling(x, y, scale={scale}, sample_type='bilinear', num_filter=3)"), (2, 3, 3, 4), (3, 1, 4, 4),
      grad=(0, 1), options={"scale": 2}),
    C("upsampling-bilinear-odd-scale", "MX062",
      ret("nd.UpSampling(x, y, scale=3, sample_type='bilinear', num_filter=2)"), (1, 2, 2, 3), (2, 1, 5, 5),
      grad=(0, 1)),
    C("upsampling-in-hybrid-forward", ("MX062", "MX103"), """
        class Up(mx.gluon.HybridBlock):
            def hybrid_forward(self, F, x):
                return F.UpSampling(x, scale=2, sample_type='nearest', name="up") * 2

        def f(x):
            return Up()(x)
        """, (2, 3, 2, 2), grad=(0,)),
    # -- MX063 AdaptiveAvgPooling2D ---------------------------------------------------------------
    C("adaptive-avg-pool", "MX063", ret("nd.contrib.AdaptiveAvgPooling2D(x, output_size={size})"), (2, 3, 7, 9),
      grad=(0,), draw=shaped(4, max_side=9, size=lambda st: st.one_of(
          st.integers(1, 5), st.tuples(st.integers(1, 5), st.integers(1, 5)))), options={"size": (3, 4)}),
    C("adaptive-avg-pool-default", "MX063", ret("nd.contrib.AdaptiveAvgPooling2D(x)"), (2, 3, 4, 5), grad=(0,)),
    # -- MX064 BilinearResize2D -----------------------------------------------------------------------
    C("bilinear-resize-size", "MX064",
      ret("nd.contrib.BilinearResize2D(x, height={height}, width={width}, align_corners={corners})"), (2, 3, 4, 5),
      grad=(0,), draw=shaped(4, max_side=6, height=lambda st: st.integers(1, 9), width=lambda st: st.integers(1, 9),
                             corners=lambda st: st.booleans()),
      options={"height": 7, "width": 3, "corners": True}),
    C("bilinear-resize-default-corners", "MX064", ret("nd.contrib.BilinearResize2D(x, height=6, width=8)"),
      (1, 2, 3, 5), grad=(0,)),
    C("bilinear-resize-scale", "MX064",
      ret("nd.contrib.BilinearResize2D(x, scale_height={sh}, scale_width={sw}, align_corners={corners})"),
      (2, 2, 5, 7), grad=(0,),
      draw=shaped(4, min_side=2, max_side=7, sh=lambda st: st.sampled_from([0.5, 0.7, 1.5, 2.0, 1 / 3]),
                  sw=lambda st: st.sampled_from([0.5, 0.6, 1.3, 2.0, 3.0]), corners=lambda st: st.booleans()),
      options={"sh": 0.5, "sw": 1.5, "corners": False}),
    # (`like` of another batch or channel count corrupts MXNet 1.9.1's memory in the backward pass)
    C("bilinear-resize-like", "MX064", ret("nd.contrib.BilinearResize2D(x, y, mode='like')"), (2, 3, 3, 4),
      (2, 3, 5, 7), grad=(0,)),
    C("bilinear-resize-modes", "MX064", """
        def f(x):
            return [nd.contrib.BilinearResize2D(x, scale_height=2.0, scale_width=0.5, mode='odd_scale'),
                nd.contrib.BilinearResize2D(x, mode='to_even_down'), nd.contrib.BilinearResize2D(x, mode='to_even_up'),
                nd.contrib.BilinearResize2D(x, mode='to_odd_down'), nd.contrib.BilinearResize2D(x, mode='to_odd_up')]
        """, (1, 2, 5, 6), grad=(0,)),
    C("bilinear-resize-in-hybrid-forward", ("MX064", "MX103"), """
        class Head(mx.gluon.HybridBlock):
            def hybrid_forward(self, F, x, skip):
                return F.contrib.BilinearResize2D(x, skip, mode='like', name="resize") + skip

        def f(x, y):
            return Head()(x, y)
        """, (2, 3, 2, 3), (2, 3, 4, 5), grad=(0, 1)),
    # -- MX065 pad --------------------------------------------------------------------------------
    C("pad-modes-4d", "MX065", """
        def f(x):
            w = (0, 0, 0, 0, {top}, {bottom}, {left}, {right})
            return [nd.pad(x, mode='constant', pad_width=(0, 0, 0, 0, {top}, {bottom}, {left}, {right}),
                           constant_value=-1.5),
                    nd.pad(x, mode='edge', pad_width=(0, 0, 0, 0, {top}, {bottom}, {left}, {right})),
                    nd.pad(x, mode='reflect', pad_width=(0, 0, 0, 0, {top}, {bottom}, {left}, {right})),
                    nd.pad(x, mode='edge', pad_width=w)]
        """, (2, 3, 4, 5), grad=(0,),
      draw=shaped(4, min_side=4, max_side=6, top=lambda st: st.integers(0, 3), bottom=lambda st: st.integers(0, 3),
                  left=lambda st: st.integers(0, 3), right=lambda st: st.integers(0, 3)),
      options={"top": 1, "bottom": 2, "left": 3, "right": 0}),
    C("pad-5d", "MX065", ret("[nd.pad(x, mode='constant', pad_width=(0, 0, 0, 0, 1, 0, 0, 2, 3, 1)), "
                             "nd.pad(x, mode='reflect', pad_width=(0, 0, 0, 0, 1, 1, 2, 0, 0, 1))]"),
      (1, 2, 3, 4, 5), grad=(0,)),
    # the NDArray method (Quantization.MXNet's im2col convolution pads its input so)
    C("pad-method", "MX065", meth("a.pad(mode='constant', constant_value=0.5, pad_width=(0, 0, 0, 0, 2, 1, 0, 1))"),
      (1, 2, 3, 4), grad=(0,)),
    # -- MX896 round, rint: MXNet's ties -----------------------------------------------------------
    C("round-ties", "MX896", ret("[nd.round(x), nd.rint(x), x.as_in_context(mx.cpu()).round()]"),
      ("const", [[0.5, 1.5, 2.5, -0.5], [-1.5, -2.5, 0.49, 3.7], [8388609.0, -3.5, 7.0, -0.51]])),
    C("round-quantized", "MX896", meth("(a / 0.25).round() * 0.25"), (3, 4)),
    # -- MX897 softmax_cross_entropy: summed over the batch, shape (1,) --------------------------
    C("softmax-cross-entropy", "MX897", ret("nd.softmax_cross_entropy(x, y)"), (5, 4),
      ("const", [1.0, 0.0, 3.0, 3.0, 0.0]), grad=(0,)),
    # -- MX066 take, MX067 gather_nd: float ids ----------------------------------------------------
    C("take-clip-float-ids", "MX066", ret("nd.take(x, y)"), (4, 3),
      ("const", [[2.7, -1.0, 5.0], [0.0, -0.5, 2.0]]), grad=(0,)),
    # the method on a known array (sockeye: `self.weight.data().take(ids)`): rows, never torch's flat take
    C("take-method-rows", "MX066", meth("a.take(y)"), (4, 3), ("const", [2.0, 0.0, 3.0]), grad=(0,)),
    C("take-wrap", "MX066", ret("nd.take(x, y, axis=1, mode='wrap')"), (2, 4, 3),
      ("const", [-1.0, 5.0, -4.2, 1.0, 1.0]), grad=(0,)),
    C("take-drawn-axis", "MX066", ret("nd.take(x, y, axis={axis})"), (3, 4, 2), ("ids", (2, 3), 0, 2), grad=(0,),
      draw=lambda: on_axis(min_rank=1, max_rank=3)().map(lambda so: (so[0] + (("ids", (2, 3), -1, 4),), so[1])),
      options={"axis": 1}),
    C("take-int32-ids", "MX066", ret("nd.take(x, y, axis=-1)"), (3, 4), ("int32", (2, 2), 0, 4)),
    C("gather-nd", "MX067", ret("nd.gather_nd(x, y)"), (2, 3, 4),
      ("const", [[1.0, 0.0, 0.0, 1.0], [2.0, 0.0, 1.0, 2.0]]), grad=(0,)),
    # (MXNet 1.9.1 sends no gradient to a negative id; the forward counts it from the end)
    C("gather-nd-negative-ids", "MX067", ret("nd.gather_nd(x, y)"), (2, 3, 4),
      ("const", [[-1.0, 0.0, -2.0], [2.0, -3.0, -1.0]])),
    C("gather-nd-all-axes", "MX067", ret("nd.gather_nd(x, y)"), (3, 4), ("const", [[2.0, 0.0], [3.0, 1.0]]),
      grad=(0,)),
    C("gather-nd-in-hybrid-forward", ("MX067", "MX103"), """
        class Pick(mx.gluon.HybridBlock):
            def hybrid_forward(self, F, x, ids):
                return F.gather_nd(x, ids, name="gather")

        def f(x, y):
            return Pick()(x, y)
        """, (3, 4, 2), ("const", [[[0.0, 2.0], [1.0, 1.0]], [[3.0, 0.0], [1.0, 1.0]]]), grad=(0,)),
    # -- MX068 eye --------------------------------------------------------------------------------
    C("eye", "MX068", ret("[nd.eye(3), nd.eye(2, 4), nd.eye(4, 3, 1), nd.eye(3, k=-2), nd.eye(3, 0, 0), "
                          "nd.eye(N=2, M=3, k=-1, dtype='int32'), nd.eye(2, dtype='float64', ctx=mx.cpu())]")),
    C("eye-runtime", "MX068", """
        def f(x):
            n = x.shape[0]
            return nd.eye(n, x.shape[1], 1) * x
        """, (3, 4), grad=(0,)),
    # -- MX051 prelu, and `name=` on any operator ---------------------------------------------------
    C("leaky-relu-prelu", "MX051", ret("nd.LeakyReLU(x, y, act_type='prelu')"), (2, 3, 4), ("pos", (3,)),
      grad=(0, 1)),
    C("leaky-relu-prelu-shared", "MX051", ret("nd.LeakyReLU(x, gamma=y, act_type='prelu')"), (2, 3), ("pos", (1,)),
      grad=(0, 1)),
    C("operators-name-keyword", ("MX038", "MX051", "MX014", "MX103"), """
        class Block(mx.gluon.HybridBlock):
            def hybrid_forward(self, F, x):
                y = F.clip(x, 0.0, 6.0, name="relu6")
                z = F.LeakyReLU(x, act_type='leaky', slope=0.1, name="fwd")
                return y + z + F.ones_like(x, name="one") + F.Activation(x, 'tanh', name="act")

        def f(x):
            return Block()(x)
        """, (2, 3), grad=(0,)),
    C("slicechannel-in-hybrid-forward", ("MX030", "MX103"), """
        class Split(mx.gluon.HybridBlock):
            def hybrid_forward(self, F, x):
                a, b, c = F.SliceChannel(x, num_outputs=3, axis=1, squeeze_axis=True, name="split")
                return a * b - c + F.zeros_like(x, name="zero").sum(axis=1)

        def f(x):
            return Split()(x)
        """, (2, 3, 4), grad=(0,)),
    C("one-hot-float-ids", "MX039", ret("nd.one_hot(x, 4)"), ("const", [2.7, -0.5, 1.2, 3.9, 4.0])),
    # -- MX531 autograd.Function: the user's forward and backward ----------------------------------
    C("autograd-function", ("MX531", "MX044"), """
        class Sigmoid(mx.autograd.Function):
            def forward(self, x):
                y = 1 / (1 + nd.exp(-x))
                self.save_for_backward(y)
                return y

            def backward(self, dy):
                y, = self.saved_tensors
                return dy * y * (1 - y) * 3  # not the true gradient: the user's backward must run

        def f(x):
            return Sigmoid()(x)
        """, (2, 3), grad=(0,)),
    C("autograd-function-two-in-two-out", ("MX531",), """
        class Scale(mx.autograd.Function):
            def __init__(self, k):
                super().__init__()
                self.k = k

            def forward(self, a, b):
                self.save_for_backward(a, b)
                return a * b * self.k, a + b

            def backward(self, d_prod, d_sum):
                a, b = self.saved_tensors
                return [d_prod * b + d_sum, d_prod * a * 2]

        def f(x, y):
            p, s = Scale(0.5)(x, y)
            return p, s * 2
        """, (2, 3), (2, 3), grad=(0, 1)),
    # -- the training loop's autograd (issue 9): gradients and modes as MXNet computes them --------
    C("backward-of-a-vector", ("MX536", "MX056", "MX532"), """
        def f(x):
            a = x * 1
            a.attach_grad()
            with mx.autograd.record():
                y = (a * a * 3 - a).sum(axis=1)
            y.backward()
            return a.grad
        """, (2, 3)),
    C("backward-with-head-gradient", ("MX536", "MX056", "MX532"), """
        def f(x, y):
            a = x * 1
            a.attach_grad()
            with mx.autograd.record():
                z = a * y * a
            z.backward(y * 2 - 1)
            return a.grad
        """, (2, 3), (2, 3)),
    # no trainer step after the backward: _mx_array_backward overwrites (grad_req='write') or adds ('add')
    C("backward-in-a-loop-overwrites", ("MX536", "MX056", "MX532"), """
        def f(x, y):
            a = x * 1
            a.attach_grad()
            for k in range(3):
                with mx.autograd.record():
                    z = a * y * (k + 1) + a * a
                z.backward()
            return a.grad
        """, (2, 3), (2, 3)),
    C("attach-grad-add", ("MX536", "MX056", "MX532"), """
        def f(x, y):
            a = x * 1
            a.attach_grad(grad_req='add')
            for k in range(3):
                with mx.autograd.record():
                    z = a * y * (k + 1)
                z.backward()
            return a.grad
        """, (2, 3), (2, 3)),
    C("autograd-grad-and-backward", ("MX537", "MX056", "MX532"), """
        def f(x, y):
            a = x * 1
            a.attach_grad()
            with mx.autograd.record():
                z = a * a * y
                g = mx.autograd.grad(z, [a], retain_graph=True)[0]
            with mx.autograd.record():
                u = a * y
                v = a * a
            mx.autograd.backward([u, v])
            return g, a.grad
        """, (2, 3), (2, 3)),
    C("autograd-modes-on-a-model", ("MX532", "MX533", "MX534", "MX538"), """
        def f(x):
            net = mx.gluon.nn.BatchNorm(in_channels=3)
            net.initialize()
            with mx.autograd.train_mode():
                a = net(x)
            with mx.autograd.predict_mode():
                b = net(x)
            with mx.autograd.record():
                with mx.autograd.predict_mode():
                    c = net(x)
                with mx.autograd.pause():
                    d = net(x) + mx.autograd.is_recording()
                e = net(x) * (1 + mx.autograd.is_recording())
            return a, b, c, d, e, net(x)
        """, (4, 3)),
    C("autograd-global-switches", ("MX535", "MX541", "MX530"), """
        def f(x):
            net = mx.gluon.nn.BatchNorm(in_channels=3)
            net.initialize()
            prev = mx.autograd.set_training(True)
            a = net(x) * (1 + float(mx.autograd.is_training()))
            back = mx.autograd.set_training(prev)
            rec = mx.autograd.set_recording(True)
            b = net(x) + float(mx.autograd.is_recording()) + float(mx.autograd.is_training())
            mx.autograd.set_recording(rec)
            return a, b, net(x) + float(prev) + 2 * float(back) + 4 * float(mx.autograd.is_recording())
        """, (4, 3)),
    C("comparison-dtype", "MX540", """
        def f(x, y):
            a = x.as_in_context(mx.cpu())
            return (a > y) * 2 + (a == a) - (a <= 0.1), (a != y).mean(axis=1), (a < y).sum(axis=0), 1 - (a >= y)
        """, (2, 3), (2, 3)),
    # names bound by tuple displays keep their elements' kinds (`lo, hi = a[:, 0], a[:, 0] + a[:, 1]`: the IOU
    # loss of the OCR package), a list display and a nested one too
    C("comparison-tuple-bound", "MX540", """
        def f(x, y):
            a = x.as_in_context(mx.cpu())
            lo, hi = a[:, 0], a[:, 0] + a[:, 1]
            [p, (q, r)] = [hi * 2, (lo, 0.5)]
            return (lo < y[:, 0]) * 3 - (hi > q), 1 - (p >= r)
        """, (3, 2), (3, 2)),
    # a comparison of untyped values handed to an MXNet operator is one of NDArrays (Note [comparison handed to an
    # operator]): the d2l accuracy helper `nd.mean(output.argmax(axis=1) == label)`, a count, a mask
    C("comparison-handed-to-operator", ("MX540", "MX033"), ret(
        "[nd.mean(x.argmax(axis=1) == y), nd.sum(x > 0.2, axis=0), nd.mean(x != x.max(axis=1, keepdims=True), "
        "axis=1), nd.broadcast_mul(x <= 0.1, x)]"), ("ids", (4, 3), 0, 3), ("ids", (4,), 0, 3)),
    # -- starred arrays in a varargs slot: bound statically (Note [starred arguments]) -------------
    C("concat-starred", "MX028", """
        def f(x, y, z):
            parts = [y, z]
            return [nd.concat(*parts, dim=0), nd.concat(x, *parts), nd.concat(*(p * 2 for p in parts), x, dim=0)]
        """, (2, 3), (2, 3), (2, 3), grad=(0, 1, 2)),
    C("stack-starred", ("MX029", "MX057"), """
        def f(x, y):
            rows = [x, y, x * y]
            return nd.stack(*rows, axis=1), nd.add_n(*rows)
        """, (2, 3), (2, 3), grad=(0, 1)),
    C("reshape-method-starred", ("MX023", "MX504"), """
        def f(x):
            a = x.as_in_context(mx.cpu())
            spec, dims = (0, -1), [(-1, 2)]
            return a.reshape(*spec), a.reshape(*dims), a.reshape(0, *spec[1:])
        """, (2, 3, 4), grad=(0,)),
    C("transpose-method-starred", ("MX025", "MX504"), """
        def f(x):
            a = x.as_in_context(mx.cpu())
            axes = [(2, 0, 1)]
            return a.transpose(*axes)
        """, (2, 3, 4), grad=(0,)),
    C("upsampling-starred", "MX062", """
        def f(x, y):
            inputs = [x, y]
            return nd.UpSampling(*inputs, scale=2, sample_type='nearest', num_args=2)
        """, (2, 2, 4, 6), (2, 3, 2, 3), grad=(0, 1)),
    # -- **kwargs: the operator's helper takes MXNet's own parameters (Note [operator helpers]) -----
    C("kwargs-concat-stack-clip", ("MX028", "MX029", "MX038"), """
        def f(x, y):
            dims, low = {'dim': 0}, {'a_min': -0.3, 'a_max': 0.4}
            return [nd.concat(x, y, **dims), nd.stack(x, y, **{'axis': -1}), nd.clip(x, **low)]
        """, (2, 3), (2, 3), grad=(0, 1)),
    C("kwargs-activations", ("MX051", "MX034"), """
        def f(x, y):
            outs = [nd.Activation(x, **{'act_type': t}) for t in ('relu', 'sigmoid', 'tanh', 'softrelu', 'softsign')]
            for kw in ({'act_type': 'leaky', 'slope': 0.1}, {'act_type': 'elu', 'slope': 0.7}, {'act_type': 'gelu'},
                       {'act_type': 'prelu', 'gamma': y}, {}):
                outs.append(nd.LeakyReLU(x, **kw))
            outs.append(nd.softmax(x, **{'axis': 1, 'temperature': 2.0}))
            outs.append(nd.log_softmax(x, **{'axis': 0}))
            return outs
        """, (2, 3, 4), ("pos", (3,)), grad=(0, 1)),
    C("kwargs-shapes", ("MX023", "MX025", "MX053", "MX030"), """
        def f(x):
            spec = {'shape': (0, -3)}
            return [nd.reshape(x, **spec), nd.reshape(x, *[(-1, 4)]), nd.transpose(x, **{'axes': (1, 2, 0)}),
                    nd.transpose(x, *[(2, 1, 0)]), nd.slice_axis(x, **{'axis': 2, 'begin': 1, 'end': None}),
                    nd.split(x, **{'num_outputs': 3, 'axis': 1, 'squeeze_axis': True}),
                    nd.SliceChannel(x, **{'num_outputs': 1, 'axis': 0})]
        """, (2, 3, 4), grad=(0,)),
    C("kwargs-convolution-gluon", ("MX059", "MX121"), """
        class Conv(mx.gluon.nn.Conv2D):  # a subclass reads Gluon's _kwargs
            pass

        def f(x, y, z):
            conv = Conv(4, (3, 2), strides=(2, 1), padding=(1, 0), dilation=(1, 2), groups=2, in_channels=4)
            nobias = Conv(4, 3, padding=1, use_bias=False, in_channels=4)
            return [nd.Convolution(x, y, z, name='fwd', **conv._kwargs),
                    nd.Convolution(x, nd.concat(y, y, dim=1)[:, :, :, :1].tile((1, 1, 1, 3)), name='fwd',
                                   **nobias._kwargs)]
        """, (2, 4, 5, 6), (4, 2, 3, 2), (4,), grad=(0, 1, 2)),
    C("kwargs-deconvolution", "MX060", """
        def f(x, y):
            kw = {'kernel': (3, 3), 'stride': (2, 2), 'pad': (1, 1), 'adj': (1, 0), 'num_filter': 2, 'num_group': 2}
            return nd.Deconvolution(x, y, workspace=256, **kw)
        """, (2, 4, 3, 4), (4, 1, 3, 3), grad=(0, 1)),
    C("kwargs-pooling-gluon", ("MX061", "MX123"), """
        class Max(mx.gluon.nn.MaxPool2D):  # subclasses read Gluon's _kwargs
            pass

        class Avg(mx.gluon.nn.AvgPool2D):
            pass

        def f(x):
            outs = []
            for pool in (Max(3, 2, 1, ceil_mode=True), Avg(2, 1), Avg(3, 2, 1, count_include_pad=False)):
                outs.append(nd.Pooling(x, name='fwd', **pool._kwargs))
            outs.append(nd.Pooling(x, **{'kernel': (1, 1), 'global_pool': True, 'pool_type': 'avg'}))
            return outs
        """, (2, 3, 7, 6), grad=(0,)),
    C("kwargs-resize-pad-lrn-upsampling", ("MX064", "MX065", "MX058", "MX062"), """
        def f(x, y):
            up = {'height': 7, 'width': 5}
            return [nd.contrib.BilinearResize2D(x, **up), nd.contrib.BilinearResize2D(x, y, **{'mode': 'like'}),
                    nd.pad(x, **{'mode': 'edge', 'pad_width': (0, 0, 0, 0, 1, 2, 0, 1)}),
                    nd.LRN(x, **{'nsize': 2, 'alpha': 0.5}),
                    nd.UpSampling(x, **{'scale': 2, 'sample_type': 'nearest'})]
        """, (2, 3, 3, 4), (2, 3, 5, 6), grad=(0,)),
    C("runtime-values-in-hybrid-forward", ("MX064", "MX051", "MX053", "MX103"), """
        class Head(mx.gluon.HybridBlock):
            def __init__(self, act, axis, **kwargs):
                super().__init__(**kwargs)
                self._up_kwargs = {'height': 6, 'width': 6}
                self.act, self.axis = act, axis

            def hybrid_forward(self, F, x):
                y = F.contrib.BilinearResize2D(x, **self._up_kwargs)
                y = F.Activation(y, act_type=self.act)
                return F.slice_axis(y, axis=self.axis, begin=1, end=None)

        def f(x):
            return Head('tanh', 2)(x)
        """, (2, 3, 4, 4), grad=(0,)),
    # Note [optional parameters]: a parameter registered on one path only arrives when held, else its default
    C("parameter-held-on-one-path", ("MX103",), """
        class Net(mx.gluon.HybridBlock):
            def __init__(self, use, **kwargs):
                super().__init__(**kwargs)
                self.w = self.params.get_constant('w', [[1.5, -2.0, 0.5]])
                if use:
                    self.c = self.params.get_constant('c', [[0.25, -1.5, 3.0]])

            def hybrid_forward(self, F, x, w, c=None):
                if c is not None:
                    x = F.broadcast_add(x, c)
                return F.broadcast_mul(x, w)

        def f(x):
            held, absent = Net(True), Net(False)
            held.initialize()
            absent.initialize()
            return [held(x), absent(x)]
        """, (2, 3), grad=(0,)),
    # Note [explicit base calls]: a Sequential subclass overriding add and __call__ names its bases' methods
    C("sequential-subclass-base-calls", ("MX151",), """
        class Scale(mx.gluon.HybridBlock):
            def __init__(self, c, **kwargs):
                super().__init__(**kwargs)
                self.c = c

            def hybrid_forward(self, F, x):
                return x * self.c

        class Seq(mx.gluon.nn.HybridSequential):
            def __init__(self, prefix=''):
                mx.gluon.nn.HybridSequential.__init__(self, prefix=prefix)

            def add(self, *blocks):
                assert all(isinstance(b, mx.gluon.HybridBlock) for b in blocks)
                mx.gluon.nn.HybridSequential.add(self, *blocks)

            def __call__(self, x):
                return mx.gluon.HybridBlock.__call__(self, x) + 1

        def f(x):
            s = Seq()
            s.add(Scale(2.0), Scale(-0.5))
            s.add(mx.gluon.nn.Activation('tanh'))
            return [s(x), s[1](x)]
        """, (2, 3), grad=(0,)),
    # -- MX070 slice ---------------------------------------------------------------------------------
    C("slice-drawn", "MX070", ret("nd.slice(x, begin={begin}, end={end}, step={step})"), (2, 3, 4), grad=(0,),
      draw=slices(), options={"begin": (0, None, 1), "end": (None, 2, None), "step": ()}),
    C("slice-negative-step", "MX070", ret("nd.slice(x, begin=(None, 2, 3), end=(None, 0, None), step=(1, -1, -2))"),
      (2, 3, 4), grad=(0,)),
    C("slice-bounds-at-run-time", ("MX070", "MX504"), """
        def f(x):
            a = x.as_in_context(mx.cpu())
            n = x.shape[2] - 1
            b, e = (0, n), (None, None)
            return [nd.slice(x, begin=(None, None, n), end=(None, None, None)), nd.slice(x, b, e),
                    a.slice(begin=(1,), end=(None,), step=(-1,))]
        """, (3, 4, 5), grad=(0,)),
    # -- MX071 slice_like -------------------------------------------------------------------------------
    C("slice-like", ("MX071", "MX504"), """
        def f(x, y):
            a = x.as_in_context(mx.cpu())
            return [nd.slice_like(x, y, axes=(2, 3)), nd.slice_like(x, y * 0, axes=(-1,)), nd.slice_like(x, y),
                    a.slice_like(y, axes=(1,))]
        """, (2, 4, 5, 6), (2, 3, 2, 4), grad=(0,)),
    # -- MX811 Crop --------------------------------------------------------------------------------------
    C("crop", "MX811", """
        def f(x, y):
            return [nd.Crop(x, y, center_crop=True), nd.Crop(*[x, y], offset=(1, 2)),
                    nd.Crop(x, h_w=(2, 3), center_crop=True), nd.Crop(x, h_w=(3, 2), offset=(2, 1))]
        """, (2, 3, 5, 7), (1, 1, 2, 4), grad=(0,)),
    # -- MX812 SpatialTransformer ---------------------------------------------------------------------
    C("spatial-transformer", "MX812", """
        def f(x, loc):
            theta = loc * 0.3 + nd.array([[0.9, 0.1, 0.0, -0.1, 1.1, 0.05]])
            return nd.SpatialTransformer(x, theta, target_shape=(4, 5), transform_type='affine',
                                         sampler_type='bilinear')
        """, (2, 3, 6, 7), (2, 6), grad=(0, 1)),
    # -- MX422 the CTC operator ----------------------------------------------------------------------
    C("ctc-operator", "MX422", """
        def f(x):
            first = nd.array([[1, 2, 2, 0], [3, 1, 0, 0]])
            last = nd.array([[0, 1, 1, -1], [2, 0, -1, -1]])
            return [nd.ctc_loss(x, first), nd.contrib.ctc_loss(x, last, blank_label='last'),
                    nd.CTCLoss(x, first, nd.array([5, 4]), nd.array([3, 1]), use_data_lengths=True,
                               use_label_lengths=True)]
        """, (6, 2, 4), grad=(0,)),
    # -- MX072 stop_gradient / BlockGrad ----------------------------------------------------------
    C("stop-gradient", "MX072", ret("nd.stop_gradient(x * 2) * x + nd.BlockGrad(x) * 3"), (2, 3), grad=(0,)),
    # -- MX073 reshape_like --------------------------------------------------------------------------
    C("reshape-like", ("MX073", "MX504"), """
        def f(x, y, z):
            a = x.as_in_context(mx.cpu())
            return [nd.reshape_like(x, y), nd.reshape_like(x, y, lhs_begin=1, lhs_end=None, rhs_begin=1, rhs_end=None),
                    nd.reshape_like(x * 1, y, lhs_begin=-2, rhs_begin=1), a.reshape_like(z, lhs_end=2, rhs_end=1)]
        """, (2, 3, 4), (2, 12), (6, 4), grad=(0,)),
    # -- MX074 broadcast_mod ----------------------------------------------------------------------------
    C("broadcast-mod", "MX074", ret("nd.broadcast_mod(x, y)"),
      ("const", [[5.5, -5.5, 5.5], [-5.5, 3.0, 7.25]]), ("const", [2.0, -2.0, 0.0]), grad=(0,)),
    C("broadcast-mod-drawn", "MX074", ret("nd.broadcast_mod(x, y)"), (2, 3), ("pos", (1, 3)), grad=(0, 1),
      draw=broadcasting(2, kinds=(None, "pos"))),
    C("broadcast-mod-int", "MX074", ret("nd.broadcast_mod(x, y)"), ("int32", (3, 4), -9, 9), ("int32", (4,), -3, 3)),
    # -- MX075 linspace -------------------------------------------------------------------------------------
    C("linspace", "MX075", ret("[nd.linspace(0, 1, 7), nd.linspace(-1.3, 2.7, 6, endpoint=False), "
                               "nd.linspace(2, 5, 1), nd.linspace(0, 10, 5, dtype='float64')]")),
    # -- MX076 norm ---------------------------------------------------------------------------------------
    C("norm-drawn", "MX076", ret("nd.norm(x, ord={ord}, axis={axis}, keepdims={keepdims})"), (2, 3, 4), grad=(0,),
      draw=lambda: reductions(all_axes=True)().flatmap(
          lambda so: __import__("hypothesis").strategies.sampled_from([1, 2]).map(
              lambda o: (so[0], {**so[1], "ord": o}))), options={"ord": 2, "axis": 2, "keepdims": True}),
    C("norm-shapes", ("MX076", "MX504"), """
        def f(x, v):
            a = x.as_in_context(mx.cpu())
            order, axes = 1, (0, 2)
            return [nd.norm(x), nd.norm(x, ord=1), nd.norm(v, axis=0), nd.norm(x, 2, 2, keepdims=True), a.norm(axis=1),
                    nd.norm(x, ord=order, axis=axes), nd.norm(v, ord=order)]
        """, (2, 3, 4), (5,), grad=(0, 1)),
    C("kwargs-new-operators", ("MX070", "MX071", "MX073", "MX076", "MX077", "MX078", "MX080", "MX083"), """
        def f(x, y, z):
            boxes = nd.abs(y.reshape((-1,))[:8].reshape((2, 4)))
            return [nd.slice(x, **{'begin': (None, 1), 'end': (None, None), 'step': (1, -1)}),
                    nd.slice_like(x, y, **{'axes': (1,)}), nd.reshape_like(x, z, **{'lhs_begin': 1, 'rhs_begin': 1}),
                    nd.norm(x, **{'axis': 1, 'keepdims': True}), nd.L2Normalization(x, **{'mode': 'spatial'}),
                    nd.reverse(x, **{'axis': 2}), nd.contrib.arange_like(x, **{'axis': 0, 'step': 2}),
                    nd.contrib.box_iou(boxes, boxes, **{'format': 'center'})]
        """, (2, 3, 4), (2, 2, 4), (2, 12)),
    # -- MX028 / MX029 joining elements that are (1,) in MXNet 1.x and 0-d in torch ------------------------
    C("concat-stack-0d", ("MX028", "MX029"), """
        def f(x, y):
            t = y.reshape((-1,))[:3]
            return [nd.concat(nd.array([0]), *t, dim=0), nd.concat(x[0, 1], x[1, 0], dim=0),
                    nd.stack(*[x[i, 0] for i in range(2)]), nd.concat(*[x, x], dim=1), nd.stack(x[0], x[1], axis=1)]
        """, (2, 3), (4,), grad=(0, 1)),
    # -- MX045 maximum / minimum with a side xlate cannot type -------------------------------------------
    C("extrema-run-time-number", "MX045", """
        def f(x, y, cutoff=0.25, low=-0.5):
            return [nd.maximum(x, cutoff), nd.minimum(low, x), nd.maximum(x, y), nd.minimum(x, y * 2)]
        """, (2, 3), (2, 3), grad=(0, 1)),
    # -- MX113 the operator namespace bound to a name of a function's own ---------------------------------
    C("namespace-alias", ("MX113", "MX023"), """
        def f(x, y):
            F = mx.ndarray
            steps = F.contrib.arange_like(x, axis=1)
            ones = F.ones_like(steps)
            mask = F.broadcast_lesser(F.reshape(steps, shape=(1, -1)), F.reshape(F.sum(y, axis=1), shape=(-1, 1)))
            return [mask, F.broadcast_mul(ones, F.reshape(ones, shape=(-1, 1))), F.concat(x, y, dim=1)]
        """, (2, 5), (2, 3)),
    # -- MX090 FullyConnected / Embedding operators -----------------------------------------------------
    C("fully-connected-op", "MX090", """
        def f(x, y, z):
            w = y.reshape((5, -1))
            return [nd.FullyConnected(x, w[:, :12], z[:5], num_hidden=5),
                    nd.FullyConnected(x, w[:, :4], None, num_hidden=5, no_bias=True, flatten=False),
                    nd.FullyConnected(data=x, weight=w[:, :4], bias=z[:5], num_hidden=5, flatten=False)]
        """, (2, 3, 4), (5, 12), (6,), grad=(0, 1, 2)),
    C("embedding-op", "MX090", """
        def f(x, y):
            idx = nd.array([0, 3, 5, -1, 2.7, 1.2])
            return [nd.Embedding(idx, x, input_dim=4, output_dim=3), nd.Embedding(idx.reshape((2, 3)), x, 4, 3),
                    nd.Embedding(data=nd.array([1, 2], dtype='int32'), weight=x, input_dim=4, output_dim=3) * y]
        """, (4, 3), (2, 3), grad=(0, 1)),
    # -- MX077 L2Normalization -------------------------------------------------------------------------
    C("l2-normalization", "MX077", ret("[nd.L2Normalization(x), nd.L2Normalization(x, mode='channel', eps=1e-3), "
                                       "nd.L2Normalization(x, mode='spatial')]"), (2, 3, 4, 5), grad=(0,),
      draw=shaped(4, max_side=4), options={}),
    C("l2-normalization-small-norm", "MX077", """
        def f(x):
            return [nd.L2Normalization(x * 1e-6, mode='channel'), nd.L2Normalization(x[:, 0]),
                    nd.L2Normalization(x[0, 0])]
        """, (2, 3, 4), grad=(0,)),
    # -- MX078 reverse, MX079 shape_array, MX080 arange_like --------------------------------------------
    C("reverse-flip", "MX078", """
        def f(x):
            axis = x.ndim - 1
            return [nd.reverse(x, axis={axis}), nd.flip(x, axis=(0, 2)), nd.reverse(x, axis=axis)]
        """, (2, 3, 4), grad=(0,), draw=lambda: on_axis(min_rank=3, max_rank=4)().map(
            lambda so: (so[0], {"axis": so[1]["axis"] % len(so[0][0])})), options={"axis": 1}),
    C("shape-array", "MX079", ret("[nd.shape_array(x), nd.shape_array(x * 2)]"), (2, 3, 4)),
    C("arange-like", "MX080", """
        def f(x, y):
            return [nd.contrib.arange_like(x), nd.contrib.arange_like(x, axis=1), nd.contrib.arange_like(x, start=2,
                    step=0.3, repeat=2, axis=-1), nd.contrib.arange_like(y, repeat=3)]
        """, (2, 3, 4), ("int32", (2, 5), 0, 9)),
    C("arange-like-gradient", "MX080", ret("nd.contrib.arange_like(x) * x"), (2, 3), grad=(0,)),
    # -- MX042 broadcast_like with axes ------------------------------------------------------------------
    C("broadcast-like-axes", "MX042", ret("[nd.broadcast_like(x, y, lhs_axes=1, rhs_axes=0), "
                                          "nd.broadcast_like(x, y, lhs_axes=(0, 1), rhs_axes=(1, 0))]"),
      (1, 1, 3), (4, 2), grad=(0,)),
    # -- MX083 box_iou, MX084 box_nms --------------------------------------------------------------------
    C("box-iou-corner", "MX083", ret("nd.contrib.box_iou(x, y)"),
      ("const", [[0.0, 0.0, 2.0, 2.0], [1.0, 1.0, 3.0, 3.0], [0.0, 0.0, 0.0, 0.0], [2.0, 2.0, 1.0, 1.0]]),
      ("const", [[1.0, 1.0, 2.0, 2.0], [0.0, 0.0, 0.0, 0.0], [5.0, 5.0, 6.0, 6.0]]), draw=boxes()),
    # (MXNet's gradient through box_iou is zero; the translation's result is detached)
    C("box-iou-no-gradient", "MX083", ret("nd.contrib.box_iou(x, y).sum() + x.sum() * 2"),
      ("const", [[0.1, 0.2, 0.6, 0.5], [0.3, 0.1, 0.4, 0.9]]), ("const", [[0.2, 0.2, 0.5, 0.7]]), grad=(0,)),
    C("box-iou-center", "MX083", ret("[nd.contrib.box_iou(x, y, format='center'), "
                                     "nd.contrib.box_iou(x.reshape((1, -1, 4)), y, format='center')]"),
      ("const", [[1.0, 1.0, 2.0, 2.0], [0.5, 0.5, 0.2, 0.4]]), ("const", [[1.5, 1.5, 1.0, 1.0], [0.4, 0.6, 0.3, -0.1]]),
      draw=boxes(center=True)),
    C("box-nms-drawn", "MX084", ret("nd.contrib.box_nms(x, overlap_thresh={thresh}, valid_thresh={valid}, "
                                    "topk={topk}, id_index=0, background_id={background}, force_suppress={force}, "
                                    "in_format={fmt}[0], out_format={fmt}[1])"),
      ("const", [[[0, 0.5, 0.1, 0.1, 0.2, 0.2], [1, 0.4, 0.1, 0.1, 0.2, 0.2], [0, 0.3, 0.1, 0.1, 0.14, 0.14],
                  [2, 0.6, 0.5, 0.5, 0.7, 0.8], [0, 0.6, 0.12, 0.1, 0.21, 0.2]]]), grad=(0,), draw=nms_inputs(),
      options={"thresh": 0.1, "valid": 0.0, "topk": -1, "force": False, "background": -1,
               "fmt": ("corner", "corner")}),
    C("box-nms-kwargs-3d", "MX084", """
        def f(x):
            kw = {'overlap_thresh': 0.3, 'topk': 3, 'coord_start': 2, 'score_index': 1, 'id_index': 0,
                  'force_suppress': True}
            return [nd.contrib.box_nms(x, **kw), nd.contrib.box_nms(x.reshape((1, 1, 5, 6)), topk=0)]
        """, ("const", [[0, 0.5, 0.1, 0.1, 0.2, 0.2], [1, 0.4, 0.1, 0.1, 0.2, 0.2], [0, 0.3, 0.1, 0.1, 0.14, 0.14],
                        [2, 0.6, 0.5, 0.5, 0.7, 0.8], [0, 0.6, -0.12, 0.1, 0.21, 0.2]]), grad=(0,)),
    # -- MX009 MultiBoxPrior (SSD anchors; only the input's shape is read), MX855 SoftmaxActivation ---------------
    C("multibox-prior", "MX009", ret("[nd.contrib.MultiBoxPrior(x, sizes=(0.5, 0.25), ratios=(1, 2)), "
                                     "nd.contrib.MultiBoxPrior(x, sizes=[.3], ratios=[2, 0.5, 1], steps=(0.2, 0.1), "
                                     "offsets=(0.3, 0.7), clip=True)]"), (2, 3, 3, 5)),
    # anchors (1, 4) at two scales; two samples' boxes, the second with one box and a -1 row, ties in IoU
    C("multibox-target", "MX009", ret("nd.contrib.MultiBoxTarget(x, y, z)"),
      ("const", [[[0.0, 0.0, 0.5, 0.5], [0.5, 0.0, 1.0, 0.5], [0.25, 0.25, 0.75, 0.75], [0.0, 0.5, 0.5, 1.0]]]),
      ("const", [[[1.0, 0.1, 0.1, 0.45, 0.5], [0.0, 0.5, 0.1, 0.9, 0.45]], [[2.0, 0.2, 0.3, 0.8, 0.7],
                                                                             [-1.0, -1.0, -1.0, -1.0, -1.0]]]),
      (2, 3, 4)),
    C("multibox-detection", "MX009", ret("[nd.contrib.MultiBoxDetection(nd.softmax(x, axis=1), y, z), "
                                         "nd.contrib.MultiBoxDetection(nd.softmax(x, axis=1), y, z, nms_threshold=0.1, "
                                         "force_suppress=True, nms_topk=2, clip=False, threshold=0.2)]"),
      (2, 3, 4), (2, 16),
      ("const", [[[0.0, 0.0, 0.5, 0.5], [0.1, 0.0, 0.6, 0.5], [0.25, 0.25, 0.75, 0.75], [0.0, 0.5, 0.5, 1.0]]])),
    C("softmax-activation", "MX855", ret("[nd.SoftmaxActivation(x), nd.SoftmaxActivation(x, mode='channel'), "
                                         "nd.SoftmaxActivation(x[0, 0])]"), (2, 3, 2, 4), grad=(0,)),
    # (MXNet's backward of a 1-D input fails an index check; its forward is the softmax of the whole vector)
    C("softmax-activation-1d", "MX855", ret("nd.SoftmaxActivation(x)"), (5,)),
    # mxnet.contrib.ndarray (and .nd) hold the same contrib operators as nd.contrib
    C("contrib-namespace-spellings", ("MX083", "MX084"), """
        from mxnet.contrib.ndarray import box_nms
        def f(x):
            return [box_nms(x, overlap_thresh=0.1, id_index=0), mx.contrib.nd.box_iou(x[:, 2:], x[:, 2:]),
                    mx.contrib.ndarray.box_iou(x[:1, 2:], x[:, 2:])]
        """, ("const", [[0, 0.5, 0.1, 0.1, 0.2, 0.2], [1, 0.4, 0.1, 0.1, 0.2, 0.2], [0, 0.3, 0.1, 0.1, 0.14, 0.14],
                        [0, 0.6, 0.12, 0.1, 0.21, 0.2]])),
]


from xlate.check.dialect_cases import DIALECT_CASES, DIALECT_DRAWS, DIALECT_RANDOM_CASES  # noqa: E402  (after the case kit)

from xlate.check.operator_cases import OPERATOR_CASES, SAMPLER_CASES, check_multinomial, check_sampler  # noqa: E402

CASES += DIALECT_CASES + OPERATOR_CASES
_IDS = [c.id for c in CASES]
assert len(set(_IDS)) == len(_IDS), "case ids must be unique"
BY_ID = {c.id: c for c in CASES}

# Shapes drawn around the fixed example, where the snippet allows any (the rest stay fixed).
DRAWS = {
    "zeros-like": same(), "asnumpy": same(), "asscalar-sum": same(),
    "cast-int32-truncates": same(), "cast-capital": same(), "astype-float64": same(),
    "expand-dims-fn": same(), "expand-dims-method-negative": same(),
    "transpose-no-axes-fn": same(), "transpose-no-axes-method": same(), "transpose-2d-no-axes": fixed_rank(2),
    "transpose-axes-kw": fixed_rank(3), "transpose-axes-tuple-method": fixed_rank(3),
    "swapaxes": same(min_rank=3), "swapaxis-keywords": same(min_rank=3), "swapaxes-defaults": same(min_rank=2),
    "moveaxis": fixed_rank(3),
    "flatten-4d": same(min_rank=2), "flatten-method": same(min_rank=2), "flatten-capital": same(min_rank=2),
    "concat-default-dim1": along(2, axis=1), "concat-dim0": along(2, axis=0),
    "concat-three-3d": along(3, axis=1), "concat-capital-num-args": along(2, axis=2),
    "concatenate-default-axis0": along(2, axis=0), "concatenate-axis1": along(3, axis=1),
    "stack-default-axis0": same(2), "stack-axis1": same(2), "stack-axis-negative": same(3),
    "dot-2d": matmuls(), "dot-2d-transpose-a": matmuls(transpose_a=True),
    "dot-2d-transpose-b": matmuls(transpose_b=True), "dot-2d-both": matmuls(transpose_a=True, transpose_b=True),
    "batch-dot": matmuls(batch=1), "batch-dot-transpose-a": matmuls(batch=1, transpose_a=True),
    "batch-dot-transpose-b-square": matmuls(batch=1, transpose_b=True),
    "batch-dot-both": matmuls(batch=1, transpose_a=True, transpose_b=True),
    "batch-dot-4d": matmuls(batch=2, transpose_b=True),
    "sum-axis-keepdims": same(min_rank=2), "sum-full-shape-1": same(), "mean-full-shape-1": same(),
    "sum-full-keepdims": same(), "sum-axis-none": same(), "sum-axis-empty-tuple": same(),
    "max-axis": same(min_rank=2), "min-axis-tuple": same(min_rank=3), "max-full": same(),
    "sum-exclude": same(min_rank=2), "mean-exclude-tuple-keepdims": same(min_rank=2),
    "max-exclude": same(), "prod-axis": same(min_rank=2, max_side=3), "prod-full": same(max_side=3),
    "sum-method-axis": same(), "max-method-full": same(), "min-method-axis-keepdims": same(),
    "mean-method-negative-axis": same(min_rank=2),
    "softmax-3d-default": same(), "log-softmax-3d-default": same(), "softmax-axis1": same(min_rank=2),
    "softmax-temperature": same(), "softmax-method": same(),
    "argmax-axis-float": same(min_rank=2), "argmax-flat-shape-1": same(), "argmax-method": same(),
    "argmin-method-flat": same(),
    "clip": same(), "clip-keywords": same(),
    "broadcast-add": broadcasting(2), "broadcast-sub-nested": broadcasting(3),
    "broadcast-mul-minus": broadcasting(2), "broadcast-div": broadcasting(2, kinds=(None, "pos")),
    "broadcast-power": broadcasting(2, kinds=("pos", None)), "broadcast-maximum": broadcasting(2),
    "broadcast-minimum": broadcasting(2), "elemwise-ops": same(2), "elemwise-div": same(2),
    "add-subtract-multiply-divide": same(2), "compare-functions": same(2),
    "elementwise-real": same(kind="unit"), "elementwise-positive": same(kind="pos"),
    "elementwise-erfinv": same(kind="unit"), "elementwise-inverse-trig": same(kind="unit"),
    "elementwise-relu-mixed": same(),
    "maximum-scalar-right": same(), "maximum-scalar-left": same(), "minimum-scalar": same(),
    "minimum-arrays": same(2), "maximum-broadcast": broadcasting(2),
    "repeat-axis": same(min_rank=2), "repeat-flat": same(), "repeat-method": same(), "tile": same(),
    "tile-short-reps": same(), "tile-long-reps": same(), "repeat-vs-tile": fixed_rank(2),
    "squeeze-all": same(max_side=2), "activation-types": same(), "leaky-relu-default-slope": same(),
    "leaky-relu-slope": same(), "leaky-relu-elu": same(), "leaky-relu-elu-default": same(),
    "leaky-relu-gelu": same(), "leaky-relu-selu-forward": same(),
    "sort-default": same(), "argsort-float": same(), "sort-axis-none": same(), "argsort-axis-none": same(),
    "as-in-context": same(), "copy-is-independent": same(), "context-roundtrip": same(),
    "stop-gradient": same(), "shape-array": same(), "arange-like-gradient": same(),
    **DIALECT_DRAWS,
}
assert set(DRAWS) <= set(BY_ID), sorted(set(DRAWS) - set(BY_ID))
for _id, _draw in DRAWS.items():
    BY_ID[_id].draw = _draw

# Every rule with numerical meaning is covered by a case or a special check.
NUMERIC_RULES = [f"MX{n:03d}" for n in (*range(10, 16), 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33,
                                        16, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51,
                                        52, 53, 54, 55, 57, *range(58, 85), 86, 87, 88, 89, 90, 91, 92, 93, *range(94, 100),
                                        4, 5, 8, *range(501, 509), 524,
                                        530, 531, 56, 532, 533, 534, 535, 536, 537, 538, 540, 541, 18, 9, 19, 868, 549, 845)]


# -- frameworks ------------------------------------------------------------------------------

def import_mxnet():
    """`mxnet` (importing xlate.check restored the numpy aliases it needs)."""
    import mxnet

    return mxnet


def import_torch():
    import torch

    return torch


# -- converting and running snippets -------------------------------------------------------

def convert(source: str):
    """The snippet converted with every rule (case_kit.convert, once per text)."""
    from xlate.check.case_kit import convert as converted

    return converted(source)


def load(source: str, name: str = "f") -> Callable:
    """Exec `source` in a fresh namespace and return its function `name`."""
    namespace: dict = {"__name__": "snippet"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(source, "<snippet>", "exec"), namespace)
    return namespace[name]


def check_codes(result, expected: Sequence[str]) -> None:
    """Each entry is "MX028" (status fixed) or "MX041:review"; nothing may be left manual."""
    seen = {(d.code, d.status) for d in result.diagnostics}
    for item in expected:
        code, _, status = item.partition(":")
        status = status or "fixed"
        assert (code, status) in seen, f"expected {code} with status {status}; got {sorted(seen)}\n{result.output}"
    manual = [(d.code, d.message) for d in result.diagnostics if d.status == "manual"]
    assert not manual, f"left for a human: {manual}\n{result.output}"
    assert "mxnet" not in result.output, result.output


def seed_for(key: str) -> int:
    return zlib.crc32(key.encode())


def make_input(rng, spec) -> Any:
    """A numpy input from a spec.

    A spec is a shape tuple (float32, asymmetric, |x| >= 0.1, no ties) or a tuple whose
    first item names a kind: ("pos", shape), ("unit", shape), ("ids", shape, low, high)
    (float32 integers), ("cond", shape) (float 0/1/2 values, both outcomes present),
    ("int32", shape, low, high), ("const", value) (a fixed numpy array, used as given).
    """
    if not spec or isinstance(spec[0], int):
        shape = tuple(spec)
        size = int(np.prod(shape)) if shape else 1
        # distinct magnitudes in [0.1, 1.6), more positive than negative values
        mag = 0.1 + (rng.permutation(size) + rng.uniform(0.05, 0.95, size)) / max(size, 1) * 1.5
        sign = np.where(rng.uniform(size=size) < 0.6, 1.0, -1.0)
        return (mag * sign).reshape(shape).astype(np.float32)
    kind, shape = spec[0], tuple(spec[1]) if len(spec) > 1 else ()
    if kind == "pos":
        return rng.uniform(0.2, 2.0, size=shape).astype(np.float32)
    if kind == "unit":
        return rng.uniform(-0.9, 0.9, size=shape).astype(np.float32)
    if kind == "ids":
        return rng.integers(spec[2], spec[3], size=shape).astype(np.float32)
    if kind == "int32":
        return rng.integers(spec[2], spec[3], size=shape).astype(np.int32)
    if kind == "cond":
        c = rng.choice(np.array([0.0, 1.0, 2.0], dtype=np.float32), size=shape)
        flat = c.reshape(-1)
        if flat.size >= 2:
            flat[0], flat[1] = 0.0, 2.0
        return c
    if kind == "const":
        value = np.array(spec[1])
        return value.astype(np.float32) if value.dtype == np.float64 else value
    raise ValueError(f"unknown input kind {kind!r}")


def describe(specs, options: Optional[dict] = None) -> str:
    """`x=(2, 3) y=(2, 4) dim=1`: a drawn example, for a failure line."""
    def one(spec):
        if not spec or isinstance(spec[0], int):
            return str(tuple(spec))
        if spec[0] == "const":
            return f"const{list(np.array(spec[1]).shape)}"
        return f"{spec[0]}{tuple(spec[1])}"
    parts = [f"{name}={one(s)}" for name, s in zip("xyz", specs)]
    parts += [f"{k}={v!r}" for k, v in (options or {}).items()]
    return " ".join(parts) or "no inputs"


def flat_outputs(out) -> list:
    return [o for item in out for o in flat_outputs(item)] if isinstance(out, (list, tuple)) else [out]


def run_mx(fn: Callable, inputs: Sequence, grad: Sequence[int] = (), heads: Optional[list] = None, *,
           dialect: bool = False):
    """Call the MXNet function; with `grad`, backward `heads` and return the input gradients.
    `dialect`: mx.np inputs, run in numpy mode (what `npx.set_np()` turns on), which is then off again."""
    mx = import_mxnet()
    if dialect:
        with mx.util.np_shape(True), mx.util.np_array(True):
            return _run_mx(mx, mx.np.array, fn, inputs, grad, heads)
    return _run_mx(mx, mx.nd.array, fn, inputs, grad, heads)


def _run_mx(mx, array: Callable, fn: Callable, inputs: Sequence, grad: Sequence[int], heads: Optional[list]):
    args = [array(a, dtype=a.dtype) for a in inputs]
    if not grad:
        return fn(*args), None
    for i in grad:
        args[i].attach_grad()
    with mx.autograd.record():
        out = fn(*args)
    mx.autograd.backward(flat_outputs(out), [array(h, dtype=h.dtype) for h in heads])
    return out, [args[i].grad for i in grad]


def run_torch(fn: Callable, inputs: Sequence, grad: Sequence[int] = (), heads: Optional[list] = None):
    torch = import_torch()
    args = [torch.from_numpy(a.copy()) for a in inputs]
    for i in grad:
        args[i].requires_grad_(True)
    out = fn(*args)
    if grad:
        torch.autograd.backward(flat_outputs(out), [torch.from_numpy(h.copy()) for h in heads])
        return out, [args[i].grad for i in grad]
    return out, None


# -- comparing outputs -------------------------------------------------------------------------

_MX_DEVICE = {"cpu": "cpu", "cpu_pinned": "cpu", "gpu": "cuda"}
Row = tuple  # (what, Mismatch | None, max_abs | None)


def _arrays(what: str, expected: np.ndarray, actual: np.ndarray, *, check_dtype: bool) -> list:
    if check_dtype and expected.dtype != actual.dtype:
        return [(what, Mismatch(what, f"dtype {actual.dtype} where MXNet gives {expected.dtype}",
                                expected.shape, actual.shape), None)]
    if expected.shape != actual.shape:
        return [(what, compare(what, expected, actual, EXACT), None)]
    floating = np.issubdtype(expected.dtype, np.floating) and np.issubdtype(actual.dtype, np.floating)
    # torch.testing.assert_close's tolerance for the less precise side; integers and booleans exactly
    tol = tolerance_for(min(expected.dtype, actual.dtype, key=lambda d: d.itemsize)) if floating else EXACT
    mismatch = compare(what, expected, actual, tol)
    if expected.size == 0:
        return [(what, mismatch, 0.0)]
    with np.errstate(invalid="ignore"):
        diff = np.abs(expected.astype(np.float64) - actual.astype(np.float64))
    max_abs = float(diff.max()) if np.isfinite(diff).all() else None
    return [(what, mismatch, max_abs)]


def _wrong(what: str, reason: str) -> list:
    return [(what, Mismatch(what, reason), None)]


def compare_outputs(actual, expected, *, what: str = "out", check_dtype: bool = True) -> list:
    """The torch result `actual` against MXNet's `expected`: one (what, Mismatch | None, max_abs)
    per array or value, nested lists and tuples walked item by item."""
    mx, torch = import_mxnet(), import_torch()
    if isinstance(expected, mx.nd.NDArray):
        if not isinstance(actual, torch.Tensor):
            return _wrong(what, f"expected a tensor, got {type(actual).__name__}")
        return _arrays(what, expected.asnumpy(), actual.detach().cpu().numpy(), check_dtype=check_dtype)
    if isinstance(expected, (list, tuple)):
        if not isinstance(actual, (list, tuple)):
            return _wrong(what, f"expected a sequence, got {type(actual).__name__}")
        if len(actual) != len(expected):
            return _wrong(what, f"{len(actual)} items where MXNet gives {len(expected)}")
        return [row for i, (a, e) in enumerate(zip(actual, expected))
                for row in compare_outputs(a, e, what=f"{what}[{i}]", check_dtype=check_dtype)]
    if isinstance(expected, np.ndarray):
        if not isinstance(actual, np.ndarray):
            return _wrong(what, f"expected a numpy array, got {type(actual).__name__}")
        return _arrays(what, expected, actual, check_dtype=True)
    if isinstance(expected, mx.Context):
        if not isinstance(actual, torch.device):
            return _wrong(what, f"expected a torch.device, got {actual!r}")
        if actual.type != _MX_DEVICE[expected.device_type] or (
                actual.type == "cuda" and (actual.index or 0) != expected.device_id):
            return _wrong(what, f"{actual} for {expected}")
        return [(what, None, None)]
    if isinstance(expected, str):  # a name MXNet gives (a Context's device_type)
        return [(what, None if actual == expected else Mismatch(what, f"{actual!r} where MXNet gives {expected!r}"),
                 None)]
    if expected is None or isinstance(expected, (bool, int, np.integer)):
        same = (actual == expected and isinstance(actual, (bool, int, np.integer)) or actual is expected) \
            and isinstance(actual, bool) == isinstance(expected, bool)
        return [(what, None if same else Mismatch(what, f"{actual!r} where MXNet gives {expected!r}"), None)]
    if isinstance(expected, (float, np.floating)):
        if not isinstance(actual, (float, np.floating)):
            return _wrong(what, f"expected a float, got {actual!r}")
        e = np.asarray(expected)  # MXNet's asscalar gives a numpy float32: its tolerance, not float64's
        return _arrays(what, e, np.asarray(actual, dtype=e.dtype), check_dtype=False)
    if isinstance(expected, range):
        return [(what, None if list(actual) == list(expected) else
                 Mismatch(what, f"{actual!r} where MXNet gives {expected!r}"), None)]
    raise TypeError(f"{what}: cannot compare MXNet result of type {type(expected).__name__}")


def check_case(case: Case, inputs: Sequence, *, options: Optional[dict] = None, seed=0) -> list:
    """Convert `case` (with `options` in its holes), run both sides on `inputs` (numpy arrays)
    and compare: a list of (what, Mismatch | None, max_abs). With `case.grad`, the gradients
    too, under a head gradient drawn from `seed` (an int or a numpy Generator). The expected codes not reported, or anything
    left manual, raise AssertionError."""
    source = case.source_for(case.options if options is None else options)
    result = convert(source)
    check_codes(result, case.codes)
    mx_f, torch_f = load(source), load(result.output)
    inputs = list(inputs)
    expected, _ = run_mx(mx_f, inputs, dialect=case.dialect)
    actual, _ = run_torch(torch_f, inputs)
    rows = compare_outputs(actual, expected)
    if case.grad:
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        heads = [make_input(rng, tuple(o.shape)) for o in flat_outputs(expected)]
        expected_out, expected_grads = run_mx(mx_f, inputs, case.grad, heads, dialect=case.dialect)
        actual_out, actual_grads = run_torch(torch_f, inputs, case.grad, heads)
        rows += compare_outputs(actual_out, expected_out, what="out (recorded)")
        rows += compare_outputs(actual_grads, expected_grads, what="grad")
    return rows


def run_example(case: Case, specs, options: dict, seed: int) -> list:
    """`check_case` on inputs made from `specs` with a generator seeded by `seed` (its head
    gradients drawn from the same generator, after the inputs)."""
    rng = np.random.default_rng(seed)
    inputs = [make_input(rng, spec) for spec in specs]
    return check_case(case, inputs, options=options, seed=rng)


def problems(rows: list) -> list:
    return [m.format() for _, m, _ in rows if m is not None]


# -- checks that are not value by value -------------------------------------------------------

# MX015 random: same distributions, different streams.
RANDOM_CASES = [
    # id, snippet expression, (mean, std) of the distribution, expected dtype
    ("uniform", "nd.random.uniform(-1, 3, shape=(200000,))", (1.0, 4 / 12 ** 0.5), "float32"),
    ("uniform-keywords-2d", "nd.random.uniform(low=2, high=2.5, shape=(400, 500))", (2.25, 0.5 / 12 ** 0.5),
     "float32"),
    ("uniform-defaults", "mx.nd.random.uniform(shape=(100000,))", (0.5, 1 / 12 ** 0.5), "float32"),
    ("uniform-float64", "nd.random.uniform(0, 1, shape=(100000,), dtype='float64')", (0.5, 1 / 12 ** 0.5),
     "float64"),
    ("normal", "nd.random.normal(0, 2, shape=(200000,))", (0.0, 2.0), "float32"),
    ("normal-keywords", "mx.random.normal(loc=1.5, scale=0.5, shape=(500, 400))", (1.5, 0.5), "float32"),
    ("randint", "nd.random.randint(-2, 5, shape=(200000,))", (1.0, (48 / 12) ** 0.5), "int32"),
    ("randint-int64", "nd.random.randint(0, 10, shape=(100000,), dtype='int64')", (4.5, (99 / 12) ** 0.5),
     "int64"),
    # passed as a value, called with MXNet's keywords by the code it is handed to (MXFusion's _sample_univariate)
    ("normal-as-value", "(lambda func, **k: func(shape=(400, 500), dtype='float64', **k))(nd.random.normal, loc=1.5, "
     "scale=0.5)", (1.5, 0.5), "float64"),
    ("uniform-as-value", "(lambda func, **k: func(shape=(200000,), **k))(func=nd.random.uniform, low=-1, high=3)",
     (1.0, 4 / 12 ** 0.5), "float32"),
]

# MX016: MXNet's older sampler names, positional (low, high, shape, ctx, dtype)
RANDOM_LEGACY_CASES = [
    ("legacy-uniform", "nd.random_uniform(-1, 3, (200000,))", (1.0, 4 / 12 ** 0.5), "float32"),
    ("legacy-uniform-ctx-dtype", "nd.uniform(0, 1, (100000,), mx.cpu(), 'float64')", (0.5, 1 / 12 ** 0.5),
     "float64"),
    ("legacy-normal", "mx.nd.random_normal(loc=1.5, scale=0.5, shape=(500, 400))", (1.5, 0.5), "float32"),
    ("legacy-normal-short", "nd.normal(0, 2, (200000,))", (0.0, 2.0), "float32"),
    ("legacy-randint", "nd.random_randint(-2, 5, (200000,))", (1.0, (48 / 12) ** 0.5), "int32"),
]

# `out=`: the draw is written into the array (its shape when none is given, its dtype) and returned
RANDOM_OUT_CASES = [
    ("out-normal", "nd.random.normal(0, 2, out=w)", (0.0, 2.0), "float32"),
    ("out-normal-shape", "nd.random.normal(0, 0.5, w.shape, out=w)", (0.0, 0.5), "float32"),
    ("out-uniform-float64", "nd.random.uniform(-1, 3, out=w64)", (1.0, 4 / 12 ** 0.5), "float64"),
    ("out-legacy-uniform", "nd.random_uniform(-1, 3, out=w)", (1.0, 4 / 12 ** 0.5), "float32"),
]


def check_random_out(id: str, expr: str, moments: tuple, dtype: str, *, seed: int = 3) -> None:
    """`out=` writes into the given array and returns that array, on both sides."""
    mx, torch = import_mxnet(), import_torch()
    source = HEADER + ("def f():\n    w = nd.zeros((400, 500))\n    w64 = nd.zeros((400, 500), dtype='float64')\n"
                       f"    r = {expr}\n    return r, w, w64\n")
    result = convert(source)
    assert not [d for d in result.diagnostics if d.status == "manual"], result.output
    mx.random.seed(seed)
    r, w, w64 = load(source)()
    expected = r.asnumpy()
    assert r is w or r is w64, f"{id}: MXNet returned another array"
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        tr, tw, tw64 = load(result.output)()
    assert tr is tw or tr is tw64, f"{id}: the translation returned another tensor"
    assert (tr is tw) == (r is w), f"{id}: written into the other array"
    assert tuple(tr.shape) == expected.shape and tr.dtype == getattr(torch, dtype) and expected.dtype == np.dtype(dtype)
    for side, values in (("PyTorch", tr.double().numpy()), ("MXNet", expected.astype(np.float64))):
        assert abs(values.mean() - moments[0]) < 0.02 * max(1.0, moments[1]), f"{id}: {side} mean {values.mean()}"
        assert abs(values.std() - moments[1]) < 0.02 * moments[1], f"{id}: {side} std {values.std()}"


RANDOM_DEFAULT_SHAPES = ["nd.random.uniform()", "nd.random.normal()", "nd.random.uniform(-1, 1)",
                         "nd.random.normal(0, 1, shape=5)", "nd.random.randint(0, 3)",
                         "nd.random.randint(0, 3, shape=4)", "nd.random.uniform(shape=3, dtype='float16')",
                         "nd.random.normal(1, 2, (2, 3), dtype='float64')", "nd.random.normal(shape=np.int64(3))"]


def check_random_statistics(id: str, expr: str, moments: tuple, dtype: str, *, seed: int = 7,
                            code: str = "MX015:review", dialect: bool = False) -> None:
    """Both sides draw from the same distribution: mean, std, dtype, shape and support
    (`dialect`: an mx.np expression, drawn in numpy mode)."""
    mx, torch = import_mxnet(), import_torch()
    source = (DIALECT_HEADER if dialect else HEADER) + ret(expr)
    result = convert(source)
    check_codes(result, [code])
    mx.random.seed(seed)
    if dialect:
        with mx.util.np_shape(True), mx.util.np_array(True):
            expected = load(source)().asnumpy()
    else:
        expected = load(source)().asnumpy()
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        actual = load(result.output)()
    assert isinstance(actual, torch.Tensor), f"{id}: expected a tensor, got {type(actual).__name__}"
    assert tuple(actual.shape) == expected.shape, f"{id}: shape {tuple(actual.shape)} != {expected.shape}"
    assert actual.dtype == getattr(torch, dtype) and expected.dtype == np.dtype(dtype), \
        f"{id}: dtype {actual.dtype} / {expected.dtype}, expected {dtype}"
    a = actual.double().numpy()
    for side, values in (("PyTorch", a), ("MXNet", expected.astype(np.float64))):
        assert abs(values.mean() - moments[0]) < 0.02 * max(1.0, moments[1]), \
            f"{id}: {side} mean {values.mean():.4g}, expected {moments[0]:.4g}"
        assert abs(values.std() - moments[1]) < 0.02 * moments[1], \
            f"{id}: {side} std {values.std():.4g}, expected {moments[1]:.4g}"
    if "randint" in id:
        assert set(np.unique(a)) == set(np.unique(expected)), f"{id}: values {np.unique(a)} != {np.unique(expected)}"
    if "uniform" in id:  # the support is the same interval
        lo, hi = expected.min(), expected.max()
        assert lo - 0.01 <= a.min() and a.max() <= hi + 0.01, f"{id}: support [{a.min()}, {a.max()}] != [{lo}, {hi}]"


def check_random_default_shape(expr: str) -> None:
    import_mxnet()  # numpy aliases restored before the snippet imports mxnet
    torch = import_torch()
    source = HEADER + ret(expr)
    result = convert(source)
    check_codes(result, ["MX015:review"])
    expected = load(source)()
    actual = load(result.output)()
    assert tuple(actual.shape) == expected.shape, f"{expr}: shape {tuple(actual.shape)} != {expected.shape}"
    assert actual.dtype == getattr(torch, np.dtype(expected.dtype).name), \
        f"{expr}: dtype {actual.dtype} where MXNet gives {expected.dtype}"


def check_random_shuffle(*, seed: int = 0) -> None:
    """Rows move together, each row exactly once, and the order changed."""
    mx, torch = import_mxnet(), import_torch()
    source = HEADER + ret("nd.random.shuffle(x)")
    result = convert(source)
    check_codes(result, ["MX015:review"])
    x = np.arange(40, dtype=np.float32).reshape(20, 2) * np.float32(1.5) - 7
    mx.random.seed(seed)
    expected = load(source)(mx.nd.array(x)).asnumpy()
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        actual = load(result.output)(torch.from_numpy(x.copy())).numpy()
    for side, out in (("MXNet", expected), ("PyTorch", actual)):
        assert out.shape == x.shape and out.dtype == x.dtype, f"shuffle: {side} gives {out.dtype}{out.shape}"
        assert np.array_equal(out[np.argsort(out[:, 0])], x), f"shuffle: {side} does not permute rows"
        assert not np.array_equal(out, x), f"shuffle: {side} left the order"


SEEDED = HEADER + """
def f(s):
    mx.random.seed(s)
    return nd.random.normal(0, 1, shape=(6,)), nd.random.uniform(shape=(3,))
"""


def check_seed(*, seed: int = 5) -> None:
    """MX507: the same seed repeats torch's draws, another seed changes them; cudnn made deterministic."""
    import_mxnet()  # numpy aliases restored before the snippet imports mxnet
    torch = import_torch()
    result = convert(SEEDED)
    check_codes(result, ["MX507", "MX015:review"])
    assert "torch.manual_seed(s)" in result.output, result.output
    mx_f, torch_f = load(SEEDED), load(result.output)
    # MXNet itself repeats under one seed: the property the translation must keep
    assert np.array_equal(mx_f(seed)[0].asnumpy(), mx_f(seed)[0].asnumpy()), "MXNet does not repeat under a seed"
    flags = (torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark)
    try:
        with torch.random.fork_rng():
            first, second, other = torch_f(seed), torch_f(seed), torch_f(seed + 1)
            deterministic = torch.backends.cudnn.deterministic
            benchmark = torch.backends.cudnn.benchmark
    finally:
        torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark = flags
    for a, b in zip(first, second):
        assert torch.equal(a, b), f"seed {seed} twice gives different draws"
    assert not torch.equal(first[0], other[0]), f"seeds {seed} and {seed + 1} give the same draws"
    assert deterministic is True and benchmark is False, "cudnn is not made deterministic"


def check_gpu_count() -> list:
    """MX503: torch's count of GPUs, as an int and a list; compared with MXNet's where they agree."""
    torch = import_torch()
    source = HEADER + ret("[mx.context.num_gpus(), mx.util.get_gpu_count(), mx.test_utils.list_gpus()]")
    result = convert(source)
    check_codes(result, ["MX503"])
    n, m, gpus = load(result.output)()
    assert n == m == torch.cuda.device_count() and type(n) is int, f"counts {n}, {m}"
    assert gpus == list(range(n)), f"list_gpus {gpus}"
    expected = load(source)()
    if expected[0] == n:  # a CPU build of MXNet next to a CUDA build of torch counts differently
        return compare_outputs([n, m, gpus], expected)
    return []


def check_gpu_memory() -> list:
    """MX524: torch's (free, total) bytes of GPU 0, both read by cudaMemGetInfo; without CUDA (torch or
    MXNet built for the CPU) both sides raise."""
    torch = import_torch()
    source = HEADER + ret("[mx.context.gpu_memory_info(0), mx.context.gpu_memory_info()]")
    result = convert(source)
    check_codes(result, ["MX524"])

    def outcome(fn):
        try:
            return fn()
        except Exception as e:  # noqa: BLE001 (MXNetError, torch's AssertionError without CUDA)
            return e
    got, expected = outcome(load(result.output)), outcome(load(source))
    if not torch.cuda.is_available():
        assert isinstance(got, Exception), f"torch without CUDA returned {got}"
        assert isinstance(expected, Exception), f"MXNet returned {expected} where torch has no GPU"
        return []
    assert not isinstance(got, Exception), got
    total = torch.cuda.mem_get_info(0)[1]
    assert [t for _, t in got] == [total, total] and all(0 <= f <= total for f, _ in got), got
    if not isinstance(expected, Exception):  # (a CPU build of MXNet next to a CUDA build of torch raises)
        assert [t for _, t in expected] == [total, total], f"totals {expected} and {got}"
    return []


def check_test_utils(seed: int) -> list:
    """MX088 / MX089: the translated assert_almost_equal fails where MXNet's fails (default
    tolerances by dtype, given ones, broadcasting), and same() is NumPy's array_equal; on
    NumPy arrays, as tests pass them after `.asnumpy()`."""
    source = HEADER + (
        "def f(a, b, **kw):\n"
        "    try:\n"
        "        mx.test_utils.assert_almost_equal(a, b, **kw)\n"
        "    except AssertionError:\n"
        "        return False, mx.test_utils.same(a, b)\n"
        "    return True, mx.test_utils.same(a, b)\n")
    result = convert(source)
    check_codes(result, ["MX088", "MX089"])
    mine, theirs = load(result.output), load(source)
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(3, 4)).astype(np.float32)
    pairs = [(x, x + np.float32(9e-4), {}), (x, x + np.float32(2e-3), {}), (x, x, {}),
             (x, x + np.float32(1e-4), {"atol": 1e-5, "rtol": 1e-6}),
             (x.astype(np.float64), x.astype(np.float64) * (1 + 2e-5), {}),
             (x.astype(np.float64), x.astype(np.float64) * (1 + 5e-6), {}),
             (x.astype(np.float16), x.astype(np.float16) + np.float16(0.05), {}),
             (np.repeat(x[:1], 2, 0), x[:1], {}), (np.repeat(x[:1], 2, 0), x[:1], {"use_broadcast": False}),
             (x.round().astype(np.int32), x.round().astype(np.int32), {})]
    verdicts = [mine(a, b, **kw) for a, b, kw in pairs]
    with contextlib.redirect_stdout(io.StringIO()):  # MXNet prints its worst mismatches
        expected = [theirs(a, b, **kw) for a, b, kw in pairs]
    assert verdicts == expected, f"verdicts {verdicts}, MXNet's {expected}"
    return []


def check_context() -> list:
    """MX508: mx.Context names the device torch's device is (cpu_shared / cpu_pinned the CPU)."""
    mx = import_mxnet()
    torch = import_torch()
    source = HEADER + "def f(kind):\n    return [mx.Context('cpu_shared', 0), mx.Context('gpu', 1), mx.Context(kind, 2)]\n"
    result = convert(source)
    check_codes(result, ["MX508"])
    for kind in ("gpu", "cpu", "cpu_pinned"):
        expected = [torch.device("cuda", c.device_id) if c.device_type == "gpu" else torch.device("cpu")
                    for c in load(source)(kind)]
        assert all(isinstance(c, mx.Context) for c in load(source)(kind))
        got = load(result.output)(kind)
        assert got == expected, f"{kind}: {got} for MXNet's {expected}"
    return []


def check_asnumpy_in_graph() -> list:
    """MX020 on a tensor that requires grad: `.detach()` first, as MXNet's asnumpy does."""
    mx, torch = import_mxnet(), import_torch()
    source = HEADER + ret("(x * 2).asnumpy()")
    result = convert(source)
    check_codes(result, ["MX020"])
    x = np.array([[0.5, -1.25, 2.0]], dtype=np.float32)
    actual = load(result.output)(torch.from_numpy(x.copy()).requires_grad_(True))
    mxx = mx.nd.array(x)
    mxx.attach_grad()
    with mx.autograd.record():
        expected = load(source)(mxx)
    return compare_outputs(actual, expected)


DETACH_STATEMENT = HEADER + """
def f(x, w):
    x.attach_grad()
    w.attach_grad()
    with mx.autograd.record():
        h = x * x
    h.detach()  # before any backward: a no-op, the gradient flows through h
    with mx.autograd.record():
        l = (h * w).sum()
    l.backward()
    first = [x.grad.asnumpy(), w.grad.asnumpy()]
    h.detach()  # after one: h is a constant, x keeps its old gradient
    with mx.autograd.record():
        l2 = (h * w * 2).sum()
    l2.backward()
    return first + [x.grad, w.grad]
"""


def check_detach_statement() -> list:
    """MX008: `h.detach()` as a statement, with the graph behind h alive and after a backward."""
    mx, torch = import_mxnet(), import_torch()
    result = convert(DETACH_STATEMENT)
    check_codes(result, ["MX008"])
    x, w = np.array([1.5, -2.0, 0.25], dtype=np.float32), np.array([0.5, 3.0, -1.0], dtype=np.float32)
    expected = load(DETACH_STATEMENT)(mx.nd.array(x), mx.nd.array(w))
    actual = load(result.output)(torch.from_numpy(x.copy()), torch.from_numpy(w.copy()))
    return compare_outputs(actual, expected)


# MX069 uniform_like/normal_like: the input's shape and dtype, the same distributions.
RANDOM_LIKE_CASES = [
    ("uniform-like", "nd.random.uniform_like(nd.zeros((200000,)), -1, 3)", (1.0, 4 / 12 ** 0.5), "float32"),
    ("uniform-like-defaults-2d", "nd.random.uniform_like(nd.ones((400, 500)))", (0.5, 1 / 12 ** 0.5), "float32"),
    ("normal-like-float64", "nd.random.normal_like(nd.zeros((400, 500), dtype='float64'), loc=1.5, scale=0.5)",
     (1.5, 0.5), "float64"),
    ("normal-like-positional", "nd.random.normal_like(nd.zeros((200000,)), -2, 3)", (-2.0, 3.0), "float32"),
]

IS_TRAINING = HEADER + """
class Net(mx.gluon.HybridBlock):
    def hybrid_forward(self, F, x):
        if mx.autograd.is_training():
            return x * 2
        return F.relu(x) - 1


def make():
    return Net()
"""


def check_is_training() -> list:
    """MX530: the block's branch follows autograd.record() in MXNet and .train()/.eval() in torch."""
    mx, torch = import_mxnet(), import_torch()
    result = convert(IS_TRAINING)
    check_codes(result, ["MX530", "MX103"])
    assert "self.training" in result.output, result.output
    mx_net, pt_net = load(IS_TRAINING, "make")(), load(result.output, "make")()
    x = np.array([[0.5, -1.25, 2.0], [-0.3, 0.9, -2.2]], dtype=np.float32)
    rows = []
    pt_net.eval()
    rows += compare_outputs(pt_net(torch.from_numpy(x.copy())), mx_net(mx.nd.array(x)), what="inference")
    pt_net.train()
    with mx.autograd.record():
        expected = mx_net(mx.nd.array(x))
    rows += compare_outputs(pt_net(torch.from_numpy(x.copy())), expected, what="training")
    return rows


# MX082 BatchNorm operator: the training flag is the module's; moving statistics updated in place.
BATCH_NORM_OP = HEADER + """
class Net(mx.gluon.HybridBlock):
    def __init__(self, kw, **kwargs):
        super().__init__(**kwargs)
        self._kw = kw

    def hybrid_forward(self, F, x, gamma, beta, mean, var):
        if self._kw is None:
            return F.BatchNorm(x, gamma, beta, mean, var, eps=1e-4, momentum=0.8, fix_gamma=False, name="bn")
        return F.BatchNorm(x, gamma, beta, mean, var, name="bn", **self._kw)


def make(kw):
    return Net(kw)
"""

BATCH_NORM_CONFIGS = [None, {}, {"fix_gamma": False, "momentum": 0.7, "eps": 1e-5},
                      {"fix_gamma": False, "axis": -1}, {"fix_gamma": False, "use_global_stats": True}]


def check_batch_norm_op(*, seed: int = 0) -> list:
    """MX082: inference (MXNet outside autograd.record(), torch in eval) and training (recorded, then
    backward; torch in train): outputs, gradients of x, gamma, beta (MXNet's zero gradient of a
    fixed gamma is torch's None), gamma itself (fix_gamma writes ones) and the moving statistics."""
    mx, torch = import_mxnet(), import_torch()
    result = convert(BATCH_NORM_OP)
    check_codes(result, ["MX082", "MX103"])
    rng = np.random.default_rng(seed)
    rows = []
    for i, kw in enumerate(BATCH_NORM_CONFIGS):
        axis = (kw or {}).get("axis", 1)
        x = make_input(rng, (3, 2, 4) if axis == 1 else (3, 4, 2))
        arrays = [x, make_input(rng, ("pos", (2,))), make_input(rng, (2,)), make_input(rng, (2,)),
                  make_input(rng, ("pos", (2,)))]
        head = make_input(rng, x.shape)
        mx_net, pt_net = load(BATCH_NORM_OP, "make")(kw), load(result.output, "make")(kw)
        for training in (False, True):
            mx_in = [mx.nd.array(a) for a in arrays]
            pt_in = [torch.from_numpy(a.copy()) for a in arrays]
            pt_net.train(training)
            if training:
                for a in mx_in[:3]:
                    a.attach_grad()
                for a in pt_in[:3]:
                    a.requires_grad_(True)
                with mx.autograd.record():
                    expected = mx_net(*mx_in)
                expected.backward(mx.nd.array(head))
                actual = pt_net(*pt_in)
                actual.backward(torch.from_numpy(head))
            else:
                expected, actual = mx_net(*mx_in), pt_net(*pt_in)
            what = f"{kw} {'training' if training else 'inference'}"
            rows += compare_outputs(actual, expected, what=f"{what}: output")
            rows += compare_outputs(pt_in[1:], mx_in[1:], what=f"{what}: gamma, beta, moving mean, var")
            if training:
                grads = [t.grad if t.grad is not None else torch.zeros_like(t) for t in pt_in[:3]]
                rows += compare_outputs(grads, [a.grad for a in mx_in[:3]], what=f"{what}: gradients")
    return rows


# MX081 Dropout operator: the module's training flag decides; the masks are random.
DROPOUT_OP = HEADER + """
class Net(mx.gluon.HybridBlock):
    def hybrid_forward(self, F, x):
        return [F.Dropout(x, 0.4), F.Dropout(x, p=0.25, axes=(1,)), F.Dropout(x, p=0.5, mode='always')]


def make():
    return Net()
"""


DIALECT_DROPOUT_OP = DIALECT_HEADER + """
class Net(mx.gluon.HybridBlock):
    def forward(self, x):
        return [npx.dropout(x, 0.4), npx.dropout(x, p=0.25, axes=(1,)), npx.dropout(x, p=0.5, mode='always')]


def make():
    return Net()
"""


def check_dropout_op(*, seed: int = 0, dialect: bool = False) -> None:
    """MX081 (`dialect`: MX728, npx.dropout in a numpy-mode block): in inference 'training'
    dropout is the identity in both and 'always' still drops; in training the dropped fraction
    is p, kept units are scaled by 1 / (1 - p), and the mask is shared along `axes`."""
    import contextlib

    mx, torch = import_mxnet(), import_torch()
    source = DIALECT_DROPOUT_OP if dialect else DROPOUT_OP
    result = convert(source)
    check_codes(result, ["MX728:review", "MX100"] if dialect else ["MX081:review", "MX103"])
    x = np.random.default_rng(seed).uniform(0.5, 1.5, size=(200, 100)).astype(np.float32)
    mx_net, pt_net = load(source, "make")(), load(result.output, "make")()
    pt_net.eval()
    array = mx.np.array if dialect else mx.nd.array
    with torch.random.fork_rng(), (mx.util.np_shape(True) if dialect else contextlib.nullcontext()), \
            (mx.util.np_array(True) if dialect else contextlib.nullcontext()):
        torch.manual_seed(seed)
        sides = {"MXNet inference": [o.asnumpy() for o in mx_net(array(x))],
                 "PyTorch inference": [o.numpy() for o in pt_net(torch.from_numpy(x.copy()))]}
        with mx.autograd.record():
            sides["MXNet training"] = [o.asnumpy() for o in mx_net(array(x))]
        pt_net.train()
        sides["PyTorch training"] = [o.detach().numpy() for o in pt_net(torch.from_numpy(x.copy()))]
    for side, (plain, shared, always) in sides.items():
        training = side.endswith("training")
        for out, p in ((plain, 0.4), (always, 0.5)):
            if out is plain and not training:
                assert np.array_equal(out, x), f"{side}: Dropout(mode='training') changed its input"
                continue
            kept = out != 0
            assert abs(1 - kept.mean() - p) < 0.02, f"{side}: dropped {1 - kept.mean():.3f}, expected {p}"
            assert np.allclose(out[kept], x[kept] / (1 - p), rtol=1e-6), f"{side}: kept units not scaled by 1/(1-p)"
        if training:
            rows = shared != 0
            assert (rows == rows[:, :1]).all(), f"{side}: the mask is not shared along axis 1"
            assert abs(1 - rows[:, 0].mean() - 0.25) < 0.08, f"{side}: dropped rows {1 - rows[:, 0].mean():.3f}"
        else:
            assert np.array_equal(shared, x), f"{side}: Dropout with axes changed its input in inference"


@dataclass(frozen=True)
class Special:
    """A check that is not a case: `run(seed)` raises AssertionError or returns compare rows."""
    id: str
    rule: str
    run: Callable[[int], Any]


SPECIAL_CHECKS = [
    *(Special(f"random-{c[0]}", "MX015", lambda seed, c=c: check_random_statistics(*c, seed=7 + seed))
      for c in RANDOM_CASES),
    *(Special(f"random-default-shape {e}", "MX015", lambda seed, e=e: check_random_default_shape(e))
      for e in RANDOM_DEFAULT_SHAPES),
    Special("random-shuffle", "MX015", lambda seed: check_random_shuffle(seed=seed)),
    *(Special(f"random-{c[0]}", "MX015", lambda seed, c=c: check_random_out(*c, seed=3 + seed))
      for c in RANDOM_OUT_CASES),
    *(Special(f"random-{c[0]}", "MX016", lambda seed, c=c: check_random_statistics(*c, seed=7 + seed,
                                                                                  code="MX016:review"))
      for c in RANDOM_LEGACY_CASES),
    Special("seed-repeats", "MX507", lambda seed: check_seed(seed=5 + seed)),
    Special("gpu-count", "MX503", lambda seed: check_gpu_count()),
    Special("gpu-memory", "MX524", lambda seed: check_gpu_memory()),
    Special("asnumpy-in-graph", "MX020", lambda seed: check_asnumpy_in_graph()),
    Special("detach-statement", "MX008", lambda seed: check_detach_statement()),
    Special("test-utils-verdicts", "MX088", check_test_utils),
    Special("test-utils-same", "MX089", check_test_utils),
    Special("context-constructor", "MX508", lambda seed: check_context()),
    *(Special(f"random-{c[0]}", "MX069",
              lambda seed, c=c: check_random_statistics(*c, seed=7 + seed, code="MX069:review"))
      for c in RANDOM_LIKE_CASES),
    Special("is-training-follows-mode", "MX530", lambda seed: check_is_training()),
    Special("batch-norm-op-modes", "MX082", lambda seed: check_batch_norm_op(seed=seed)),
    Special("dropout-op-modes", "MX081", lambda seed: check_dropout_op(seed=seed)),
    Special("np-dropout-modes", "MX728", lambda seed: check_dropout_op(seed=seed, dialect=True)),
    *(Special(f"np-random-{c[0]}", (c[4] if len(c) > 4 else "MX709:review").partition(":")[0],
              lambda seed, c=c: check_random_statistics(*c[:4], seed=7 + seed,
                                                        code=c[4] if len(c) > 4 else "MX709:review", dialect=True))
      for c in DIALECT_RANDOM_CASES),
    *(Special(f"sampler-{c[0]}", c[5], lambda seed, c=c: check_sampler(*c, seed=11 + seed)) for c in SAMPLER_CASES),
    Special("sample-multinomial", "MX801", lambda seed: check_multinomial(seed=5 + seed)),
]
