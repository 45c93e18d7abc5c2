"""DCN v2 (ModulatedDeformableConvolution, layer and operator) -> its helper with MXNet's signature,
reviewed: MXNet's CPU build has no backward for it, so the gradients are unmeasured (Note [deformable
sampling] in xlate/runtime/deform.py)."""
from xlate.convert.rulectx import Site


def transform(site: Site):
    site.review("DCN v2 -> its helper: outputs measured equal to MXNet's CPU forward; MXNet's CPU build has no "
                "backward for it, so the gradients (autograd's of the same sampling) are unmeasured")
    return site.verbatim()
