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
    """The script's `outs` in MXNet and converted in torch agree, value by value. Where they do not,
    the message says which side a float64 run of the translation agrees with (`float64_arbiter`)."""
    import numpy as np
    from test_execution_model import _run

    with tempfile.TemporaryDirectory() as folder:
        expected = _run(source, folder, "mx.params")
        got = _run(converted, folder, "pt.params")
    assert len(expected) == len(got), (len(expected), len(got))
    for i, (want, have) in enumerate(zip(expected, got)):
        try:
            np.testing.assert_allclose(np.asarray(have).reshape(np.shape(want)), want, rtol=rtol, atol=atol,
                                       err_msg=f"value {i}")
        except AssertionError as e:
            raise AssertionError(f"{float64_arbiter(converted, expected, got, rtol, atol)}\n{e}") from None


def float64_arbiter(converted: str, expected: list, got: list, rtol: float, atol: float) -> str:
    """The translation run again in float64 (every `float32` in it, its pasted helpers too, made
    `float64`, and torch's default dtype float64), as a reference for both float32 runs: where the
    translation is within the hunt's tolerance of it and MXNet is not, the disagreement is MXNet's
    float32 error (its softmax and log_softmax are ~20 ulps off) scaled up by what follows (an
    adaptive optimizer's step at gradients near sqrt(eps)), not the translation's. A diagnostic:
    the verdict stands."""
    import numpy as np
    import torch
    from test_execution_model import _run

    wide = converted.replace("float32", "float64").replace("import torch\n", "import torch\n"
                                                            "torch.set_default_dtype(torch.float64)\n", 1)
    default = torch.get_default_dtype()
    try:
        with tempfile.TemporaryDirectory() as folder:
            reference = _run(wide, folder, "pt64.params")
    except Exception as e:  # noqa: BLE001 (a diagnostic only)
        return f"float64 arbiter: the translation did not run in float64 ({type(e).__name__})"
    finally:
        torch.set_default_dtype(default)
    mx_off = pt_off = 0.0
    mx_near = pt_near = True  # within the hunt's tolerance of float64, every value
    for want, have, ref in zip(expected, got, reference):
        ref = np.asarray(ref, dtype="float64").reshape(np.shape(want))
        want, have = np.asarray(want, dtype="float64"), np.asarray(have, dtype="float64").reshape(ref.shape)
        mx_off = max(mx_off, float(np.max(np.abs(want - ref), initial=0.0)))
        pt_off = max(pt_off, float(np.max(np.abs(have - ref), initial=0.0)))
        mx_near = mx_near and np.allclose(want, ref, rtol=rtol, atol=atol)
        pt_near = pt_near and np.allclose(have, ref, rtol=rtol, atol=atol)
    side = ("MXNet's float32 is the side off" if pt_near and not mx_near else
            "both within tolerance of it" if pt_near else "the translation is off too")
    return f"float64 arbiter: MXNet off by {mx_off:.2g}, the translation by {pt_off:.2g}: {side}"


def same_model(source: str, converted: str, *, build: str, shape: tuple, hybridize: bool = False) -> None:
    """`build()` of both sides: outputs, input and parameter gradients through check_models. Where
    they differ, the message gives noise mode's reading of each failed check (Note [noise floor]):
    how far MXNet and the translation are from a float64 copy of the translation."""
    failed = _model_checks(source, converted, build, shape, hybridize)
    if failed:
        from xlate.check.noise import NoiseFloor

        judged = {c.what: c.noise for c in _model_checks(source, converted, build, shape, hybridize, NoiseFloor(),
                                                         every=True)}
        readings = [f"{c.what}: MXNet off by {judged[c.what].mx:.2g}, the translation by {judged[c.what].pt:.2g} "
                    f"({judged[c.what].verdict})" for c in failed[:3] if getattr(judged.get(c.what), "mx", None) is not None]
        raise AssertionError(f"float64 (noise mode): {readings}\n{[(c.what, str(c)[:160]) for c in failed[:3]]}")


def _model_checks(source, converted, build, shape, hybridize, noise_floor=None, every=False) -> list:
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
    result = check_models(net, pt_side[build](), [InputSpec("x", "float32", shape)], noise_floor=noise_floor)
    return list(result.checks) if every else [c for c in result.checks if not c.ok]
