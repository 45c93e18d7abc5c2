"""MXNet 1.9.1's public names, read from the installed mxnet: what xlate/convert/mxnet_api.txt holds.

    python -m xlate.check.api_inventory > xlate/convert/mxnet_api.txt

The converter never imports mxnet (Note [MXNet's own names] in xlate/convert/mx_api.py), so it reads
this list to tell a name MXNet 1.9.1 lacks (a fork's operator such as BMXNet's `nn.QConv2D`, another
version's API) from a name it has and xlate has no rule for. tests/test_mx_api.py regenerates it
with the mxnet installed and compares it with the file.
"""
from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import sys
import warnings

# packages whose import needs what is not installed, or that only test MXNet itself
_SKIPPED = re.compile(r"\.(test_utils|onnx|tensorrt|contrib\.onnx)\b")
# classes whose members the converter reads (their methods are called on values xlate types)
CLASSES = ("mxnet.ndarray.NDArray", "mxnet.symbol.Symbol", "mxnet.gluon.Parameter", "mxnet.gluon.Block",
           "mxnet.gluon.HybridBlock", "mxnet.gluon.Trainer", "mxnet.numpy.ndarray")
# NDArray's fluent methods: `x.name(*args, **kwargs)` is `op.name(x, *args, **kwargs)`, as its source says
_FLUENT = re.compile(r"return op\.(\w+)\(self, \*args, \*\*kwargs\)")


def _public(names) -> list[str]:
    return sorted(n for n in names if not n.startswith("_"))


def inventory() -> list[str]:
    """The file's lines: `module NAME members...`, `class NAME members...`, `fluent method=op ...`."""
    warnings.filterwarnings("ignore")
    import mxnet

    for info in pkgutil.walk_packages(mxnet.__path__, "mxnet."):
        if info.name.split(".")[-1].startswith("_") or _SKIPPED.search(info.name):
            continue
        try:
            importlib.import_module(info.name)
        except Exception:  # noqa: BLE001 - an optional dependency it needs is not installed
            continue
    lines = []
    for name in sorted(n for n in sys.modules if n == "mxnet" or n.startswith("mxnet.")):
        module = sys.modules[name]
        if module is None or any(p.startswith("_") for p in name.split(".")[1:]) or _SKIPPED.search(name):
            continue
        # every submodule is a name of its package, imported or not (`mx.test_utils` before anything imports it),
        # so the list does not depend on what ran before it in the process
        subs = {info.name for info in pkgutil.iter_modules(getattr(module, "__path__", None) or [])}
        lines.append(" ".join(["module", name, *_public(set(dir(module)) | subs)]))
    for dotted in CLASSES:
        owner, _, attr = dotted.rpartition(".")
        lines.append(" ".join(["class", dotted, *_public(dir(getattr(sys.modules[owner], attr)))]))
    fluent = []
    array = mxnet.ndarray.NDArray
    for method in _public(dir(array)):
        try:
            found = _FLUENT.search(inspect.getsource(getattr(array, method)))
        except (TypeError, OSError):  # a property or a builtin
            continue
        if found:
            fluent.append(f"{method}={found.group(1)}")
    lines.append(" ".join(["fluent", *fluent]))
    return lines


if __name__ == "__main__":
    print("# MXNet 1.9.1's public names (python -m xlate.check.api_inventory); read by xlate/convert/mx_api.py")
    print("\n".join(inventory()))
