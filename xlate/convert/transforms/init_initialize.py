"""`net.initialize(init, ctx, verbose, force_reinit)` (a Block, or `net.collect_params()`) ->
`_mx_initialize(net, init)`, then `net.to(ctx)` for a single context, `_mx_to_ctx(net, ctx)` for a list
of them (Note [one process, several devices])."""
import libcst as cst

from xlate.convert.rulectx import Manual, Site, Skip, dotted_name
from xlate.convert.transforms import init_callables, param_evidence


_SIGNATURE = ("block", "init", "ctx", "verbose", "force_reinit")


def _block(site: Site):
    original = param_evidence.receiver(site)
    known = param_evidence.facts(site.conv)
    kind = param_evidence.block_kind(site, original)
    if kind == "no":
        raise Skip()  # `self.initialize()` of a class of this file that is no Gluon block
    site.bind(*_SIGNATURE, evident=kind == "yes" or param_evidence.is_collect_call(original))
    if param_evidence.is_collect_call(original):
        block = param_evidence.block_of(site)
        if block is None:
            return PARAM_DICT  # a `collect_params('regex')` selection
        param_evidence.absorb(site)
        return block
    if param_evidence.is_param_dict(original, known) or (
            isinstance(original, (cst.Name, cst.Attribute)) and site.conv.kinds_of(original) & _PARAM_DICTS):
        return PARAM_DICT
    if kind == "unknown" and (not _initializer_like(site) or site.conv.analysis.receives_mxnet):
        # decided at run time (_untyped); in a module that imports nothing of MXNet an `initialize` is
        # anybody's (Note [modules that receive MXNet values])
        return None
    return site.value("block")


PARAM_DICT = object()  # _block's answer for a ParameterDict it cannot trace to one block
_PARAM_DICTS = {"mxnet.gluon.ParameterDict", "mxnet.gluon.parameter.ParameterDict"}  # one the program makes (MX188)


def _param_dict(site: Site):
    """`params.initialize(...)` on a ParameterDict whose block xlate cannot name (a selection
    `collect_params('conv')`, a name bound to several blocks' dicts in turn): the converted dict knows its
    block at run time, `_mx_initialize_method(params, ...)` draws its parameters as Gluon does."""
    call = site.node
    what = site.code(site.value("block")).strip()
    first = cst.Arg(site.value("block"), comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
                    if call.args else cst.MaybeSentinel.DEFAULT)
    site.fixed(f"initialize() on the ParameterDict `{what}` -> `_mx_initialize_method({what}, ...)`: its parameters "
               "(only those) drawn as their block's initialize() draws them, found at run time")
    return call.with_changes(func=site.emit("_mx_initialize_method"), args=[first, *call.args])


def _untyped(site: Site):
    """`net.initialize(ctx=self.ctx, init=self.init)` (gluonts' trainer) where neither `net` nor
    the initializer says it is a Gluon block: `_mx_initialize_method(net, ...)` with the call's own
    arguments, which initialises a torch module as Gluon does and leaves any other object to its
    own initialize."""
    call = site.node
    what = site.code(site.value("block")).strip()
    first = cst.Arg(site.value("block"), comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
                    if call.args else cst.MaybeSentinel.DEFAULT)
    site.review(f"could not tell whether `{what}` is a Gluon block -> `_mx_initialize_method({what}, ...)`, decided "
                "at run time: a torch module is initialised as Gluon's Block.initialize and moved to `ctx`, any "
                "other object calls its own initialize")
    return call.with_changes(func=site.emit("_mx_initialize_method"), args=[first, *call.args])


def _initializer_like(site: Site) -> bool:
    """The `init` argument is absent, a name string, None, or an `mx.init.X(...)` call (directly
    or through a variable assigned one): what Gluon's initialize() takes."""
    original = [a for a in site.original.args if a.keyword is None or a.keyword.value == "init"]
    if not original or (original[0].keyword is None and site.value("init") is None):
        return True
    node = original[0].value
    if site.evaluate(node) is None or isinstance(site.evaluate(node), str):
        return True
    return param_evidence.resolves_to(site, node, "mxnet.initializer.")


_PARAM_SIGNATURE = ("param", "init", "ctx", "default_init", "force_reinit")


def _param_initialize(site: Site):
    """`p.initialize(init, ctx, default_init, force_reinit)` on one Parameter ->
    `_mx_param_initialize(p, ...)` with the call's own arguments."""
    site.bind(*_PARAM_SIGNATURE)
    call = site.node
    first = cst.Arg(site.value("param"), comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
                    if call.args else cst.MaybeSentinel.DEFAULT)
    site.fixed("`param.initialize(...)` on one Parameter -> `_mx_param_initialize(param, ...)`: drawn with `init`, "
               "else its own initializer, else the default, unless already initialised (force_reinit redraws it), "
               "and moved to `ctx`")
    return call.with_changes(func=site.emit("_mx_param_initialize"), args=[first, *call.args])


def transform(site: Site):
    original = param_evidence.receiver(site)
    if original is not None and not param_evidence.is_collect_call(original) \
            and param_evidence.is_param(original, param_evidence.facts(site.conv)):
        return _param_initialize(site)
    block = _block(site)
    if block is PARAM_DICT:
        return _param_dict(site)
    if block is None:
        return _untyped(site)
    has_ctx = site.value("ctx") is not None and site.literal("ctx") is not None
    devices = param_evidence.single_device(site, "ctx") if has_ctx else "none"
    name = site.literal("init")
    init = site.value("init")
    if isinstance(name, str):
        init = init_callables.from_string(site, name)
    args = [cst.Arg(block)] + ([cst.Arg(init)] if init is not None and name is not None else [])
    force = site.literal("force_reinit", False)
    if force is not False:
        args.append(cst.Arg(site.value("force_reinit"), keyword=cst.Name("force_reinit"),
                            equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))))
    call = site.emit("_mx_initialize()").with_changes(args=[
        a.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))) for a in args[:-1]] + args[-1:])
    dropped = " (verbose printing dropped)" if site.literal("verbose", False) is not False else ""
    if not has_ctx:
        site.fixed("initialize() -> _mx_initialize(): Gluon's initializers per parameter, the global one "
                   "elsewhere" + dropped)
        return call
    if devices == "yes":
        site.fixed("initialize(ctx=) -> _mx_initialize() then .to(device)" + dropped)
        move_form = "{net}.to({ctx})"
    elif site.conv.options.get("multi_device") == "distributed":
        site.fixed("initialize(ctx=) -> _mx_initialize() then `_mx_to_ctx_distributed(net, ctx)`: one process per "
                   "context (torchrun), the model on this process's device and rank 0's values copied to every "
                   "process before the first forward (MX560)" + dropped)
        move_form = "_mx_to_ctx_distributed({net}, {ctx})"
    else:  # a list of contexts (data parallelism), or a value that may be one
        site.fixed("initialize(ctx=) -> _mx_initialize() then `_mx_to_ctx(net, ctx)`: the model on the device, or on "
                   "the first of a list of them, where split_and_load puts every slice (MX560)" + dropped)
        move_form = "_mx_to_ctx({net}, {ctx})"
    statement = site.conv.statement_of(site.original)
    if statement is None or not dotted_name(block):
        return site.emit(move_form.replace("{net}", "{call}"), call=call, ctx=site.value("ctx"))
    move = site.emit(move_form, net=block, ctx=site.value("ctx"))
    site.conv.replace_statement(statement, [cst.Expr(call), cst.Expr(move)])
    return call
