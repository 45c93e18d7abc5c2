"""Gluon Embedding(input_dim, output_dim) -> `_mx_Embedding(input_dim, output_dim)`: an
nn.Embedding that takes MXNet's float32 ids (truncated) and clips ids outside the table, as
MXNet does; a plain nn.Embedding raises on both."""
from xlate.convert.layerinfo import Shape
from xlate.convert.rulectx import Manual, Site
from xlate.convert.transforms import layer_args as la


def transform(site: Site):
    la.naming(site)
    if not (site.has("input_dim") and site.has("output_dim")):
        raise Manual("Embedding needs `input_dim` and `output_dim`")
    if site.has("sparse_grad") and site.literal("sparse_grad") is not False:
        site.review("sparse_grad -> sparse=True: pair it with torch.optim.SparseAdam (or SGD); MXNet's Adam "
                    "updates only the rows in the batch (lazy_update), torch's dense Adam moves every row "
                    "(layers.md 8.11)")
    la.named_inits(site, "weight_initializer")
    # ids (N, T, ...) -> (N, T, ..., output_dim): axis 1 keeps its size
    return la.record(site, site.verbatim(), lambda shape: None if shape is None else Shape(shape.channels))
