"""nd.Dropout(x, p, mode, axes) in a Gluon block's forward -> `F.dropout(x, p, training=self.training)`:
MXNet's mode='training' drops only while autograd.is_training(), which a block's forward reads
as the module's mode; mode='always' drops whenever it runs; a mask shared along `axes` ->
`_mx_dropout`."""
from xlate.convert.rulectx import NOT_LITERAL, Manual, Site
from xlate.convert.transforms import op_args as oa
from xlate.convert.transforms.is_training import training_flag


def transform(site: Site):
    x = oa.required(site, "data")
    mode = site.literal("mode", "training")
    if mode not in ("training", "always", NOT_LITERAL):
        raise Manual(f"Dropout mode={mode!r} is not one of MXNet's")
    training = "True" if mode == "always" else training_flag(site)
    site.review("same distribution and scaling (kept units times 1 / (1 - p)), but the random masks differ "
                "from MXNet's")
    axes = site.literal("axes", ())
    p = site.value("p") if site.has("p") else "0.5"
    if axes in ((), []) and mode != NOT_LITERAL:
        return oa.call(site, "F.dropout", [(None, x), (None, p), ("training", training)])
    args = [(None, x)] + oa.passed(site, "p", "mode", "axes") + [("training", training)]
    return oa.call(site, "_mx_dropout", args)
