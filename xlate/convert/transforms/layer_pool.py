"""Gluon Max/AvgPool{n}D -> nn.Max/AvgPool{n}d; Global pools -> nn.Adaptive*Pool{n}d(1)."""
from xlate.convert.rulectx import Manual, Site
from xlate.convert.transforms import layer_args as la

_LAYOUTS = {1: "NCW", 2: "NCHW", 3: "NCDHW"}
# Gluon's positional order after `padding` differs by class (the rule's signature makes the
# rest keyword-only and collects positionals in *more)
_MORE = {("Max", 1): ("layout", "ceil_mode"), ("Max", 2): ("layout", "ceil_mode"), ("Max", 3): ("ceil_mode", "layout"),
         ("Avg", 1): ("layout", "ceil_mode", "count_include_pad"),
         ("Avg", 2): ("ceil_mode", "layout", "count_include_pad"),
         ("Avg", 3): ("ceil_mode", "layout", "count_include_pad")}


def transform(site: Site):
    la.naming(site)
    name = site.matched.rsplit(".", 1)[1]  # MaxPool2D, GlobalAvgPool1D, ...
    dims = int(name[-2])
    if not name.startswith("Global"):
        _bind_more(site, _MORE[name[:3], dims])
    la.layout(site, _LAYOUTS[dims])
    if name.startswith("Global"):
        kind = name[len("Global"):-len("Pool1D")]  # Max / Avg
        return la.record(site, site.emit(f"nn.Adaptive{kind}Pool{dims}d(1)"), la.keeps_channels)
    kind = name[:3]
    ceil = la.choice(site, "ceil_mode", False, (True, False),
                     "write ceil_mode=True or False (the output size and MXNet's extra last window depend on it)")
    pool_size = site.value("pool_size") if site.has("pool_size") else "2"  # Gluon's default, per axis
    args = [(None, pool_size)]
    if site.has("strides") and site.literal("strides") is not None:  # None: the pool size, in both
        args.append(("stride", site.value("strides")))
    args += la.passed(site, ("padding", "padding"))
    if ceil:
        args.append(("ceil_mode", "True"))
    if kind == "Avg" and site.has("count_include_pad"):
        if site.literal("count_include_pad") is not True:  # True is the default in both (layers.md 5.4)
            args.append(("count_include_pad", site.value("count_include_pad")))
    if ceil and kind == "Avg":
        _review_avg_ceil(site, dims)
    if ceil:  # MXNet's 'full' convention keeps a window torch's ceil_mode drops
        return la.record(site, site.verbatim(), la.keeps_channels)
    return la.record(site, la.call(site, f"nn.{kind}Pool{dims}d", args), la.keeps_channels)


def _bind_more(site: Site, names: tuple) -> None:
    if len(site.varargs) > len(names):
        raise Manual(f"too many positional arguments for {site.matched.rsplit('.', 1)[1]}")
    for name, arg in zip(names, site.varargs):
        if site.has(name):
            raise Manual(f"`{name}` is given twice")
        site.args[name] = arg
    if site.has("count_include_pad") and "count_include_pad" not in names:
        raise Manual("MaxPool has no `count_include_pad`")


def _review_avg_ceil(site: Site, dims: int) -> None:
    why = []
    if dims == 3:
        why.append("MXNet 1.9.1's 3-D average gives NaN for some windows it adds past the input (the "
                   "translation gives 0 there; a model that runs in MXNet never meets them)")
    if site.literal("count_include_pad", True) is not False:
        why.append("MXNet's MKLDNN CPU backend back-propagates 1/kernel_size through a last window that runs "
                   "past the padded input while its forward divides by the clipped count (the translation, "
                   "like MXNet's native backend, uses the clipped count in both)")
    if why:
        site.review("AvgPool with ceil_mode=True: " + "; ".join(why))
