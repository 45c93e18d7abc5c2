"""A stand-in for the two scikit-image functions MHaneferd/mxnet.gluon's scripts call (not installed here)."""
from . import color, transform  # noqa: F401
