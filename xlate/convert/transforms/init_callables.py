"""Building blocks of the initializer rules (not a transform itself): MXNet initializers
named by string, and the parameter name of an emitted `lambda w: ...`."""
import re

import libcst as cst

from xlate.convert.rulectx import Manual, Site

# mx.init.create(name): the registry lower-cases the name; each entry is the default-argument
# translation of that class (see the MX51x rules for the reasons).
BY_NAME = {
    "zero": "torch.nn.init.zeros_",
    "zeros": "torch.nn.init.zeros_",
    "one": "torch.nn.init.ones_",
    "ones": "torch.nn.init.ones_",
    "uniform": "lambda w: torch.nn.init.uniform_(w, -0.07, 0.07)",
    "normal": "lambda w: torch.nn.init.normal_(w, 0.0, 0.01)",
    "xavier": "torch.nn.init.xavier_uniform_",
    "msraprelu": "lambda w: torch.nn.init.xavier_normal_(w, gain=(2 / (1 + 0.25 ** 2)) ** 0.5)",
    "orthogonal": "_mx_orthogonal()",
    "bilinear": "_mx_bilinear()",
    "lstmbias": "_mx_lstm_bias()",
}


def from_string(site: Site, name: str) -> cst.BaseExpression:
    """The init callable for an initializer given by name (`initialize('xavier')`,
    `weight_initializer='zeros'`); Manual for names that need arguments or are custom."""
    target = BY_NAME.get(name.lower())
    if target is None:
        raise Manual(f"initializer {name!r} by name: not one of MXNet's argument-free initializers; "
                     "pass the init function itself")
    return site.emit(target)


def lambda_param(site: Site) -> str:
    """`w`, unless an argument of the call already uses that name (`Uniform(w)`)."""
    used = set()
    for arg in site.args.values():
        used |= set(re.findall(r"\b\w+\b", site.code(arg.value)))
    for name in ("w", "t", "tensor", "w_"):
        if name not in used:
            return name
    raise Manual("the arguments use every name xlate would give the lambda's parameter")
