"""The equivalence checker: run an MXNet model and its PyTorch translation with the same weights
on the same inputs and compare what they compute.

Importing this package needs numpy; the families need torch, and the MXNet side mxnet.
"""
import warnings as _warnings

import numpy as _np

# numpy >= 1.24 removed aliases (np.bool, np.int, ...) that mxnet 1.9.1 uses at import time.
# Restored here, once, before any module of the checker or any model file it loads imports
# mxnet; an alias numpy still has (np.bool in numpy 2) is left alone.
_ALIASES = {"bool": bool, "int": int, "float": float, "complex": complex, "object": object, "str": str}
with _warnings.catch_warnings():
    _warnings.simplefilter("ignore")
    for _name, _value in _ALIASES.items():
        try:
            getattr(_np, _name)
        except AttributeError:
            setattr(_np, _name, _value)
