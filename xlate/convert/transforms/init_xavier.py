"""`mx.init.Xavier(...)` / `mx.init.MSRAPrelu(...)` -> torch's xavier / kaiming functions where
they draw from the same distribution, `_mx_xavier` otherwise (see rules MX512, MX513)."""
from xlate.convert.rulectx import NOT_LITERAL, Manual, Site
from xlate.convert.transforms.init_simple import init_lambda

_RND = ("uniform", "gaussian")
_FACTOR = ("avg", "in", "out")


def _check(value, allowed, what):
    if value is not NOT_LITERAL and value not in allowed:
        raise Manual(f"{what}={value!r}: MXNet raises for it when the initializer runs")


def _helper(site: Site, rnd, factor, magnitude):
    return site.emit("_mx_xavier({r}, {f}, {m})", r=rnd, f=factor, m=magnitude)


def _xavier(site: Site):
    rnd, factor = site.literal("rnd_type", "uniform"), site.literal("factor_type", "avg")
    _check(rnd, _RND, "rnd_type")
    _check(factor, _FACTOR, "factor_type")
    magnitude = site.literal("magnitude", 3)
    if rnd is NOT_LITERAL or factor is NOT_LITERAL or factor != "avg":
        return _helper(site, site.value("rnd_type") or '"uniform"', site.value("factor_type") or '"avg"',
                       site.value("magnitude") or "3")
    if rnd == "uniform":
        if magnitude == 3 and not isinstance(magnitude, bool):
            return site.emit("torch.nn.init.xavier_uniform_")
        return init_lambda(site, "torch.nn.init.xavier_uniform_(w, gain=({magnitude} / 3) ** 0.5)",
                           {"magnitude": "3"})
    return init_lambda(site, "torch.nn.init.xavier_normal_(w, gain={magnitude} ** 0.5)", {"magnitude": "3"})


def _msra(site: Site):
    factor = site.literal("factor_type", "avg")
    _check(factor, _FACTOR, "factor_type")
    if factor is NOT_LITERAL:
        slope = site.value("slope") or "0.25"
        return site.emit("_mx_xavier('gaussian', {f}, 2.0 / (1 + {s} ** 2))", f=site.value("factor_type"), s=slope)
    if factor == "avg":
        return init_lambda(site, "torch.nn.init.xavier_normal_(w, gain=(2 / (1 + {slope} ** 2)) ** 0.5)",
                           {"slope": "0.25"})
    return init_lambda(site, f"torch.nn.init.kaiming_normal_(w, a={{slope}}, mode='fan_{factor}', "
                             "nonlinearity='leaky_relu')", {"slope": "0.25"})


def transform(site: Site):
    return _msra(site) if site.matched.endswith("MSRAPrelu") else _xavier(site)
