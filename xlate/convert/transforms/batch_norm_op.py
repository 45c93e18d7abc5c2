"""nd.BatchNorm(x, gamma, beta, moving_mean, moving_var, ...) in a Gluon block's forward ->
`_mx_batch_norm(..., training=self.training)`: the operator normalises with the batch's
statistics (and updates the moving ones in place) exactly while autograd.is_training(), which
a block's forward reads as the module's mode. `**kwargs` (a BatchNorm subclass passing
`**self._kwargs`) stay: the helper takes the operator's own parameters."""
import libcst as cst

from xlate.convert.rulectx import Dynamic, Manual, Site, parse_source
from xlate.convert.table import EQ
from xlate.convert.transforms.is_training import training_flag

SIGNATURE = ("data", "gamma", "beta", "moving_mean", "moving_var", "eps", "momentum", "fix_gamma", "use_global_stats",
             "output_mean_var", "axis", "cudnn_off", "min_calib_range", "max_calib_range")


def transform(site: Site):
    try:
        site.bind(*SIGNATURE)
        stars = False
    except Dynamic:
        stars = True  # *args/**kwargs: the helper binds them at run time
    if not stars:
        for name in SIGNATURE[:5]:
            if not site.has(name):
                raise Manual(f"BatchNorm without `{name}`: the symbol API creates it in the graph; give the arrays "
                             "(or use a BatchNorm layer)")
        if site.literal("output_mean_var", False) is not False:
            raise Manual("output_mean_var=True is not translated: compute torch.var_mean over the other axes")
    flag = parse_source(training_flag(site))
    call = site.node
    args = list(call.args)
    if args:
        args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    args.append(cst.Arg(flag.deep_clone(), keyword=cst.Name("training"), equal=EQ))
    kept = [a for a in args if a.keyword is None or a.keyword.value != "name"]  # names the symbol node only
    return call.with_changes(func=site.emit("_mx_batch_norm"), args=kept)
