"""x.asscalar() -> _mx_asscalar(x), MXNet's NumPy scalar; a full reduction's (1,) reshape right before it is
dropped."""
import libcst as cst

from xlate.convert.rulectx import Site
from xlate.convert.transforms.compare_dtype import in_chain


def transform(site: Site):
    data = site.value("data")
    if (isinstance(data, cst.Call) and site.conv.full_reductions.get(id(data)) is data
            and isinstance(data.func, cst.Attribute)):
        data = data.func.value
    chained = in_chain(site, data)
    if chained is not data:
        site.fixed("`x.asscalar()` -> `_mx_asscalar(x)`, the comparison it reduces made float32 as in MXNet (MX540)")
    if getattr(chained, "lpar", None):  # `(a - b).asscalar()`: an argument needs no parentheses of its own
        chained = chained.with_changes(lpar=[], rpar=[])
    return site.emit("_mx_asscalar({x})", x=chained)
