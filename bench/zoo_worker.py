"""One model-zoo worker process for bench/model_zoo.py: builds models on both sides and compares.

Reads one JSON request per line on stdin (a model of the table), answers on the file
descriptor that was stdout when it started: `{"stage": ...}` before each stage (so the
parent knows where a model hung or crashed) and `{"result": ...}` at the end. Everything the
models print goes to stderr. The parent starts a fresh worker after a timeout or a crash.

Stages, in order; the first that fails gives the model's cause:
  gluon-build      get_model(name, pretrained=False, ...) on the original package, random
                   asymmetric weights (the checker's), one inference forward  -> gluon-fails-to-build
  converted-import import gluoncv_pt (the converted package)                  -> converted-import-fails
  converted-build  gluoncv_pt.model_zoo.get_model(...) is a torch.nn.Module   -> converted-build-fails
  forward          one inference forward of the converted model              -> forward-fails
  pairing          the checker's weight transfer (xlate.check.mapping)       -> weight-pairing-fails
  compare          inference outputs, float32 tolerances of torch.testing    -> outputs-differ
  gradients        (models marked grad) xlate.check.pair.check_models in noise mode
                   (Note [noise floor] in xlate/check/noise.py): training outputs, every input
                   and parameter gradient, running statistics; what differs is judged against
                   a float64 copy of the converted model                     -> gradients-differ
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

PROTOCOL = None  # the original stdout, for answers only


def say(**message) -> None:
    PROTOCOL.write(json.dumps(message, default=str) + "\n")
    PROTOCOL.flush()


def where(exc: BaseException, roots: dict[str, Path]) -> dict:
    """The error's first line and the innermost frame inside one of `roots` (name -> folder):
    the converted package, the original one."""
    root_exc = exc
    # an error raised while another was handled (`except ImportError: <fallback>`) says less
    # than the one it replaced: report the first one raised (`raise X from Y` stays as it is)
    while root_exc.__context__ is not None and root_exc.__cause__ is None and not root_exc.__suppress_context__:
        root_exc = root_exc.__context__
    info = {"error": _first_line(root_exc), "error_type": type(root_exc).__name__}
    if root_exc is not exc:
        info["raised_while_handling_it"] = _first_line(exc)
    frames = traceback.extract_tb(root_exc.__traceback__)
    for label, root in roots.items():
        inside = [f for f in frames if _under(f.filename, root)]
        if inside:
            f = inside[-1]
            info.update(side=label, file=str(Path(f.filename).resolve().relative_to(root)), line=f.lineno,
                        code=(f.line or "").strip())
            # outward from the innermost: the parent skips frames in xlate's pasted helpers
            info["frames"] = [[str(Path(g.filename).resolve().relative_to(root)), g.lineno, g.name,
                               (g.line or "").strip()[:160]] for g in reversed(inside[-8:])]
            break
    if frames:
        last = frames[-1]
        info["innermost"] = f"{last.filename}:{last.lineno}"
    info["traceback"] = "".join(traceback.format_exception(type(root_exc), root_exc, root_exc.__traceback__))[-4000:]
    return info


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if type(exc).__name__ == "MXNetError" and lines:  # MXNet puts a C++ stack first, the reason last
        reason = [ln for ln in lines if "Check failed" in ln or ln.startswith("MXNetError")]
        lines = reason[-1:] or lines[-1:]
    return f"{type(exc).__name__}: {lines[0] if lines else ''}"[:400]


def _under(filename: str, root: Path) -> bool:
    try:
        Path(filename).resolve().relative_to(root)
        return True
    except ValueError:
        return False


def mx_blocks_inside(model, limit: int = 20) -> list[dict]:
    """Gluon blocks held by torch modules (plain attributes, lists, dicts): torch never
    registers them, so they run as MXNet code inside the converted model."""
    import mxnet as mx

    found, seen = [], set()

    def visit(value, path, depth=0):
        if len(found) >= limit or depth > 3 or id(value) in seen:
            return
        seen.add(id(value))
        if isinstance(value, mx.gluon.Block):
            cls = type(value)
            found.append({"path": path, "class": f"{cls.__module__}.{cls.__qualname__}"})
        elif isinstance(value, (list, tuple)):
            for i, v in enumerate(value):
                visit(v, f"{path}[{i}]", depth + 1)
        elif isinstance(value, dict):
            for k, v in list(value.items())[:200]:
                visit(v, f"{path}[{k!r}]", depth + 1)

    import torch

    if isinstance(model, mx.gluon.Block):
        cls = type(model)
        return [{"path": "(the model itself)", "class": f"{cls.__module__}.{cls.__qualname__}"}]
    if not isinstance(model, torch.nn.Module):
        return []
    for mpath, module in model.named_modules():
        for name, value in vars(module).items():
            if name.startswith("_") and name not in ("_children",):
                continue
            visit(value, f"{mpath}.{name}" if mpath else name)
    return found


class Worker:
    def __init__(self, corpus_root: Path, pt_root: Path):
        self.roots = {"converted": (pt_root / "gluoncv_pt").resolve(),
                      "original": (corpus_root / "gluoncv").resolve()}
        self.pt_package = None
        self.pt_import_error = None

    def warm_up(self) -> None:
        """Import both packages before the first model, so that its time is its own."""
        import gluoncv  # noqa: F401  (a failure here is the model's, raised again in run)

        try:
            import gluoncv_pt

            self.pt_package = gluoncv_pt
        except Exception as e:
            self.pt_import_error = where(e, self.roots)

    def run(self, request: dict) -> dict:
        import numpy as np
        import torch

        from xlate.check.inputs import InputSpec, draw
        from xlate.check.sides import mx_prepare, mx_run

        name, kwargs = request["name"], dict(request.get("kwargs", {}))
        specs = [InputSpec(f"x{i}" if i else "x", "float32", tuple(s)) for i, s in enumerate(request["inputs"])]
        result = {"model": name, "inputs": [str(s) for s in specs]}
        stage = "gluon-build"
        try:
            say(stage=stage)
            import gluoncv

            rng = np.random.default_rng(request.get("seed", 0))
            arrays = [draw(s, rng) for s in specs]
            net = gluoncv.model_zoo.get_model(name, pretrained=False, **kwargs)
            drawn = mx_prepare(net, arrays, rng)
            mx_out = mx_run(net, arrays, train=False)[0]
            result["gluon_outputs"] = [list(o.shape) for o in mx_out]
            result["gluon_parameters"] = int(sum(np.prod(p.shape) for p in net.collect_params().values()))
        except Exception as e:
            return {**result, "cause": "gluon-fails-to-build", "stage": stage, **where(e, self.roots)}

        stage = "converted-import"
        say(stage=stage)
        if self.pt_import_error is not None:
            return {**result, "cause": "converted-import-fails", "stage": stage, **self.pt_import_error}

        stage = "converted-build"
        say(stage=stage)
        try:
            pt = self.pt_package.model_zoo.get_model(name, pretrained=False, **kwargs)
        except Exception as e:
            return {**result, "cause": "converted-build-fails", "stage": stage, **where(e, self.roots)}
        result["mx_blocks_inside"] = mx_blocks_inside(pt)
        if not isinstance(pt, torch.nn.Module):
            return {**result, "cause": "converted-build-fails", "stage": stage,
                    "error": f"get_model returned a {type(pt).__module__}.{type(pt).__qualname__}, "
                             f"not a torch.nn.Module", "error_type": "NotAModule"}

        stage = "forward"
        say(stage=stage)
        from xlate.check.sides import pt_run

        try:
            pt_out = pt_run(pt, arrays, "cpu", train=False)[0]
        except Exception as e:
            return {**result, "cause": "forward-fails", "stage": stage, **where(e, self.roots)}

        stage = "pairing"
        say(stage=stage)
        from xlate.check.mapping import MappingError, transfer

        try:
            pairs = transfer(net, pt, drawn)
        except MappingError as e:
            lines = str(e).splitlines()
            return {**result, "cause": "weight-pairing-fails", "stage": stage, "error_type": "MappingError",
                    "error": f"MappingError: {lines[0][:400]}", "traceback": "\n".join(lines[:40])}
        except Exception as e:
            return {**result, "cause": "weight-pairing-fails", "stage": stage, **where(e, self.roots)}
        result["paired_layers"] = len(pairs)

        stage = "compare"
        say(stage=stage)
        try:
            pt_out = pt_run(pt, arrays, "cpu", train=False)[0]
        except Exception as e:
            return {**result, "cause": "forward-fails", "stage": stage, **where(e, self.roots)}
        mismatch = self._compare(mx_out, pt_out, result)
        if mismatch:
            result["divergence"] = self._divergence(pairs, net, pt, arrays)
            return {**result, "cause": "outputs-differ", "stage": stage, "error": mismatch}

        if request.get("grad"):
            stage = "gradients"
            say(stage=stage)
            from xlate.check.noise import NoiseFloor
            from xlate.check.pair import check_models

            floor = NoiseFloor()
            try:
                checked = check_models(net, pt, specs, seed=request.get("seed", 0), noise_floor=floor)
            except Exception as e:
                return {**result, "cause": "gradients-differ", "stage": stage, **where(e, self.roots)}
            result.update(self._noise_figures(checked, floor))
            failed = [c for c in checked.checks if not c.ok]
            if failed:
                kinds = sorted({c.noise.verdict if c.noise is not None else "strict" for c in failed})
                return {**result, "cause": "gradients-differ", "stage": stage,
                        "error": f"{len(failed)} of {len(checked.checks)} checks differ ({', '.join(kinds)}); "
                                 f"first: {failed[0].mismatch.format()}", "divergence": checked.divergence,
                        "kink": next((a for a in checked.advice if "crossed a kink" in a), None)}
        return {**result, "cause": "match", "stage": "done"}

    @staticmethod
    def _noise_figures(checked, floor) -> dict:
        """What the strict comparison alone would have said, and what noise mode needed."""
        excused = [c for c in checked.checks if c.ok and c.noise is not None and c.noise.verdict == "noise"]
        worst = max(excused, key=lambda c: c.noise.ratio, default=None)
        strict = [c for c in checked.checks if c.noise is not None or not c.ok]
        return {"gradient_checks": len(checked.checks), "noise_k": floor.k,
                "strict_failures": len(strict), "noise_excused": len(excused),
                "noise_worst_ratio": worst.noise.ratio if worst else None,
                "noise_worst": worst.what if worst else None,
                "gradient_verdict": ("differs" if not checked.ok else
                                     f"within float32 noise (K={floor.k:g})" if excused else "equal")}

    @staticmethod
    def _compare(mx_out, pt_out, result: dict):
        from xlate.check.compare import measure, tolerance_for

        if len(mx_out) != len(pt_out):
            return f"PyTorch returns {len(pt_out)} arrays where Gluon returns {len(mx_out)}"
        worst, first = 0.0, None
        for i, (e, a) in enumerate(zip(mx_out, pt_out)):
            mismatch, max_abs = measure(f"output {i}", e, a, tolerance_for(e.dtype))
            worst = max(worst, float("inf") if max_abs is None or max_abs != max_abs else max_abs)
            if mismatch is not None and first is None:
                first = mismatch.format()
        result["max_abs_difference"] = worst
        result["max_abs_output"] = float(max(float(abs(o).max()) if o.size else 0.0 for o in mx_out))
        return first

    @staticmethod
    def _divergence(pairs, net, pt, arrays):
        try:  # the first paired layer whose own output differs: a hint, not a verdict
            from xlate.check.compare import tolerance_for
            from xlate.check.pair import _divergence

            return _divergence(pairs, net, pt, arrays, "cpu", tolerance_for("float32"))
        except Exception as e:
            return f"(could not locate the divergence: {type(e).__name__}: {e})"


def main() -> None:
    global PROTOCOL
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--corpus-root", type=Path, required=True, help="the folder holding the original gluoncv/")
    p.add_argument("--pt-root", type=Path, required=True, help="the folder holding the converted gluoncv_pt/")
    args = p.parse_args()
    PROTOCOL = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # what models print (Python or C) goes to stderr
    sys.stdout = sys.stderr
    sys.path[:0] = [str(args.corpus_root), str(args.pt_root)]
    import torch

    torch.set_num_threads(1)
    worker = Worker(args.corpus_root.resolve(), args.pt_root.resolve())
    worker.warm_up()
    say(ready=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            result = worker.run(request)
        except BaseException as e:  # a bug here, not in a model: still one answer per request
            result = {"model": request.get("name"), "cause": "harness-error", "stage": "harness",
                      **where(e, worker.roots)}
        say(result=result)


if __name__ == "__main__":
    main()
