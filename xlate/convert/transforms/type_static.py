"""An MXNet name that means "an array" only in an annotation (`inputs: mx.ndarray`, the module
for its arrays, or `List[mx.nd.array]`, the function that makes them) standing as a type (Note [type positions] in xlate/convert/types.py): the rule's
torch class in a static position; in a run-time test or a dispatch it is no class at all in
MXNet either (isinstance raises TypeError), so it is left and reported."""
from xlate.convert.rulectx import Manual, Site
from xlate.convert.types import STATIC


def transform(site: Site):
    if site.conv.type_position(site.original)[0] != STATIC:
        raise Manual(f"`{site.code(site.original)}` is no class (a module, or the function that makes arrays), "
                     "tested at run time as one: MXNet raises TypeError there; decide the test by hand")
    return site.emit(site.rule.target)
