"""`F.__name__` of MXNet's operator namespace -> the module's name as a string (MX137).

Gluon helpers ask which namespace they were handed (autogluon's GP code: `def mxnet_is_ndarray(F):
return F.__name__ == 'mxnet.ndarray'`, then `if mxnet_is_ndarray(F): ... x.asnumpy()`). Translated
code runs as MXNet's imperative mode does, where F is `mx.nd`, and the namespace handed on becomes
`None` (MX113): the name read off it is `'mxnet.ndarray'`, a constant, and a test of it gives MXNet's
imperative answer. An explicit `mx.sym.__name__` names its own module."""
import libcst as cst

from xlate.convert.rulectx import Site


def transform(site: Site):
    module = site.matched.rsplit(".", 1)[0]
    site.fixed(f"`{site.code(site.original)}` (MXNet's namespace's module name) -> {module!r}: translated code runs "
               "as MXNet's imperative mode, where F is mx.nd")
    return cst.SimpleString(repr(module))
