"""`with self.name_scope():` -> its body, one level out (Gluon naming only)."""
from xlate.convert.rulectx import Manual, Site


def transform(site: Site):
    stack = site.conv.with_stack
    if not stack or len(stack[-1].items) != 1 or stack[-1].items[0].item is not site.original \
            or stack[-1].items[0].asname is not None:
        raise Manual("`name_scope()` outside a plain `with ...name_scope():` statement: remove it by hand "
                     "(PyTorch names parameters by attribute path)")
    site.conv.unwrap.add(id(stack[-1]))
    return site.node
