"""`@use_np` (and `use_np_shape`/`use_np_array`): the decorator that runs a block or function in
numpy mode goes; torch has one array type."""
from xlate.convert.rulectx import Manual, Site


def transform(site: Site):
    if not site.conv.drop_decorator(site.original):
        raise Manual("`use_np` used as a value, not as a decorator: torch has one array type; drop the wrapper "
                     "by hand (its argument is what remains)")
    return site.node
