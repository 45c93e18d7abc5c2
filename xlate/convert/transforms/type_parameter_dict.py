"""`gluon.ParameterDict` standing as a type (Note [type positions] in xlate/convert/types.py):
`dict` in an annotation; in a run-time test (isinstance, `type(x) == ParameterDict`, a dispatch)
`_mx_ParameterDict`, the dict subclass `collect_params()` and `block.params` translate to, so an
exact type compared is still equal and a plain dict is not one."""
from xlate.convert.rulectx import Site
from xlate.convert.types import STATIC


def transform(site: Site):
    if site.conv.type_position(site.original)[0] == STATIC:
        return site.emit(site.rule.target)
    return site.emit(site.helper("_mx_ParameterDict"))
