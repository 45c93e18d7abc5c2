"""ParameterDict methods over a whole block: `net.collect_params().setattr(...)`,
`.zero_grad()`, `.reset_ctx(ctx)`."""
from xlate.convert.rulectx import Manual, Site, Skip
from xlate.convert.transforms import param_evidence

_RECIPES = {
    ".setattr": "`for p in net.parameters(): p.requires_grad = ...`",
    ".zero_grad": "`for p in params: p.grad = None` (or `net.zero_grad()`)",
    ".reset_ctx": "`net.to(device)` on the block that owns them",
}


_DATA_PARALLEL = ("reset_ctx to a list of contexts is data parallelism: a training-loop translation "
                  "(DistributedDataParallel), not a parameter move")

_SIGNATURES = {".setattr": ("params", "name", "value"), ".zero_grad": ("params",), ".reset_ctx": ("params", "ctx")}


def transform(site: Site):
    block = param_evidence.block_of(site)
    original = param_evidence.receiver(site)
    known = param_evidence.facts(site.conv)
    evident = block is not None or param_evidence.is_param_dict(original, known) \
        or param_evidence.is_param(original, known)
    site.bind(*_SIGNATURES[site.matched], evident=evident)  # pytest's monkeypatch.setattr(a, b, c)
    if block is None and site.matched == ".reset_ctx" and param_evidence.is_param(original, known):
        return _one_parameter(site)
    if block is None and site.matched == ".zero_grad" and param_evidence.is_param(original, known):
        site.fixed("`param.zero_grad()` -> `_mx_param_zero_grad(param)`: its gradient zeroed in place, as Gluon's "
                   "(torch's zero_grad belongs to modules and optimizers)")
        return site.emit("_mx_param_zero_grad({p})", p=site.value("params"))
    if block is None:
        if site.matched == ".zero_grad" and not param_evidence.is_param_dict(original, known) \
                and not param_evidence.is_param(original, known):
            raise Skip()  # torch's module.zero_grad() / optimizer.zero_grad() in mixed code
        if param_evidence.is_param_dict(original, known):  # a selection, or a name holding `collect_params()`
            return _selection(site)
        raise Manual(f"`{site.matched}` on a ParameterDict or Parameter xlate cannot trace to its block: "
                     f"{_RECIPES[site.matched]}")
    param_evidence.absorb(site)
    try:
        return _rewrite(site, block)
    except Manual as why:  # left: with its `collect_params()` receiver as it was, not half-converted
        site.status, site.message = "manual", str(why)
        receiver = site.emit("{net}.collect_params()", net=block)
        return site.node.with_changes(func=site.node.func.with_changes(value=receiver))


def _rewrite(site: Site, block):
    if site.matched == ".zero_grad":
        site.fixed("`collect_params().zero_grad()` -> `zero_grad(set_to_none=False)`: gradients become zeros, "
                   "as in MXNet (torch's default sets them to None)")
        return site.emit("{net}.zero_grad(set_to_none=False)", net=block)
    if site.matched == ".reset_ctx":
        ctx = site.value("ctx")
        if param_evidence.single_device(site, "ctx") == "yes":
            return site.emit("{net}.to({ctx})", net=block, ctx=ctx)
        # a list of contexts, or a value that may be one: as initialize(ctx=...) does (MX521, MX560)
        if site.conv.options.get("multi_device") == "distributed":
            site.fixed("`collect_params().reset_ctx(ctx)` -> `_mx_to_ctx_distributed(net, ctx)`: one process per "
                       "context (torchrun), the model on this process's device (MX560)")
            return site.emit("_mx_to_ctx_distributed({net}, {ctx})", net=block, ctx=ctx)
        site.fixed("`collect_params().reset_ctx(ctx)` -> `_mx_to_ctx(net, ctx)`: the model on the device, or on the "
                   "first of a list of them, where split_and_load puts every slice (MX560)")
        return site.emit("_mx_to_ctx({net}, {ctx})", net=block, ctx=ctx)
    name, value = site.literal("name"), site.literal("value")
    if name in ("lr_mult", "wd_mult"):
        site.fixed(f"setattr({name!r}, ...) -> recorded on each parameter as `_mx_{name}`, which `_mx_Trainer` "
                   f"reads as Gluon's optimizer does (a torch.optim optimizer would ignore it)")
        return site.emit("_mx_param_attr({net}, {name}, {value})", net=block, name=site.value("name"),
                         value=site.value("value"))
    if name != "grad_req":
        raise Manual(f"setattr({site.code(site.value('name'))}, ...): lr_mult / wd_mult become optimizer "
                     "parameter groups in PyTorch (`torch.optim.SGD([{'params': ..., 'lr': ...}])`)")
    if value == "add":
        site.fixed("setattr('grad_req', 'add') -> `_mx_collect_params(net).setattr(...)`: each parameter keeps "
                   "its gradient across steps (`_mx_Trainer.zero_grad` leaves it, as MXNet's backward adds to it)")
        return site.emit("_mx_collect_params({net}).setattr('grad_req', 'add')", net=block)
    if value not in ("null", "write"):
        raise Manual("grad_req other than a literal 'null', 'write' or 'add'")
    return site.emit(f"{{net}}.requires_grad_({value == 'write'})", net=block)


def _selection(site: Site):
    """`net.collect_params('regex').setattr(...)`, or the method on a name assigned `net.collect_params()`
    (autogluon's `all_model_params.zero_grad()`): the dict is `_mx_collect_params(net, ...)` (MX160), whose
    setattr (grad_req, lr_mult, wd_mult), zero_grad and reset_ctx are Gluon's."""
    if site.matched == ".reset_ctx" and param_evidence.single_device(site, "ctx") == "no":
        raise Manual(_DATA_PARALLEL)
    if site.matched != ".setattr":  # zero_grad / reset_ctx of the ParameterDict itself
        site.fixed(f"`{site.matched}()` on the ParameterDict `_mx_collect_params` gives (held by a name, or a "
                   "selection): Gluon's method, kept (zero_grad leaves zeros, as MXNet, where torch's sets None; "
                   "reset_ctx moves each tensor in place)")
        return site.node
    name = site.literal("name")
    if name not in ("grad_req", "lr_mult", "wd_mult"):
        raise Manual(f"setattr({site.code(site.value('name'))}, ...) on a selection: xlate translates grad_req, "
                     "lr_mult and wd_mult")
    site.fixed(f"setattr({name!r}, ...) on the selected parameters, as Gluon's ParameterDict sets it "
               "(lr_mult / wd_mult read by `_mx_Trainer`)")
    return site.node


def _one_parameter(site: Site):
    """`p.reset_ctx(ctx)` on one parameter (CenterNet's `for v in net.collect_params().values()`):
    moved in place, so the module that holds it sees it on the device."""
    if param_evidence.single_device(site, "ctx") == "no":
        raise Manual(_DATA_PARALLEL)
    site.review("`param.reset_ctx(ctx)` -> `_mx_param_reset_ctx(param, ctx)`: the parameter (and its gradient) "
                "moved to the device in place. Gluon's running statistics are parameters, torch's are buffers "
                "that a loop over `parameters()` leaves where they are: `net.to(device)` moves both")
    return site.emit("_mx_param_reset_ctx({p}, {ctx})", p=site.value("params"), ctx=site.value("ctx"))
