"""`nd.add_n(a, b, *rest)` -> `torch.stack([a, b, *rest]).sum(dim=0)`."""
import libcst as cst

from xlate.convert.rulectx import Manual, Site


def transform(site: Site):
    args = site.node.args
    if not args or any(a.keyword is not None or a.star == "**" for a in args):
        raise Manual("`add_n` takes only arrays (positional or *unpacked)")
    elements = [cst.StarredElement(a.value) if a.star == "*" else cst.Element(a.value) for a in args]
    return site.emit("torch.stack({arrays}).sum(dim=0)", arrays=cst.List(elements))
