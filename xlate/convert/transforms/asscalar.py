"""x.asscalar() -> x.item(); a full reduction's (1,) reshape right before it is dropped."""
import libcst as cst

from xlate.convert.rulectx import Site


def transform(site: Site):
    data = site.value("data")
    if (isinstance(data, cst.Call) and site.conv.full_reductions.get(id(data)) is data
            and isinstance(data.func, cst.Attribute)):
        data = data.func.value
    return site.emit("{x}.item()", x=data)
