"""`mx.util.is_np_array()` / `is_np_shape()` -> the literal this file's numpy mode gives.

MXNet's numpy mode is a global switch (`npx.set_np()`); Gluon's own layers ask it to choose
between the two spellings of an operator (`F.npx.activation if is_np_array() else
F.Activation`), which translate to the same torch call. Converted code has one kind of array:
the answer is this file's mode (Note [numpy dialect] in names.py), said for review, since a
script that imports the module may set the mode elsewhere."""
from xlate.convert.rulectx import Site


def transform(site: Site):
    mode = bool(site.conv.analysis.np_mode)
    site.review(f"`{site.matched.rsplit('.', 1)[-1]}()` -> `{mode}`: this file is {'' if mode else 'not '}in MXNet's "
                "numpy mode; MXNet's switch is global, so check that no other module sets it otherwise")
    return site.emit(str(mode))
