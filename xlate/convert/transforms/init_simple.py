"""`mx.init.Uniform / Normal / Constant / Zero / One()` -> an init function of the tensor.

A literal argument is written into the lambda; any other expression is bound as a default
argument (`lambda w, scale=s: ...`), evaluated once where the initializer is created, as
MXNet's constructor does: a bare name in the body would be looked up at each call (and in a
loop building several initializers, every one would see the last value).
"""
from xlate.convert.rulectx import Site

_BODIES = {
    "Uniform": ("scale", "0.07", "torch.nn.init.uniform_(w, -{v}, {v})"),
    "Normal": ("sigma", "0.01", "torch.nn.init.normal_(w, 0.0, {v})"),
    "Constant": ("value", None, "torch.nn.init.constant_(w, {v})"),
}


def number(site: Site, name: str) -> bool:
    value = site.literal(name)
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def init_lambda(site: Site, body: str, params: dict) -> object:
    """`lambda w: body` with each MXNet parameter in `params` (name -> default source) inlined
    when it is a literal number and bound as a default argument otherwise."""
    defaults, holes = [], {}
    for name, default in params.items():
        if not site.has(name):
            holes[name] = default
        elif number(site, name):
            holes[name] = site.value(name)
        else:
            defaults.append(name)
            holes[name] = name
    head = "lambda w" + "".join(f", {n}={{_{n}}}" for n in defaults)
    nodes = {f"_{n}": site.value(n) for n in defaults}
    return site.emit(f"{head}: {body}", **holes, **nodes)


def transform(site: Site):
    kind = site.matched.rsplit(".", 1)[1]
    if kind == "Zero":
        return site.emit("torch.nn.init.zeros_")
    if kind == "One":
        return site.emit("torch.nn.init.ones_")
    name, default, body = _BODIES[kind]
    if kind == "Constant" and not number(site, "value"):
        site.fixed("Constant(value) -> _mx_constant(value): a scalar or an array broadcast to the parameter")
        return site.emit("_mx_constant({v})", v=site.value("value"))
    return init_lambda(site, body.replace("{v}", "{" + name + "}"), {name: default})
