"""Gluon internals that model code reads off its blocks: `._children` (torch's `._modules`,
the same ordered name -> child mapping), and `.name` / `.prefix` (`_mx_block_name` /
`_mx_block_prefix`, Gluon's names for the converted model)."""
from xlate.convert.rulectx import Manual, Site, Skip
from xlate.convert.transforms import param_evidence


def transform(site: Site):
    what = param_evidence.block_kind(site, param_evidence.receiver(site))
    receiver = site.code(site.receiver).strip()
    if site.matched == "._children":
        if what == "no":
            raise Skip()
        if what == "unknown":
            raise Manual(f"could not tell whether `{receiver}` is a Gluon block; if it is, `._children` -> "
                         "`._modules` (the same name -> child mapping)")
        site.fixed("`._children` -> `._modules`: the block's children by name, in the order they were added")
        return site.emit("{b}._modules", b=site.receiver)
    if what == "unknown" and site.matched == ".name" and _block_argument(site):
        site.fixed("`name` of a block a Gluon class's method is given -> `_mx_block_name(...)`, decided at run "
                   "time: Gluon's name for a torch module (Note [Gluon names]), any other value's own `.name`")
        return site.emit("_mx_block_name({b})", b=site.receiver)
    if what == "no" or (what == "unknown" and site.matched != "._prefix"):
        raise Skip()  # `.name` is everybody's attribute: only a Gluon block's is Gluon's
    if what == "unknown":
        raise Manual(f"could not tell whether `{receiver}` is a Gluon block; if it is, `{receiver}._prefix` -> "
                     f"`_mx_block_prefix({receiver})`")
    if _in_init(site):
        raise Manual(f"`{receiver}{site.matched}` while the block is being built: Gluon knows a block's name from "
                     "its construction, the translation from the finished model it is part of (Note [Gluon names]); "
                     "use a name of your own here")
    helper = "_mx_block_name" if site.matched == ".name" else "_mx_block_prefix"
    site.fixed(f"`{site.matched[1:]}` -> `{helper}(...)`: the name Gluon gives the block in the model it is part "
               f"of (Note [Gluon names])")
    return site.emit(f"{helper}({{b}})", b=site.receiver)


def _in_init(site: Site) -> bool:
    """Inside a Gluon class's `__init__`, where the model around the block does not exist yet."""
    key = site.conv.scopes[-1]
    return bool(key) and key[-1][0] == "__init__" and site.conv.analysis.gluon_class(key) is not None


def _block_argument(site: Site) -> bool:
    """`block.name` where `block` is a parameter of a method (not `__init__`) of a Gluon class of
    this file: d2l's `MySequential.add(self, block)` keys its children by it. `_mx_block_name`
    gives any value that is no torch module its own `.name`, so the guess costs nothing where it
    is wrong."""
    key = site.conv.scopes[-1]
    receiver = site.original.value
    if not key or key[-1][0] == "__init__" or site.conv.analysis.gluon_class(key) is None \
            or not hasattr(receiver, "value") or not isinstance(receiver.value, str):
        return False
    node = site.conv.analysis.scopes[key].node
    args = getattr(node, "args", None)
    return args is not None and receiver.value in {a.arg for a in args.args[1:] + args.kwonlyargs}
