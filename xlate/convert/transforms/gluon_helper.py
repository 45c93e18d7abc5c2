"""A Gluon class -> its Gluon-signature helper, called with the call's own arguments
(Note [Gluon-signature modules] in xlate/runtime/layers.py): losses, the Trainer, metrics,
schedulers, datasets and the DataLoader, whose helpers compute what MXNet does whatever
values the arguments take at run time."""
from xlate.convert.rulectx import Site


def transform(site: Site):
    return site.verbatim()
