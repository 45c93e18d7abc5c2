"""x.tostype(stype) -> `_mx_tostype(x, stype)`: a dense copy (Note in the helper's docstring)."""
from xlate.convert.rulectx import NOT_LITERAL, Manual, Site


def transform(site: Site):
    data, stype = site.value("data"), site.value("stype")
    if data is None or stype is None:
        raise Manual("tostype takes the storage type")
    kind = site.literal("stype")
    if kind == "default":
        site.fixed("`x.tostype('default')` -> `_mx_tostype(x, 'default')`: a dense copy, as MXNet's")
    else:
        shown = "a storage type known at run time" if kind is NOT_LITERAL else f"'{kind}'"
        site.review(f"`x.tostype(...)` with {shown} -> `_mx_tostype(...)`: a dense copy holding the same values; "
                    f"torch computes densely here, so code reading MXNet's sparse parts (`.indices`, `.data`, "
                    f"`.stype`) needs a human")
    return site.emit(f"{site.helper('_mx_tostype')}({{x}}, {{s}})", x=data, s=stype)
