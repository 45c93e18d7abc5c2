"""Imports every family module so that their families register (see xlate.check.mapping)."""
from xlate.check import layers  # noqa: F401
from xlate.check import rnn  # noqa: F401
from xlate.check import transformer  # noqa: F401
