"""Gluon Flatten -> nn.Flatten() (both keep axis 0 and fold the rest, row-major)."""
from xlate.convert.layerinfo import Shape
from xlate.convert.rulectx import Site
from xlate.convert.transforms import layer_args as la


def transform(site: Site):
    la.naming(site)
    return la.record(site, site.emit("nn.Flatten()"),
                     lambda shape: shape if shape is not None and shape.rank2 else Shape(None, rank2=True))
