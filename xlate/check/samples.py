"""Sample configurations of the layer families: what `xlate check --rules` verifies.

Each family module declares, next to its weight-mapping table, one or more `Sample`s: a
hypothesis strategy of configurations (small sizes, so that one example runs in
milliseconds) and `build(config) -> (mx_block, pt_module, inputs)`, a fresh Gluon block, its
correct PyTorch translation and the input specs. The torch module's forward takes the inputs
and returns what the Gluon block returns; where the translation is more than one module
call (Dense's flatten, an LSTM called without states), `torch_call` wraps it.

Importing a family needs neither hypothesis nor the frameworks: a strategy may be given as a
zero-argument function that returns it (`Sample.configs()` calls it), and builders import
mxnet and torch when they run.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Optional, Union

from xlate.check.compare import Tolerance
from xlate.check.inputs import InputSpec

Config = Any  # a dict (or a dataclass) drawn by the strategy
Build = Callable[[Config], tuple[Any, Any, list[InputSpec]]]


@dataclass(frozen=True)
class Sample:
    name: str  # unique, e.g. "conv" or "rnn layers"
    family: str  # the registered Family it exercises (mapping.FAMILIES)
    strategy: Union[Any, Callable[[], Any]]  # a hypothesis strategy, or a function returning one
    build: Build
    tolerance: Optional[Tolerance] = None  # None: the family's, else the dtype default

    def configs(self):
        """The hypothesis strategy of configurations."""
        from hypothesis.strategies import SearchStrategy

        return self.strategy if isinstance(self.strategy, SearchStrategy) else self.strategy()


SAMPLES: dict[str, Sample] = {}


def register_sample(sample: Sample) -> Sample:
    """Declare a sample; a second one of the same name is an error."""
    if sample.name in SAMPLES:
        raise ValueError(f"sample {sample.name!r} is registered twice")
    SAMPLES[sample.name] = sample
    return sample


def describe(config: Config) -> str:
    """`k=v, ...` for a dict, the repr otherwise: what a failure names."""
    if isinstance(config, dict):
        return ", ".join(f"{k}={v!r}" for k, v in config.items())
    return repr(config)


def floats(name: str, *shape: int) -> InputSpec:
    return InputSpec(name, "float32", tuple(shape))


# -- wrappers -------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def _torch_call_type():
    import torch

    class TorchCall(torch.nn.Module):
        """`forward(*xs) = call(inner, *xs)`: a translation that is more than `inner(x)`."""

        def __init__(self, inner, call):
            super().__init__()
            self.inner = inner
            self.call = call

        def forward(self, *xs):
            return self.call(self.inner, *xs)

    return TorchCall


def torch_call(inner, call: Callable) -> Any:
    """A torch module running `call(inner, *inputs)`; `inner` stays its only child."""
    return _torch_call_type()(inner, call)


@lru_cache(maxsize=None)
def _gluon_call_type():
    import mxnet as mx

    class GluonCall(mx.gluon.Block):
        """`forward(*xs) = call(inner, *xs)`: a Gluon call with states or `unroll`."""

        def __init__(self, inner, call):
            super().__init__()
            self.inner = inner
            self._call = call

        def forward(self, *xs):
            return self._call(self.inner, *xs)

    return GluonCall


def gluon_call(inner, call: Callable) -> Any:
    """A Gluon block running `call(inner, *inputs)`; `inner` stays its only child."""
    return _gluon_call_type()(inner, call)


def strategies():
    """`hypothesis.strategies`, imported when a strategy is made (xlate[dev] has hypothesis)."""
    from hypothesis import strategies as st

    return st


def check_knobs(**knobs: int) -> None:
    """Strategies validate their knobs up front, as hypothesis.extra.numpy does."""
    for name, value in knobs.items():
        if not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive int, got {value!r}")
