"""`self.params.update({w.name: w})` in a Gluon block, after `self.w = w` -> removed: the attribute
assignment registers the shared Parameter in torch (sockeye's tied output and embedding weights)."""
import ast

import libcst as cst

from xlate.convert.rulectx import Manual, Site, Skip


def transform(site: Site):
    receiver = site.receiver
    if not (isinstance(receiver, cst.Attribute) and receiver.attr.value == "params"
            and isinstance(receiver.value, cst.Name) and receiver.value.value == "self"):
        raise Skip()  # dict.update and friends
    cls = site.conv.analysis.gluon_class(site.conv.scopes[-1])
    if cls is None:
        raise Skip()
    args = site.node.args
    if len(args) != 1 or args[0].keyword is not None or not isinstance(args[0].value, cst.Dict):
        raise Manual("`self.params.update(...)` of something other than a dict literal: assign each shared "
                     "Parameter to an attribute (`self.w = w`), which registers it in torch")
    values = [e.value for e in args[0].value.elements if isinstance(e, cst.DictElement)]
    if len(values) != len(args[0].value.elements) or not values:
        raise Manual("`self.params.update({**...})`: assign each shared Parameter to an attribute by hand")
    held = {v.id for vs in cls.attrs.values() for v in vs if isinstance(v, ast.Name)}
    missing = [v for v in values if not (isinstance(v, cst.Name) and v.value in held)]
    if missing:
        raise Manual(f"`{site.code(missing[0])}` is added to the block's ParameterDict without being assigned to an "
                     "attribute: `self.<name> = <parameter>` registers a shared nn.Parameter in torch")
    stmt = site.conv.statement_of(site.original)
    if stmt is None:
        raise Manual("`self.params.update(...)` used as a value")
    names = ", ".join(f"`{v.value}`" for v in values)
    site.fixed(f"`self.params.update(...)` removed: {names} is assigned to an attribute of the block, which "
               "registers the shared nn.Parameter in torch as `params.update` adds it to Gluon's ParameterDict")
    site.conv.replace_statement(stmt, [])
    return site.node
