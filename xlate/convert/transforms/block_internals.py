"""Gluon internals that model code reads off its blocks: `._children` (torch's `._modules`,
the same ordered name -> child mapping), and `.name` / `.prefix` (no torch counterpart)."""
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
    if what == "no" or (what == "unknown" and site.matched != "._prefix"):
        raise Skip()  # `.name` is everybody's attribute: only a Gluon block's is Gluon's
    raise Manual(f"`{receiver}{site.matched}`: a Gluon block's name prefix (`dense0_`) has no torch counterpart "
                 "(torch names parameters by attribute path): use a name of your own")
