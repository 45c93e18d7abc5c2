"""`xlate convert-weights`: an MXNet parameter file becomes a PyTorch state_dict file for the
translated model, through the same per-family mapping tables the checker uses.

Note [parameter files]
MXNet 1.9.1 writes three kinds of names, and `load_parameters` tells them apart the same way:
- `save_parameters`: structural names, the attribute path of each parameter (`0.weight`,
  `encoder.fc.bias`). A fused RNN layer saves its unfused names (`rnn._unfused.0.i2h_weight`,
  bidirectional `rnn._unfused.0.l_cell.i2h_weight`), which its `_collect_params_with_prefix`
  produces and reads back. A model that is one single block saves bare names (`weight`).
- `save_params` (deprecated): the parameters' own names with the model's prefix removed
  (`dense0_weight`); counters restart inside each name scope, so a model built again matches.
- `export`: `arg:`/`aux:` and the full names of the exporting process
  (`arg:hybridsequential0_dense0_weight`); the model's top prefix may differ in this process,
  so the file's prefix is found by trying each `_`-delimited one.
Names with no `.` anywhere are read as the two prefixed kinds. Every file name must meet
exactly one model parameter with a compatible shape (0 = deferred, taken from the file), or
the conversion stops listing both sides; the values are then loaded with MXNet's own
`load_dict`, which also completes deferred initialisation, so the MXNet model needs no input.

Lazy torch modules (`LazyLinear`) have no shapes to copy into. With `--input` one forward
pass fixes them, as the checker does, and the copy then checks the shapes; without, each lazy
tensor takes the shape of the value mapped into it, which is what torch's own
`load_state_dict` does for a lazy module, so the output file is the same either way.

The file is written to a temporary name next to the output, loaded into a fresh instance of
the PyTorch model with strict=True and compared tensor by tensor, and only then renamed into
place: a failed conversion leaves no output and an existing output untouched.
"""
from __future__ import annotations

import os
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import numpy as np

import xlate.check.families  # noqa: F401  (registers every layer family)
from xlate.check.compare import Tolerance, compare, tolerance_for
from xlate.check.inputs import InputSpec, draw
from xlate.check.mapping import MappingError, is_constant, mx_to_pt_value, pair, transfer
from xlate.check.noise import NoiseFloor
from xlate.check.loading import LoadError, load
from xlate.check.sides import pt_run

NAMINGS = {"structural": "save_parameters", "prefixed": "save_params", "exported": "export"}
# torch state no MXNet layer has: the batch counter only drives momentum=None (cumulative) averages
TORCH_ONLY = ("num_batches_tracked",)


class ConvertError(Exception):
    """The conversion cannot be done; the message says what did not fit (exit code 2)."""


@dataclass
class Summary:
    output: Path
    pt_ref: str
    naming: str
    tensors: int = 0
    copied: int = 0
    families: Counter = field(default_factory=Counter)
    kept: list[str] = field(default_factory=list)  # torch state with no MXNet counterpart
    constants: list[str] = field(default_factory=list)  # compared with the translation's own
    cast: list[str] = field(default_factory=list)
    lazy: str = ""
    file_dtypes: dict = field(default_factory=dict)  # id(Parameter) -> the dtype the file holds
    check: Any = None  # the checker's Result with --check
    advice: list[str] = field(default_factory=list)  # about the model files (training at import, ...)

    def format(self) -> str:
        fams = ", ".join(f"{name} {n}" for name, n in sorted(self.families.items()))
        lines = [f"xlate convert-weights: {self.tensors} tensors in {self.output} "
                 f"({self.copied} from the MXNet file, names as {NAMINGS[self.naming]} writes them)",
                 f"  layers by family: {fams or 'none'}"]
        if self.constants:
            lines.append(f"  constants equal to the translation's own: {', '.join(self.constants)}")
        if self.kept:
            lines.append(f"  PyTorch-only state kept as the model has it: {', '.join(self.kept)}")
        if self.cast:
            lines.append(f"  cast to the PyTorch parameter's dtype: {', '.join(self.cast)}")
        if self.lazy:
            lines.append(f"  lazy modules: {self.lazy}")
        lines.append(f"  loaded into a fresh {self.pt_ref} with strict=True")
        lines.extend(a for a in self.advice if self.check is None or a not in self.check.advice)
        return "\n".join(lines) + "\n"


def convert_weights(params: Path, mx_ref: str, pt_ref: str, output: Path, *, mx_kwargs: dict,
                    pt_kwargs: dict, inputs: list[InputSpec], seed: int = 0, check: bool = False,
                    tolerance: Optional[Tolerance] = None, noise_floor: Optional[NoiseFloor] = None) -> Summary:
    """Convert, verify and (when every check passed) write `output`; see the module's Note.
    `tolerance` and `noise_floor` set how `check` compares, as for `xlate check`."""
    _check_paths(params, output)
    advice: list[str] = []
    mx_net = _model(mx_ref, mx_kwargs, "mxnet", advice)
    naming, file_dtypes = load_into(mx_net, params, mx_ref)
    pt_model = _build(pt_ref, pt_kwargs, advice)
    rng = np.random.default_rng(seed)
    arrays = [draw(s, rng) for s in inputs]
    summary = Summary(output, pt_ref, naming, file_dtypes=file_dtypes, advice=advice)
    summary.lazy = _materialise(mx_net, pt_model, arrays, pt_ref)
    try:
        pairs = transfer(mx_net, pt_model)
    except MappingError as e:
        raise ConvertError(f"the MXNet and PyTorch models do not pair:\n{e}") from e
    state = pt_model.state_dict()
    _account(summary, pairs, pt_model, state)

    import torch

    output.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{output.name}.", suffix=".xlate-tmp", dir=output.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            torch.save(state, fh)
        _set_mode(Path(tmp), output)
        fresh = _reload(Path(tmp), pt_ref, pt_kwargs, arrays, state)
        if check:
            summary.check = _check(mx_net, fresh, inputs, mx_ref, pt_ref, seed, tolerance, noise_floor)
            summary.check.advice[:0] = [a for a in advice if a not in summary.check.advice]
        if summary.check is None or summary.check.ok:
            os.replace(tmp, output)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return summary


def _set_mode(tmp: Path, output: Path) -> None:
    """An existing output keeps its mode; a new one gets what open() would give (mkstemp's is 0600)."""
    if output.exists():
        os.chmod(tmp, output.stat().st_mode & 0o7777)
        return
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)


def _check_paths(params: Path, output: Path) -> None:
    if not params.exists():
        raise ConvertError(f"{params}: no such file")
    if not params.is_file():
        raise ConvertError(f"{params}: not a file")
    if output.is_dir():
        raise ConvertError(f"{output}: is a directory; give the file name of the state_dict to write")
    if output.exists() and os.path.samefile(output, params):
        raise ConvertError(f"{output}: is the MXNet parameter file; write the state_dict elsewhere")


# -- the MXNet side ---------------------------------------------------------------------------
def read(params: Path) -> dict:
    """{name: NDArray} from an MXNet parameter file."""
    import mxnet as mx

    try:
        loaded = mx.nd.load(str(params))
    except mx.base.MXNetError as e:
        reason = str(e).strip().splitlines()[-1]
        raise ConvertError(f"{params}: not an MXNet parameter file ({reason})") from e
    if not isinstance(loaded, dict):
        raise ConvertError(f"{params}: holds {len(loaded)} arrays without names (nd.save of a list); "
                           f"save the model with net.save_parameters(path)")
    return loaded


def match(mx_net, loaded: dict) -> tuple[str, dict, dict]:
    """(naming, {file name: Parameter}, {model name: Parameter}) by the rules of the Note."""
    if any("." in k for k in loaded):
        model = mx_net._collect_params_with_prefix()
        return "structural", {k: model[k] for k in loaded if k in model}, model
    exported = any(k.startswith(("arg:", "aux:")) for k in loaded)
    names = {k: k[4:] if k.startswith(("arg:", "aux:")) else k for k in loaded}
    top = mx_net.prefix
    model = {n[len(top):] if n.startswith(top) else n: p for n, p in mx_net.collect_params().items()}
    best: dict = {}
    first = next(iter(names.values()), "")
    cuts = [0] + ([i + 1 for i, c in enumerate(first) if c == "_"] if exported else [])
    for cut in cuts:
        prefix = first[:cut]
        found = {k: model[n[cut:]] for k, n in names.items() if n.startswith(prefix) and n[cut:] in model}
        if len(found) > len(best):
            best = found
    return ("exported" if exported else "prefixed"), best, model


def load_into(mx_net, params: Path, mx_ref: str) -> tuple[str, dict]:
    """Load the file into the Gluon model, or list every name and shape that does not fit;
    returns the naming and {id(Parameter): the file's dtype}."""
    import mxnet as mx

    loaded = read(params)
    naming, found, model = match(mx_net, loaded)
    covered = {id(p) for p in found.values()}
    extra = [f"{k} {loaded[k].shape}" for k in loaded if k not in found]
    # a parameter shared between blocks is listed under each of its names; one is enough
    missing = [f"{n} {_shape(p.shape)}" for n, p in model.items() if id(p) not in covered]
    differ = [f"{k}: file {loaded[k].shape}, model {_shape(p.shape)}" for k, p in found.items()
              if p.shape and (len(p.shape) != len(loaded[k].shape)
                              or any(m not in (0, f) for m, f in zip(p.shape, loaded[k].shape)))]
    if extra or missing or differ:
        lines = [f"{params} does not fit {mx_ref} (names as {NAMINGS[naming]} writes them):"]
        for what, items in (("in the file, not in the model", extra), ("in the model, not in the file",
                            sorted(set(missing))), ("shapes differ", differ)):
            if items:
                lines.append(f"  {what}: {', '.join(items)}")
        raise ConvertError("\n".join(lines))
    try:  # values cast to the Gluon model's dtypes; casts into torch's are reported
        mx_net.collect_params().load_dict({found[k].name: v for k, v in loaded.items()}, cast_dtype=True)
    except (AssertionError, ValueError, mx.base.MXNetError) as e:  # MXNet's own checks
        raise ConvertError(f"{params} does not load into {mx_ref}: {e}") from e
    return naming, {id(found[k]): np.dtype(v.dtype) for k, v in loaded.items()}


def _shape(shape) -> str:
    return "(" + ", ".join("?" if d == 0 else str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


# Note [zoo references]
# `--zoo NAME` (or `--mx zoo:NAME` / `--pt zoo:NAME`) names a network of Gluon's model zoo
# instead of a file: MXNet's own `mxnet.gluon.model_zoo.vision.get_model(NAME, **args)` on the
# MXNet side, the translation's `_mx_vision_get_model(NAME, **args)` (xlate/runtime/zoo.py) on
# the PyTorch side, which is what translated code builds for `vision.get_model` and friends. So
# Gluon's pretrained `NAME-<hash>.params` (save_params names) and a file of a zoo network saved
# with save_parameters (structural names) both become the `NAME.pt` the helper's
# pretrained=True loads.
ZOO = "zoo:"


def _model(ref: str, kwargs: dict, framework: str, advice: Optional[list[str]] = None):
    if not ref.startswith(ZOO):
        try:
            return load(ref, kwargs, framework=framework, advice=advice)
        except LoadError as e:
            raise ConvertError(str(e)) from e
    name = ref[len(ZOO):]
    if kwargs.get("pretrained"):
        raise ConvertError(f"{ref}: pretrained=True downloads; the parameter file to convert is the argument")
    if framework == "mxnet":
        from mxnet.gluon.model_zoo import vision as zoo
        build = zoo.get_model
    else:
        from xlate.runtime import load as helpers
        build = helpers()._mx_vision_get_model
    try:
        return build(name, **kwargs)
    except (ValueError, TypeError, AssertionError, KeyError) as e:  # an unknown name or argument: Gluon's message
        raise ConvertError(f"{ref}: building it failed: {type(e).__name__}: {e}") from e


# -- the PyTorch side -------------------------------------------------------------------------
def _build(pt_ref: str, pt_kwargs: dict, advice: Optional[list[str]] = None):
    model = _model(pt_ref, pt_kwargs, "pytorch", advice)
    if not hasattr(model, "state_dict"):
        raise ConvertError(f"{pt_ref}: built a {type(model).__name__}, not a torch.nn.Module")
    return model.cpu()


def _forward(pt_model, arrays, pt_ref: str) -> None:
    import torch

    try:
        with torch.no_grad():
            pt_run(pt_model, arrays, "cpu", train=False)
    except Exception as e:
        raise ConvertError(f"{pt_ref}: the forward pass on the --input arrays failed: "
                           f"{type(e).__name__}: {e}") from e


def _materialise(mx_net, pt_model, arrays, pt_ref: str) -> str:
    """Give lazy modules their shapes (see the Note); says how, or '' when there were none."""
    import torch

    if not _uninitialised(pt_model):
        return ""
    if arrays:
        _forward(pt_model, arrays, pt_ref)
        if not _uninitialised(pt_model):
            return "shapes from one forward pass on the --input arrays"
    try:
        pairs = pair(mx_net, pt_model)
    except MappingError as e:  # the table shows lazy tensors as (lazy)
        raise ConvertError(f"the MXNet and PyTorch models do not pair:\n{e}") from e
    for pr in pairs:
        for m in pr.maps:
            target = getattr(pr.pt_module, m.pt, None)
            if isinstance(target, torch.nn.parameter.UninitializedTensorMixin) and m.mx in pr.mx_block._reg_params:
                value = mx_to_pt_value(m, pr.mx_block._reg_params[m.mx].data().asnumpy(), pr)
                target.materialize(value.shape)
    left = _uninitialised(pt_model)
    if left:
        raise ConvertError(f"lazy tensors no MXNet parameter gives a shape to: {', '.join(left)}; "
                           f"give --input SPEC so that one forward pass fixes them")
    return "shapes from the MXNet file (as torch's load_state_dict gives them)"


def _uninitialised(model) -> list[str]:
    """Names of lazy parameters and buffers still without a shape (sides.lazy sees parameters only)."""
    import torch

    return [n for n, t in list(model.named_parameters()) + list(model.named_buffers())
            if isinstance(t, torch.nn.parameter.UninitializedTensorMixin)]


def _account(summary: Summary, pairs, pt_model, state) -> None:
    """Every state_dict entry is copied from MXNet, a constant equal to MXNet's, or a known
    PyTorch-only counter; anything else would be a value the file never gave."""
    import torch

    paths = {id(m): p for p, m in pt_model.named_modules()}
    copied, differ = set(), []
    for pr in pairs:
        summary.families[pr.family.name if pr.family else "own parameters (by name)"] += 1
        base = paths[id(pr.pt_module)]
        for m in pr.maps:
            param = pr.mx_block._reg_params.get(m.mx)
            key = f"{base}.{m.pt}" if base else m.pt
            if param is None or key not in state:
                continue  # an optional parameter absent on both sides
            value = mx_to_pt_value(m, param.data().asnumpy(), pr)
            if is_constant(param):  # the translation computes its own copy: compared, not copied
                own = state[key].detach().cpu().numpy()
                mismatch = compare(key, value, own, tolerance_for(value.dtype))
                if mismatch is not None:
                    differ.append(mismatch.format())
                summary.constants.append(key)
            else:
                saved = summary.file_dtypes.get(id(param), value.dtype)
                if torch.from_numpy(np.empty(0, saved)).dtype != state[key].dtype:
                    summary.cast.append(f"{key} {saved} -> {str(state[key].dtype).replace('torch.', '')}")
            copied.add(key)
    if differ:
        raise ConvertError("constants the translation computes differently from the MXNet file: "
                           + "; ".join(differ))
    unmapped = [k for k in state if k not in copied and k.rpartition(".")[2] not in TORCH_ONLY]
    if unmapped:
        raise ConvertError("PyTorch state no MXNet parameter maps to: "
                           + ", ".join(f"{k} {tuple(state[k].shape)}" for k in unmapped))
    summary.kept = [k for k in state if k not in copied]
    summary.tensors = len(state)
    summary.copied = len(copied) - len(summary.constants)


def _reload(path: Path, pt_ref: str, pt_kwargs: dict, arrays, state):
    """A fresh instance of the PyTorch model, the written file loaded with strict=True."""
    import torch

    fresh = _build(pt_ref, pt_kwargs)
    if arrays and _uninitialised(fresh):
        _forward(fresh, arrays, pt_ref)
    written = torch.load(path, map_location="cpu", weights_only=True)
    missing, unexpected = _keys(fresh.state_dict(), written)
    if missing or unexpected:
        raise ConvertError(f"a fresh {pt_ref} does not load the written state_dict with strict=True: "
                           f"missing {', '.join(missing) or 'none'}; unexpected {', '.join(unexpected) or 'none'} "
                           f"(does the model's structure depend on something that varies?)")
    try:
        fresh.load_state_dict(written, strict=True)
    except RuntimeError as e:
        raise ConvertError(f"a fresh {pt_ref} does not load the written state_dict with strict=True: {e}") from e
    after = fresh.state_dict()
    changed = [k for k, v in state.items() if not torch.equal(after[k], v)]
    if changed:  # a module's own load hook altered what was written
        raise ConvertError(f"loading the written state_dict into a fresh {pt_ref} changed: {', '.join(changed)}")
    return fresh


def _keys(expected: dict, written: dict) -> tuple[list[str], list[str]]:
    def shape(t) -> str:
        return "(uninitialised)" if type(t).__name__.startswith("Uninitialized") else str(tuple(t.shape))

    missing = [f"{k} {shape(v)}" for k, v in expected.items() if k not in written]
    unexpected = [f"{k} {tuple(v.shape)}" for k, v in written.items() if k not in expected]
    return missing, unexpected


# -- --check --------------------------------------------------------------------------------
def _check(mx_net, fresh, inputs, mx_ref: str, pt_ref: str, seed: int, tolerance: Optional[Tolerance] = None,
           noise_floor: Optional[NoiseFloor] = None):
    """The checker's full comparison (every mapped tensor, inference and training outputs,
    gradients, running statistics after a step) on the weights as converted: MXNet's model
    holds the file's values, `fresh` the state_dict just written; nothing is drawn."""
    from xlate.check.pair import check_models

    try:
        return check_models(mx_net, fresh, inputs, mx_ref=mx_ref, pt_ref=pt_ref, seed=seed, keep_weights=True,
                            tolerance=tolerance, noise_floor=noise_floor)
    except (LoadError, MappingError) as e:
        raise ConvertError(str(e)) from e
