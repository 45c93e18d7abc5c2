"""`self.register_child(block, name)` -> `self.add_module(name, block)`."""
from xlate.convert.rulectx import Site


def transform(site: Site):
    block = site.value("block")
    if site.has("name") and site.literal("name", None) is not None:
        return site.emit("{me}.add_module({name}, {block})", me=site.receiver, name=site.value("name"), block=block)
    # Gluon names an anonymous child by its position among the children: so does this
    return site.emit("{me}.add_module(str(len({me}._modules)), {block})", me=site.receiver, block=block)
