"""Golden references: what MXNet computed, stored so the PyTorch side can be checked on a
machine without MXNet (`xlate check --record DIR`, then `xlate check --against DIR`).

A reference holds the inputs, the head gradients, the weights already in the PyTorch layout
(the state_dict after the transfer), every MXNet observation keyed by PyTorch names, and the
Signs of MXNet's training forward at every paired layer (what noise mode needs to follow the
kinks MXNet's rounding crossed, Note [kinks]; absent in older recordings), in `reference.npz`,
with the model references, input specifications and seed in `reference.json`. Re-record when
the PyTorch model's structure changes.
"""
from __future__ import annotations

import io
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from xlate.check.inputs import InputSpec, parse
from xlate.check.noise import Signs

FORMAT = 1


@dataclass
class Reference:
    mx_ref: str
    pt_ref: str
    inputs: list[InputSpec]
    seed: int
    arrays: list[np.ndarray]
    heads: list[np.ndarray]
    state: dict
    expected: tuple[dict, dict]
    pt_args: dict = None  # the PyTorch constructor's keyword arguments at record time
    layers: dict = None  # PyTorch module path -> noise.Signs of MXNet's training forward there


class ReferenceError(Exception):
    pass


def save(directory: Path, mx_ref, pt_ref, inputs, seed, arrays, heads, state, expected, pt_args=None,
         mx_args=None, layers=None) -> None:
    from xlate.convert.files import write_atomic

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    arrays_out = {f"input/{i}": a for i, a in enumerate(arrays)}
    arrays_out.update({f"head/{i}": h for i, h in enumerate(heads)})
    arrays_out.update({f"state/{k}": v for k, v in state.items()})
    keys = {"inference": list(expected[0]), "training": list(expected[1])}
    for phase, observed in zip(("inference", "training"), expected):
        arrays_out.update({f"{phase}/{i}": v for i, v in enumerate(observed.values())})
    layers = layers or {}
    for i, sign in enumerate(layers.values()):  # what following MXNet's kinks needs (Note [kinks])
        arrays_out.update({f"layer/{i}/positive": sign.positive, f"layer/{i}/near_index": sign.near_index,
                           f"layer/{i}/near_value": sign.near_value})
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays_out)
    tmp = directory / ".reference.npz.tmp"
    tmp.write_bytes(buffer.getvalue())
    tmp.replace(directory / "reference.npz")
    meta = {"format": FORMAT, "mx": _relative(mx_ref, directory), "pt": _relative(pt_ref, directory),
            "inputs": [str(s) for s in inputs], "seed": seed,
            "heads": len(heads), "state": list(state), "keys": keys, "pt_args": pt_args or {},
            "mx_args": mx_args or {},
            "layers": [[path, list(sign.shape)] for path, sign in layers.items()]}
    write_atomic(directory / "reference.json", json.dumps(meta, indent=2) + "\n")


def load(directory: Path) -> Reference:
    directory = Path(directory)
    try:
        meta = json.loads((directory / "reference.json").read_text())
        data = np.load(directory / "reference.npz")
    except (OSError, ValueError) as e:
        raise ReferenceError(f"{directory}: no readable golden reference ({e})") from e
    if meta.get("format") != FORMAT:
        raise ReferenceError(f"{directory}: reference format {meta.get('format')}, this xlate reads {FORMAT}")
    inputs = [parse(s) for s in meta["inputs"]]
    expected = tuple({k: data[f"{phase}/{i}"] for i, k in enumerate(meta["keys"][phase])}
                     for phase in ("inference", "training"))
    return Reference(
        _absolute(meta["mx"], directory), _absolute(meta["pt"], directory), inputs, meta["seed"],
        [data[f"input/{i}"] for i in range(len(inputs))],
        [data[f"head/{i}"] for i in range(meta["heads"])],
        {k: data[f"state/{k}"] for k in meta["state"]},
        expected,
        meta.get("pt_args", {}),
        {path: Signs(tuple(shape), data[f"layer/{i}/positive"], data[f"layer/{i}/near_index"],
                     data[f"layer/{i}/near_value"]) for i, (path, shape) in enumerate(meta.get("layers", []))},
    )


# Model references are stored relative to the reference folder, so that a recording checked
# into a repository replays from any clone.
def _relative(ref: str, directory: Path) -> str:
    path, sep, name = ref.rpartition(":")
    if not sep:
        return ref
    if not Path(path).exists():  # package.module:NAME: the file it was found in
        from xlate.check.loading import module_file

        found = module_file(path)
        if found is None:
            return ref
        path = str(found)
    return f"{os.path.relpath(Path(path).resolve(), Path(directory).resolve())}:{name}"


def _absolute(ref: str, directory: Path) -> str:
    path, sep, name = ref.rpartition(":")
    if not sep or Path(path).is_absolute():
        return ref
    return f"{(Path(directory) / path).resolve()}:{name}"
