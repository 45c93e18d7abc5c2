"""Gluon Parameter's private state read, written or called on an evident Parameter (MX178, MX180, MX179): `param._data`,
`param._ctx_map`, `param._var`, `param._grad`, `param._reduce()`, `param._load_init(...)`.

MXFusion overrides a block's parameter with a computed array by writing into these
(`param._data[dev_id] = val`, `param._var = val`) and reads a parameter's value with `_reduce()`.
A translated parameter is a torch tensor (an `nn.Parameter` of a module), which has none of them:
the line raised AttributeError at run time and was reported nowhere. What it does has no one
spelling in torch (replacing a module's parameter by a computed tensor is `del module.weight;
module.weight = value`), so each such line is reported for a human, on a receiver evidently a
Parameter (a ParameterDict's value or item, `self.params.get(...)`); on anything else the
attribute is that object's own and stays."""
import libcst as cst

from xlate.convert.rulectx import Manual, Skip, Site
from xlate.convert.transforms import param_evidence

_HINTS = {"._data": "its value is the tensor itself (`param.data` for the storage)",
          "._grad": "`param.grad`", "._reduce": "the tensor itself (`param.detach()`)",
          "._var": "no symbol exists in torch", "._ctx_map": "a tensor has one device (`param.device`)",
          "._ctx_list": "a tensor has one device (`param.device`)",
          "._load_init": "`param.data.copy_(value)` (the device: `.to(...)`)",
          "._check_and_get": "the tensor itself"}


def transform(site: Site):
    node = param_evidence.receiver(site)
    if node is None and isinstance(site.original, cst.Assign):  # `param._var = val` (MX180)
        node = site.original.targets[0].target.value
    if node is None or not param_evidence.is_param(node, param_evidence.facts(site.conv)):
        raise Skip()
    if site.matched == "._data" and id(site.original) in site.conv.none_tests:
        # Note [whether a parameter is initialised]
        site.fixed("`param._data` tested against None (whether Gluon initialised the parameter) -> "
                   "`_mx_param_arrays(param)`: [the tensor] once initialize() drew it or a load filled it, else None")
        return site.emit("_mx_param_arrays({p})", p=site.receiver)
    raise Manual(f"`{site.code(node)}{site.matched}` is Gluon Parameter's private state; a translated parameter "
                 f"is a torch tensor, which has none: {_HINTS.get(site.matched, 'port it by hand')}")


# Note [whether a parameter is initialised]
# Gluon keeps a Parameter's arrays in `_data`, None until `initialize()` draws them or a load fills them.
# Detection packages override a network's `initialize` to keep what a pretrained base loaded: `for param in
# self.collect_params().values(): if param._data is not None: param.reset_ctx(ctx) else: param.initialize(...)`
# (GluonCV's estimators, gluon-faster-rcnn; sockeye asserts it before copying parameters). A translated
# parameter is filled when it is made, so the runtime marks the ones Gluon would hold as initialised
# (`_mx_ready`: drawn by a translated initialize(), loaded by load_parameters, a converted model zoo's);
# tested against None, `param._data` is `_mx_param_arrays(param)`, a list of the one tensor then, else None.
