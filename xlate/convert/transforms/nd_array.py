"""`nd.array(data)` (MX010): `torch.tensor(data, dtype=torch.float32)`. In a file that imports
PIL, an argument xlate cannot type may be a PIL image, which `nd.array` reads as numpy does (an
(H, W, C) or (H, W) array, cast to float32 by default) and `torch.tensor` rejects: the argument
then goes through `_mx_image_array`, which hands an image's array over and anything else as it
is."""
import libcst as cst

from xlate.convert import table
from xlate.convert.rulectx import Site

_DISPLAYS = (cst.List, cst.Tuple, cst.ListComp, cst.GeneratorExp, cst.Integer, cst.Float, cst.UnaryOperation,
             cst.BinaryOperation)


def _imports_pil(site: Site) -> bool:
    return any(v.split(".")[0] == "PIL" for scope in site.conv.analysis.scopes.values()
               for v in scope.imports.values())


def transform(site: Site):
    data = site.value("source_array")
    if data is not None and not isinstance(data, _DISPLAYS) and site.conv.classify(data) is None \
            and _imports_pil(site):
        site.args["source_array"] = site.args["source_array"].with_changes(
            value=site.emit("_mx_image_array({x})", x=data))
        site.fixed("`nd.array(data)` -> `torch.tensor(_mx_image_array(data), dtype=torch.float32)`: a PIL image "
                   "is read as numpy reads it ((H, W, C), or (H, W) for one band), as MXNet does")
    return table.apply(site)
