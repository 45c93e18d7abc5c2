"""What the drawn-program hunts share: the loop that prints every failure and the count that
agree, the command line, and the two ways a drawn program is judged (a script's `outs` in MXNet
and converted; a model's outputs and gradients through check_models)."""
import argparse
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))  # test_execution_model's COMMON, _run

from xlate.convert.engine import convert_source  # noqa: E402


def cli(doc: str, make, check, name: str) -> None:
    """`-n`, `--seed`, `--save DIR`; `make(rng)` gives (source, what to print, check's options),
    `check(source, converted, **options)` raises on a disagreement."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", help="a folder to write each failing program to")
    args = parser.parse_args()
    if args.save:
        Path(args.save).mkdir(parents=True, exist_ok=True)
    rng, bad = random.Random(args.seed), 0
    for k in range(args.n):
        source, shown, options = make(rng)
        try:
            converted = convert_source(source)
            left = [(d.line, d.code, d.message[:100]) for d in converted.diagnostics if d.status == "manual"]
            check(source, converted.output, **options)
            if left:
                raise AssertionError(f"manual items: {left}")
        except Exception as e:  # a hunt: every failure is printed, none stops it
            bad += 1
            if args.save:
                (Path(args.save) / f"{name}_{args.seed}_{k}.py").write_text(source)
            print(f"--- case {k}: {shown}\n   {type(e).__name__}: {str(e)[:600]}")
    print(f"{args.n - bad}/{args.n} ok")


def same_outs(source: str, converted: str, rtol: float = 2e-4, atol: float = 2e-5) -> None:
    """The script's `outs` in MXNet and converted in torch agree, value by value."""
    import numpy as np
    from test_execution_model import _run

    with tempfile.TemporaryDirectory() as folder:
        expected = _run(source, folder, "mx.params")
        got = _run(converted, folder, "pt.params")
    assert len(expected) == len(got), (len(expected), len(got))
    for i, (want, have) in enumerate(zip(expected, got)):
        np.testing.assert_allclose(np.asarray(have).reshape(np.shape(want)), want, rtol=rtol, atol=atol,
                                   err_msg=f"value {i}")


def same_model(source: str, converted: str, *, build: str, shape: tuple, hybridize: bool = False) -> None:
    """`build()` of both sides: outputs, input and parameter gradients through check_models."""
    import mxnet as mx

    from xlate.check.inputs import InputSpec
    from xlate.check.pair import check_models

    mx_side, pt_side = {"__name__": "mx"}, {"__name__": "pt"}
    exec(compile(source, "mx", "exec"), mx_side)
    exec(compile(converted, "pt", "exec"), pt_side)
    net = mx_side[build]()
    net.initialize(mx.init.Normal(0.5))
    if hybridize:
        net.hybridize()
    net(mx.nd.ones(shape))
    result = check_models(net, pt_side[build](), [InputSpec("x", "float32", shape)])
    failed = [c for c in result.checks if not c.ok]
    if failed:
        raise AssertionError(f"{[(c.what, str(c)[:160]) for c in failed[:3]]}")
