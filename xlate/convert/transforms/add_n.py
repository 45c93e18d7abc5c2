"""`nd.add_n(a, b, *rest)` -> `torch.stack([a, b, *rest]).sum(dim=0)`."""
import libcst as cst

from xlate.convert.rulectx import Manual, Site, starred_list


def transform(site: Site):
    # `name=` only names the symbol node (rulectx.names_node); this rule binds its own arguments
    args = [a for a in site.node.args if a.keyword is None or a.keyword.value != "name"]
    if not args or any(a.keyword is not None or a.star == "**" for a in args):
        raise Manual("`add_n` takes only arrays (positional or *unpacked)")
    elements = [cst.StarredElement(a.value) if a.star == "*" else cst.Element(a.value) for a in args]
    return site.emit("torch.stack({arrays}).sum(dim=0)", arrays=starred_list(elements))
