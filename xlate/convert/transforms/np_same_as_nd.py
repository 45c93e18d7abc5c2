"""A method of mx.np arrays that means what the NDArray method means (N8.6 astype, `copy`,
`transpose`, `repeat`, `size`, `context`): the NDArray rule's translation, reported under the
dialect's code."""
import importlib
from dataclasses import replace

from xlate.convert import table
from xlate.convert.rulectx import Dynamic, Site, bind


def transform(site: Site):
    member = "." + site.matched.rsplit(".", 1)[1]
    index = site.conv.rules.references if site.rule.kind == "reference" else site.conv.rules.calls
    nd_rule = index[member]
    nd_site = replace(site, rule=nd_rule, matched=member, receiver_kind=site.receiver_kind)
    if site.rule.kind == "reference":
        nd_site.args = {nd_rule.signature[0] if nd_rule.signature else "data": site.args[next(iter(site.args))]}
    else:
        try:
            nd_site.args, nd_site.varargs = bind(nd_rule, site.node, site.receiver)
        except Dynamic as why:
            why.method_runtime = nd_rule.method_runtime  # the NDArray rule's helper, if it has one
            raise
    if nd_rule.transform:
        new = importlib.import_module(f"xlate.convert.transforms.{nd_rule.transform}").transform(nd_site)
    else:
        new = table.apply(nd_site)
    if site.receiver_kind is None and nd_site.message:  # decided at run time: the helper says how
        site.fixed(nd_site.message)
    else:
        site.fixed(f"on an mx.np array `{member}` means what it means on an NDArray: {nd_rule.code}'s translation "
                   f"({nd_site.message or nd_rule.summary})")
    return new
