"""nd.Activation / nd.LeakyReLU by act_type."""
from xlate.convert.rulectx import Manual, Site

_ACTIVATION = {"relu": "torch.relu({x})", "sigmoid": "torch.sigmoid({x})", "tanh": "torch.tanh({x})",
               "softrelu": "F.softplus({x})", "softsign": "F.softsign({x})"}
_LEAKY = {"leaky": "F.leaky_relu({x}, {slope})", "elu": "F.elu({x}, {slope})", "selu": "torch.selu({x})",
          "gelu": "F.gelu({x})"}


def transform(site: Site):
    op = site.matched.rsplit(".", 1)[1]
    table, default = (_ACTIVATION, None) if op == "Activation" else (_LEAKY, "leaky")
    act = site.literal("act_type", default)
    if act not in table:
        raise Manual(f"act_type {act!r} is not translated (needs a literal act_type)")
    if site.has("gamma") or site.has("lower_bound") or site.has("upper_bound"):
        raise Manual("prelu/rrelu parameters are not translated")
    slope = site.value("slope") if site.has("slope") else "0.25"
    holes = {"x": site.value("data"), "slope": slope}
    return site.emit(table[act], **{k: v for k, v in holes.items() if "{" + k + "}" in table[act]})
