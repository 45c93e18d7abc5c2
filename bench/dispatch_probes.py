"""Probe programs for values whose kind xlate cannot prove (issue 25 items 3-4, issue 21 items
6 and 8): each runs with MXNet, is converted, runs converted, and its printed numbers are
compared with MXNet's.

    PYTHONPATH=. .venv/bin/python bench/dispatch_probes.py [PROBE ...]

A probe prints one line `RESULT <json list>`. Exits 0 always: it measures, it does not gate.
"""
from __future__ import annotations

import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent / "dispatch_probes"


def _result(cmd, cwd=None):
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=300)
    for line in done.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:]), ""
    return None, (done.stderr.strip().splitlines() or ["no output"])[-1]


def _close(a, b) -> bool:
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return math.isclose(a, b, rel_tol=1e-4, abs_tol=1e-5)
    return a == b


def probe(path: Path, out_dir: Path) -> tuple[str, str]:
    # a folder is a small tree (its main.py imports the rest), converted as a tree
    main = path / "main.py" if path.is_dir() else path
    ref, why = _result([sys.executable, str(main)], cwd=main.parent)
    if ref is None:
        return "mxnet-fails", why
    target = out_dir / path.name
    conv = subprocess.run([sys.executable, "-m", "xlate", "convert", str(path), "-o", str(target), "--exit-zero"],
                          capture_output=True, text=True)
    if path.is_dir():
        out_dir, target = target, target / "main.py"
    manual = sum(" [manual] " in line for line in conv.stderr.splitlines())
    if conv.returncode != 0:
        return "no-convert", conv.stderr.strip().splitlines()[-1]
    got, why = _result([sys.executable, str(target)], cwd=out_dir)
    if got is None:
        return "crash", f"{why} ({manual} manual)"
    return ("match" if _close(ref, got) else "differ"), f"{manual} manual" + ("" if _close(ref, got) else
                                                                              f": mxnet {ref} torch {got}")


def main(argv) -> int:
    paths = [HERE / n if (HERE / n).is_dir() else HERE / f"{n}.py" for n in argv] if argv else sorted(
        p for p in HERE.iterdir() if p.suffix == ".py" or (p / "main.py").exists())
    matched = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in paths:
            status, detail = probe(path, Path(tmp))
            matched += status == "match"
            print(f"{path.stem:16} {status:12} {detail}")
    print(f"{matched} of {len(paths)} probes give MXNet's numbers")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
