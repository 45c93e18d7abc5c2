"""`net.save_parameters(f)` / `net.load_parameters(f, ...)` (and the old `save_params` /
`load_params`, and a whole block's `collect_params().save/load`) -> torch.save / load_state_dict."""
import libcst as cst

from xlate.convert.rulectx import NOT_LITERAL, Manual, Site, Skip
from xlate.convert.transforms import param_evidence

_CONVERT = ("the file must be a PyTorch state_dict: convert an MXNet .params file with "
            "`xlate convert-weights` first")


def _save(site: Site, block):
    site.fixed("-> torch.save(state_dict()): a PyTorch file (parameters and buffers, running statistics "
               "included), which MXNet cannot read; an MXNet parameter file already at that path is copied to "
               "`<path>.mxnet` first, with a warning (xlate convert-weights needs it)")
    if site.conv.options.get("multi_device") == "distributed":  # Note [one process per device]
        site.fixed(site.message + "; with one process per device only rank 0 writes (every process holds the "
                   "same parameters)")
        return site.emit("_mx_save_on_rank0({net}.state_dict(), {f})", net=block, f=site.value("filename"))
    return site.emit("torch.save({net}.state_dict(), _mx_checkpoint_path({f}))", net=block, f=site.value("filename"))


def _strict(site: Site):
    """strict=False where MXNet may skip missing or extra names (and the note when only one of
    them was allowed: torch's strict=False lets both through)."""
    flags = {n: site.literal(n, False) for n in ("allow_missing", "ignore_extra")}
    unknown = [site.value(n) for n, f in flags.items() if f is NOT_LITERAL]
    allowed = [n for n, f in flags.items() if f is not NOT_LITERAL and f]
    if allowed:
        lenient = "" if len(allowed) == 2 else (
            " (strict=False also ignores the other kind of mismatch: missing and unexpected keys alike)")
        return cst.Name("False"), lenient
    if len(unknown) == 1:
        return site.emit("not {a}", a=unknown[0]), ""
    if unknown:
        return site.emit("not ({a} or {b})", a=unknown[0], b=unknown[1]), ""
    return None, ""


def _load(site: Site, block):
    if site.literal("cast_dtype", False) is not False and site.literal("dtype_source", "current") != "current":
        raise Manual("dtype_source='saved' gives parameters the file's dtype: cast the model "
                     "(`net.to(dtype)`) before load_state_dict")
    strict, lenient = _strict(site)
    ctx = site.value("ctx") if site.literal("ctx") is not None else None
    # a list of contexts (or a value that may be one): load on the CPU, then the model goes to the
    # first device, where split_and_load puts every slice (Note [one process, several devices])
    several = ctx is not None and param_evidence.single_device(site, "ctx") != "yes"
    where = ctx if ctx is not None and not several else cst.SimpleString('"cpu"')
    strict_arg = ", strict={s}" if strict is not None else ""
    holes = {"net": block, "f": site.value("filename"), "where": where}
    if strict is not None:
        holes["s"] = strict
    call = site.emit("{net}.load_state_dict(torch.load({f}, map_location={where})" + strict_arg + ")", **holes)
    site.review(f"-> load_state_dict(torch.load(...)): {_CONVERT}; values are cast to each parameter's "
                f"dtype{lenient}")
    if ctx is None:
        return call
    statement = site.conv.statement_of(site.original)
    move = "_mx_to_ctx({net}, {ctx})" if several else "{net}.to({ctx})"
    if statement is None or not isinstance(block, (cst.Name, cst.Attribute)):
        if several:
            return site.emit("_mx_to_ctx({net}, {ctx}).load_state_dict(torch.load({f}, map_location={where})"
                             + strict_arg + ")", **holes, ctx=ctx)
        return site.emit("{net}.to({ctx}).load_state_dict(torch.load({f}, map_location={ctx})" + strict_arg
                         + ")", **holes, ctx=ctx)
    site.conv.replace_statement(statement, [cst.Expr(call), cst.Expr(site.emit(move, net=block, ctx=ctx))])
    return call


_SIGNATURES = {
    ".save_parameters": ("block", "filename", "deduplicate"),
    ".save_params": ("block", "filename"),
    ".load_parameters": ("block", "filename", "ctx", "allow_missing", "ignore_extra", "cast_dtype", "dtype_source"),
    ".load_params": ("block", "filename", "ctx", "allow_missing", "ignore_extra"),
    ".save": ("params", "filename", "strip_prefix"),
    ".load": ("params", "filename", "ctx", "allow_missing", "ignore_extra", "restore_prefix", "cast_dtype",
              "dtype_source"),
}


def transform(site: Site):
    method = site.matched
    original = param_evidence.receiver(site)
    if method in (".save", ".load"):
        block = param_evidence.block_of(site)
        if block is None:
            if param_evidence.is_collect_call(original):
                raise Manual("saving or loading a `collect_params('regex')` selection: save a dict of the "
                             "selected torch tensors, or load with load_state_dict(strict=False)")
            raise Skip()  # pickle's, numpy's, a model's own save / load
        evident = True
        site.bind(*_SIGNATURES[method], evident=evident)
        param_evidence.absorb(site)
    else:
        kind = param_evidence.block_kind(site, original)
        if kind == "no":
            raise Skip()  # `self.load_parameters()` of a class of this file that is no Gluon block
        evident = kind == "yes"
        site.bind(*_SIGNATURES[method], evident=evident)
        block = site.value("block")
    if not site.has("filename"):
        if not evident:
            raise Skip()  # Gluon's methods all take a file name
        raise Manual("no file name: Gluon's method needs one")
    if method in (".save_parameters", ".save_params", ".save"):
        out = _save(site, block)
        if method != ".save_parameters":
            site.review("-> torch.save(state_dict()): a file Gluon keyed by parameter names (`dense0_weight`) "
                        "becomes a PyTorch state_dict keyed by module paths; load it with load_state_dict")
        return out
    if site.has("restore_prefix"):
        raise Manual("restore_prefix= renames the keys in the file: convert the file's keys to the torch "
                     "module paths instead")
    return _load(site, block)
