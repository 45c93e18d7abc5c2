"""xlate: translate MXNet/Gluon code to PyTorch, and check the translation numerically."""
from typing import Any

__version__ = "0.1.0"
__all__ = ["convert_source", "InputError", "Diagnostic", "FileResult", "__version__"]

# Importing LibCST costs ~0.3 s; `xlate --help` and friends must not pay it (PEP 562).
_LAZY = {
    "convert_source": "xlate.convert.engine",
    "InputError": "xlate.convert.engine",
    "Diagnostic": "xlate.convert.report",
    "FileResult": "xlate.convert.report",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'xlate' has no attribute {name!r}")
