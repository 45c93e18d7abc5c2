"""A Gluon base class that only names a family of blocks (`rnn.RecurrentCell`) standing as a type
(Note [type positions] in xlate/convert/types.py): `nn.Module` in an annotation, the class every
translation of a block is an instance of; in a run-time test only where the same test names a
class with the same translation, since `isinstance(x, nn.Module)` would also admit other blocks."""
from xlate.convert.rulectx import Manual, Site
from xlate.convert.transforms.type_graph import _target
from xlate.convert.types import STATIC


def transform(site: Site):
    conv = site.conv
    kind, siblings = conv.type_position(site.original)
    target = site.rule.target
    if kind != STATIC and not any(_target(conv, s) == target for s in siblings):
        name = site.matched.rsplit(".", 1)[-1]
        raise Manual(f"`{name}` tested at run time asks whether a block is one of Gluon's {name} family; the "
                     f"translations are torch modules of other classes: decide the test by hand")
    return site.emit(target)
