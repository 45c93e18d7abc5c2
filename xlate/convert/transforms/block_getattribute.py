"""`block.__getattribute__(name)` -> `getattr(block, name)` (Note [children by __getattribute__])."""
from xlate.convert.rulectx import Site, Skip
from xlate.convert.transforms import param_evidence

# Note [children by __getattribute__]
# Gluon's Block.__setattr__ registers a child block or Parameter and also stores it in the
# instance's __dict__, so `self.__getattribute__(head)` finds it (CenterNet reads the heads it set
# with `self.__setattr__(head, fc)` that way). torch keeps children, parameters and buffers in
# `_modules` / `_parameters` / `_buffers` and finds them in `Module.__getattr__`, which Python calls
# only after `__getattribute__` fails: the same read raises AttributeError. `getattr(block, name)`
# tries both, so it reads a child, a parameter or a plain attribute as Gluon did. On a receiver that
# may not be a block the rewrite is the same and reviewed: the two differ only where the name is
# missing and the object's class defines a `__getattr__` of its own.


def transform(site: Site):
    what = param_evidence.block_kind(site, param_evidence.receiver(site))
    if what == "no":
        raise Skip()
    receiver = site.code(site.receiver).strip()
    if what == "unknown":
        site.review(f"`{receiver}.__getattribute__(...)` -> `getattr({receiver}, ...)`: if `{receiver}` is a Gluon "
                    "block, torch keeps its children and parameters where only `getattr` finds them; on another "
                    "object the two differ only for a missing name its class's `__getattr__` answers")
    else:
        site.fixed("`block.__getattribute__(name)` -> `getattr(block, name)`: torch keeps a module's children and "
                   "parameters where `__getattribute__` alone does not look (Note [children by __getattribute__])")
    return site.emit("getattr({me}, {name})", me=site.receiver, name=site.value("name"))
