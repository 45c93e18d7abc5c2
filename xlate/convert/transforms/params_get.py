"""`self.w = self.params.get('w', shape=..., init=...)` -> `self.w = _mx_parameter(shape, init=...)`;
`self.c = self.params.get_constant('c', value)` -> a buffer; `blk.params.get('weight')` of an
existing layer -> `blk.weight`."""
import libcst as cst

from xlate.convert.rulectx import NOT_LITERAL, Manual, Site, Skip

# Gluon layer parameter names whose torch attribute differs
_TORCH_NAME = {"gamma": "weight", "beta": "bias", "alpha": "weight"}
GET_SIGNATURE = ("params", "name", "shape", "init", "allow_deferred_init", "grad_req", "dtype", "differentiable",
                 "lr_mult", "wd_mult", "stype", "grad_stype")
# per-parameter optimizer settings: PyTorch puts them in the optimizer's parameter groups
_OPTIMIZER = ("lr_mult", "wd_mult")


def _receiver_is_params(site: Site) -> bool:
    return isinstance(site.receiver, cst.Attribute) and site.receiver.attr.value == "params"


def _own_params_attribute(site: Site) -> bool:
    """`self.params` of a class that assigns `self.params` itself (a config's dict): Gluon's Block
    has `params` as a read-only property, so no block does."""
    receiver = site.receiver
    if not (isinstance(receiver.value, cst.Name) and receiver.value.value == "self"):
        return False
    scope = site.conv.analysis.scopes.get(site.conv.scopes[-1])
    while scope is not None and not scope.is_class:
        scope = scope.parent
    return scope is not None and "params" in scope.attrs


def transform(site: Site):
    if not _receiver_is_params(site) or _own_params_attribute(site):
        raise Skip()  # dict.get and friends
    if site.matched == ".get_constant":
        site.bind("params", "name", "value")
    else:
        site.bind(*GET_SIGNATURE)
    block = site.receiver.value
    name = site.literal("name")
    assign = _assignment(site)
    if site.matched == ".get_constant" and assign is not None:
        # a buffer is reached by its attribute; Gluon's own name (`'anchor_%d' % i`, `'const'` kept in
        # `self.position_weight`) only names the checkpoint entry, which convert-weights maps by
        # structure: Gluon 1.x hands hybrid_forward its parameters by attribute (`_reg_params`, keyed
        # in Block.__setattr__)
        return _constant(site, block, assign, assign)
    literal = isinstance(name, str) and name.isidentifier()
    if site.matched == ".get" and site.has("shape") and (not literal or assign is None):
        return _unattached(site, name if literal else None)
    if not literal:
        raise Manual("the parameter name is not a literal identifier: declare the nn.Parameter by hand")
    if site.matched == ".get_constant":
        return _constant(site, block, name, assign)
    deferred = site.literal("allow_deferred_init", False)
    if not site.has("shape") and not deferred:
        if len(site.args) > 2:  # the receiver and the name
            raise Manual("`params.get` without `shape=` creates a parameter of unknown shape: give its shape")
        torch_name = _TORCH_NAME.get(name, name)
        site.review(f"`params.get({name!r})` looks up an existing parameter -> `.{torch_name}`; Gluon prefixes "
                    "the name with the block's, so check it is this block's own parameter")
        return site.emit(f"{{b}}.{torch_name}", b=block)
    if assign is None:
        raise Manual(f"assign `params.get({name!r}, ...)` to `self.{name}` so the translation can register it "
                     "under the same name")
    declared = declare(site, f"`params.get({name!r}, ...)`")
    if assign != name and site.message is None:
        # Gluon 1.x keeps a block's parameter under its attribute (`_reg_params`), which names it in
        # hybrid_forward's arguments and in save_parameters' file as well (Note [parameters in
        # **kwargs]); only the full name, Gluon's `collect_params()` key, ends in `name`
        site.fixed(f"`self.{assign} = params.get({name!r}, ...)` -> `_mx_parameter(...)` registered as `{assign}`, "
                   f"the attribute, as Gluon's hybrid_forward and save_parameters name it (its full name ends in "
                   f"`{name}`)")
    return declared


def _unattached(site: Site, name):
    """`params.get(...)` with a shape whose value no attribute of the block takes here: a local
    handed to child blocks (sockeye's shared embedding weight), `setattr(self, 'factor%d_weight' %
    i, ...)`. The nn.Parameter is registered by whatever module holds it as an attribute, under that
    attribute's name, which is also how Gluon's hybrid_forward and save_parameters name it."""
    what = f"`params.get({name!r}, ...)`" if name else "`params.get(<name computed at run time>, ...)`"
    declared = declare(site, what)
    stmt = site.conv.statement_stack[-1] if site.conv.statement_stack else None
    if name and stmt is not None and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Expr) \
            and stmt.body[0].value is site.original and isinstance(site.receiver.value, cst.Name):
        # `self.params.get('w', shape=...)` on a line of its own registers it; a later lookup
        # (`self.params.get('w')`) is `self.w`
        target = cst.Attribute(site.receiver.value.deep_clone(), cst.Name(name))
        site.conv.replace_statement(stmt, [cst.Assign([cst.AssignTarget(target)], declared)])
        site.fixed(f"{what} on a line of its own -> `{site.code(site.receiver.value)}.{name} = _mx_parameter(...)`: "
                   f"registered under its name, where a later `params.get({name!r})` finds it")
        return site.node
    review_too(site, f"{what} not held by an attribute here -> `_mx_parameter(...)`: torch registers it in the "
                     "module that holds it as an attribute (`setattr(self, ...)`, a child it is handed to); one no "
                     "module holds is not among any `parameters()` (Gluon's collect_params() has it); and a name "
                     "this block already holds would give that same parameter in Gluon, a new one here")
    return declared


def review_too(site: Site, message: str) -> None:
    """A review item at the site, after any that `declare` left there (`grad_stype=`)."""
    earlier = site.message if site.status == "review" else None
    site.review(f"{earlier}; {message}" if earlier else message)


def declare(site: Site, what: str):
    """`_mx_parameter(shape, init=..., dtype=..., requires_grad=...)` for a Gluon parameter
    declared with its keyword arguments bound (`params.get`, `gluon.Parameter`)."""
    deferred = site.literal("allow_deferred_init", False)
    shape = site.literal("shape")
    if deferred is NOT_LITERAL:
        raise Manual("`allow_deferred_init=` is not a literal: write True or False")
    if shape is None or (shape is not NOT_LITERAL and _deferred(shape)):
        site.fixed(f"{what} with its shape deferred -> `_mx_parameter(...)`, a torch "
                   "UninitializedParameter that `param.shape = ...` (`_mx_set_shape`) materialises")
    for arg in _OPTIMIZER:
        if site.has(arg) and site.literal(arg) not in (1, 1.0):
            raise Manual(f"`{arg}=` has no per-parameter counterpart in PyTorch: use an optimizer parameter group")
    if site.literal("stype", "default") != "default":
        raise Manual("`stype=` (sparse storage of the parameter) does not translate")
    if site.literal("grad_stype", "default") != "default":
        # the storage of the gradient, not its values; MXNet's optimizers then update lazily
        site.review(f"{what} with `grad_stype={site.code(site.value('grad_stype'))}` -> a dense gradient: the same "
                    "values, but MXNet's optimizers (lazy_update) update only the rows a batch touches, where "
                    "torch's apply momentum and weight decay to every row")
    holes = {"shape": site.value("shape") if site.has("shape") else cst.Name("None")}
    extra = ""
    if site.has("init") and site.literal("init", None) is not None:
        holes["init"] = _initializer(site, site.value("init"))
        extra += ", init={init}"
    if site.has("dtype"):
        from xlate.convert.table import convert_dtype
        holes["dtype"] = convert_dtype(site, site.value("dtype"))
        extra += ", dtype={dtype}"
    differentiable = site.literal("differentiable", True)
    if differentiable not in (True, False):
        # Gluon's grad_req setter makes a parameter that is not differentiable 'null' whatever
        # grad_req says (NasBatchNorm's `differentiable=scale`): decided at run time, as Gluon does
        differentiable = cst.Call(cst.Name("bool"), [cst.Arg(site.value("differentiable").deep_clone())])
    trained = _trained(site)
    if trained is False or differentiable is False:
        extra += ", requires_grad=False"
    elif trained is not True or differentiable is not True:
        both = [t for t in (differentiable, trained) if t is not True]
        if len(both) == 2 and site.code(both[0]) == site.code(both[1]):
            both = both[:1]  # `differentiable=scale` beside `'write' if scale else 'null'`: one test
        holes["trained"] = both[0] if len(both) == 1 else cst.BooleanOperation(both[0], cst.And(), _grouped(both[1]))
        extra += ", requires_grad={trained}"
    return site.emit("_mx_parameter({shape}" + extra + ")", **holes)


def _trained(site: Site):
    """Whether grad_req lets the parameter train: True, False, or (`'write' if scale else
    'null'`) the condition that says so."""
    if not site.has("grad_req"):
        return True
    node = site.value("grad_req")
    value = site.evaluate(node)
    if value in ("write", "null"):
        return value == "write"
    if isinstance(node, cst.IfExp):
        body, orelse = site.evaluate(node.body), site.evaluate(node.orelse)
        if {body, orelse} == {"write", "null"}:
            condition = node.test.deep_clone()
            if body == "write":
                return cst.Call(cst.Name("bool"), [cst.Arg(condition)])
            if isinstance(condition, (cst.BooleanOperation, cst.IfExp, cst.Lambda, cst.NamedExpr)) \
                    and not condition.lpar:  # `not (a or b)`; `not flag` needs none
                condition = condition.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
            return cst.UnaryOperation(cst.Not(), condition)
    if site.evaluate(node) is not NOT_LITERAL:
        raise Manual(f"grad_req={site.code(node)}: only 'write' and 'null' translate")
    # a value known at run time (xfer's `grad_req=gg` from a list of constants): decided then
    return site.emit("_mx_requires_grad({g})", g=node)


def _grouped(node):
    """`node` as the right operand of `and`: in parentheses where it is itself an or/if-else."""
    if isinstance(node, (cst.BooleanOperation, cst.IfExp, cst.Lambda, cst.NamedExpr)) and not node.lpar:
        return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return node


def _deferred(shape) -> bool:
    items = shape if isinstance(shape, (tuple, list)) else (shape,)
    return any(isinstance(d, int) and d == 0 for d in items)


def _initializer(site: Site, node):
    value = site.evaluate(node)
    if isinstance(value, str):
        named = {"zeros": "torch.nn.init.zeros_", "ones": "torch.nn.init.ones_"}
        if value not in named:
            raise Manual(f"initializer {value!r} by name: pass `init=mx.init.<Class>()`")
        return site.emit(named[value])
    return node


def _assignment(site: Site):
    """The attribute name when the call is the value of `self.<name> = ...`."""
    stmt = site.conv.statement_stack[-1] if site.conv.statement_stack else None
    if stmt is None or len(stmt.body) != 1 or not isinstance(stmt.body[0], (cst.Assign, cst.AnnAssign)):
        return None
    assign = stmt.body[0]
    targets = [t.target for t in assign.targets] if isinstance(assign, cst.Assign) else [assign.target]
    if assign.value is not site.original or len(targets) != 1:
        return None
    target = targets[0]
    if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == "self":
        return target.attr.value
    return None


def _constant(site: Site, block, name: str, assign):
    stmt = site.conv.statement_stack[-1]
    if assign != name:
        raise Manual(f"assign `params.get_constant({name!r}, ...)` to `self.{name}`")
    if not site.has("value"):
        raise Manual("get_constant without a value")
    value, kind = site.value("value"), _kind_of_value(site)
    if kind in ("nd", "mxnp", "pt"):  # an array keeps its dtype in Gluon's Constant (int32 stays int32)
        form = "{value}" if isinstance(value, cst.Call) else "torch.as_tensor({value})"  # a new tensor: itself
    else:  # a list or a number: float32, as nd.array makes it
        form = "torch.as_tensor({value}, dtype=torch.float32)"
    call = site.emit("{b}.register_buffer({name}, " + form + ")", b=block, name=cst.SimpleString(repr(name)),
                     value=value)
    site.fixed(f"Gluon Constant `{name}` -> a buffer (saved in the state_dict, never trained)")
    site.conv.replace_statement(stmt, [cst.Expr(call)])
    return site.node


def _kind_of_value(site: Site):
    """classify's answer for get_constant's `value` as written (its second argument)."""
    args = [a for a in site.original.args if a.keyword is None and not a.star]
    named = {a.keyword.value: a.value for a in site.original.args if a.keyword is not None}
    node = args[1].value if len(args) > 1 else named.get("value")
    return site.conv.classify(node) if node is not None else None
