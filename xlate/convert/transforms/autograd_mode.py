"""`with autograd.record() / pause() / train_mode() / predict_mode():` -> torch's gradient
mode and each model's train/eval mode (Note [training mode] in train_models.py)."""
import libcst as cst

from xlate.convert.rulectx import Manual, Site
from xlate.convert.transforms import train_models

_MODE_GAP = "BatchNorm and Dropout follow the module's mode in torch (2.56 / 1.0 apart otherwise)"


def _mode_call(model: str, flag) -> cst.BaseSmallStatement:
    if flag is True:
        text = f"{model}.train()"
    elif flag is False:
        text = f"{model}.eval()"
    else:
        text = f"{model}.train({flag})"
    return cst.Expr(cst.parse_expression(text))


def transform(site: Site):
    kind = site.matched.rsplit(".", 1)[-1]
    stack = site.conv.with_stack
    found = train_models.autograd_call(site, stack[-1]) if stack else None
    if found is None or found[1] is not site.original:
        raise Manual(f"autograd.{kind}() outside a plain `with autograd.{kind}():` statement: torch sets the "
                     "gradient mode with torch.enable_grad() / torch.no_grad() and each model's mode with "
                     "model.train() / model.eval(); write those by hand")
    with_node = stack[-1]
    enclosing = train_models.state(site, stack[:-1])
    flag = train_models.flag(site, kind, site.original)
    inner = train_models.step(kind, enclosing, flag)
    if kind in ("train_mode", "predict_mode") and site.conv.defs \
            and not any(train_models.autograd_call(site, w) for w in stack[:-1]):
        # in a function, whether MXNet records here is the caller's (a forward under record()):
        # train_mode/predict_mode change the training flag only, so the gradient mode stays
        inner = (inner[0], inner[1], enclosing[2])
    models = train_models.models_in(site, with_node.body)
    before = [_mode_call(m, flag) for m in models]
    after = [_mode_call(m, enclosing[1]) for m in models] if flag != enclosing[1] else []
    site.conv.around[id(with_node)] = (before, after)
    if inner[2] == enclosing[2]:  # the gradient mode does not change: the block goes
        site.conv.unwrap.add(id(with_node))
        new = site.node
        grad = "its body"
    elif inner[2]:
        new = site.emit("torch.no_grad()")
        grad = "`with torch.no_grad():`"
    else:
        new = site.emit("torch.enable_grad()")
        grad = "`with torch.enable_grad():`"
    modes = ", ".join(f"`{m}`" for m in models)
    if not models:
        site.review(f"`with autograd.{kind}():` -> {grad}; no Gluon model is called here, so none is put in "
                    f"{'training' if flag is True else 'inference' if flag is False else 'that'} mode: call "
                    f"`model.train()` / `model.eval()` on the model(s) this block runs ({_MODE_GAP})")
    elif train_models.exits_early(with_node.body) and after:
        site.review(f"`with autograd.{kind}():` -> {grad} with {modes} switched before it and back after it; the "
                    f"block can exit early (return/raise/yield), which skips the switch back: set the mode there "
                    f"too ({_MODE_GAP})")
    else:
        switch = "switched before it" + (" and back after it" if after else "")
        site.fixed(f"`with autograd.{kind}():` -> {grad}, {modes} {switch} ({_MODE_GAP})")
    return new
