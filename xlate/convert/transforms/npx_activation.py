"""npx.activation(data, act_type) and npx.leaky_relu(data, gamma, act_type='leaky', slope=0.25):
the operators' helpers (`_mx_activation`, `_mx_leaky_relu`), or torch's function where the
type is a literal (N7.20, N7.21)."""
from xlate.convert.rulectx import Site
from xlate.convert.transforms import op_args as oa

_ACTIVATION = {"relu": "torch.relu({x})", "sigmoid": "torch.sigmoid({x})", "tanh": "torch.tanh({x})",
               "softrelu": "F.softplus({x})", "softsign": "F.softsign({x})"}


def transform(site: Site):
    op = site.matched.rsplit(".", 1)[1]
    if op == "activation":
        site.bind("data", "act_type", "out")
    else:
        site.bind("data", "gamma", "act_type", "slope", "lower_bound", "upper_bound", "out")
    x = oa.required(site, "data")
    if op == "activation":
        act = site.literal("act_type")
        if act in _ACTIVATION:
            return site.emit(_ACTIVATION[act], x=x)
        return oa.run_time(site, "_mx_activation")
    act = site.literal("act_type", "leaky")
    if act == "leaky" and not site.has("gamma"):
        return site.emit("F.leaky_relu({x}, {s})", x=x, s=site.value("slope") if site.has("slope") else "0.25")
    return oa.run_time(site, "_mx_leaky_relu")
