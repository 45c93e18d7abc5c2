"""The layer families' declarations (Note [weight layouts] in mapping.py): how each family's
MXNet parameters map onto the PyTorch module's state. The family modules (layers, rnn,
transformer) register here; mapping.py, which pairs models with them, imports them all, so no
pairing ever runs on an empty table.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

import numpy as np

from xlate.check.compare import Tolerance

Convert = Callable[[np.ndarray, Any, Any], np.ndarray]  # (value, mx_block, pt_module) -> value


class MappingError(Exception):
    """The two models cannot be paired; the message names the parameters and shapes."""


@dataclass(frozen=True)
class ParamMap:
    mx: str  # the Gluon block's own parameter name (its `_reg_params` key)
    pt: str  # the torch module's parameter or buffer name
    to_pt: Optional[Convert] = None
    to_mx: Optional[Convert] = None  # the inverse (gradients, converting weights back)
    optional: bool = False  # missing on both sides when disabled (use_bias=False)


@dataclass(frozen=True)
class Family:
    name: str
    mx_types: tuple[str, ...]  # Gluon block class names
    pt_types: tuple[str, ...]  # torch module class names
    params: tuple[ParamMap, ...] = ()
    # for families whose names depend on the configuration (RNN layers x directions)
    expand: Optional[Callable[[Any, Any], tuple[ParamMap, ...]]] = None
    tolerance: Optional[Tolerance] = None

    def maps(self, mx_block, pt_module) -> tuple[ParamMap, ...]:
        return self.expand(mx_block, pt_module) if self.expand else self.params


FAMILIES: dict[str, Family] = {}
_BY_MX: dict[str, Family] = {}


def register(family: Family) -> Family:
    """Declare a family; a second declaration of a name or a block type is an error."""
    if family.name in FAMILIES:
        raise ValueError(f"layer family {family.name!r} is registered twice")
    for t in family.mx_types:
        if t in _BY_MX:
            raise ValueError(f"Gluon block {t} already belongs to family {_BY_MX[t].name!r}")
    FAMILIES[family.name] = family
    for t in family.mx_types:
        _BY_MX[t] = family
    return family


def family_of(mx_block) -> Optional[Family]:
    """The family of the MXNet or gluonnlp class `mx_block` is or derives from. A class of the
    user's own that takes a Gluon name (GluonCV's `GroupNorm`, a HybridBlock with its own
    parameters) belongs to none: its parameters pair by attribute like any block's."""
    for cls in type(mx_block).__mro__:
        if cls.__name__ in _BY_MX and cls.__module__.partition(".")[0] in ("mxnet", "gluonnlp"):
            return _BY_MX[cls.__name__]
    return None
