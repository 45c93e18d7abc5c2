"""nd.Activation / nd.LeakyReLU by act_type."""
from xlate.convert.rulectx import NOT_LITERAL, Manual, Site
from xlate.convert.transforms import op_args as oa

_ACTIVATION = {"relu": "torch.relu({x})", "sigmoid": "torch.sigmoid({x})", "tanh": "torch.tanh({x})",
               "softrelu": "F.softplus({x})", "softsign": "F.softsign({x})"}
_LEAKY = {"leaky": "F.leaky_relu({x}, {slope})", "elu": "F.elu({x}, {slope})", "selu": "torch.selu({x})",
          "gelu": "F.gelu({x})", "prelu": "F.prelu({x}, {gamma})"}


def transform(site: Site):
    op = site.matched.rsplit(".", 1)[1]
    if op == "LeakyReLU":  # its second positional parameter is gamma, Activation's is act_type
        site.bind("data", "gamma", "act_type", "slope", "lower_bound", "upper_bound")
    else:
        site.bind("data", "act_type")
    table, default = (_ACTIVATION, None) if op == "Activation" else (_LEAKY, "leaky")
    act = site.literal("act_type", default)
    if act is NOT_LITERAL:  # the operator's helper decides at run time
        return oa.run_time(site, site.rule.runtime_for(site.matched))
    if act == "rrelu":
        raise Manual("act_type='rrelu': MXNet returns [output, mask] here and draws its slopes while recording; "
                     "write `F.rrelu(x, lower, upper, training=...)` by hand")
    if act not in table:
        raise Manual(f"act_type {act!r} is not one of MXNet's")
    if site.has("lower_bound") or site.has("upper_bound"):
        raise Manual("lower_bound/upper_bound only apply to rrelu")
    if act == "prelu" and not site.has("gamma"):
        raise Manual("act_type='prelu' needs its `gamma` array")
    if act != "prelu" and site.has("gamma"):
        raise Manual("`gamma` only applies to act_type='prelu'")
    slope = site.value("slope") if site.has("slope") else "0.25"
    holes = {"x": site.value("data"), "slope": slope, "gamma": site.value("gamma")}
    return site.emit(table[act], **{k: v for k, v in holes.items() if "{" + k + "}" in table[act]})
