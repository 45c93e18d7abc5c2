"""`net.save_parameters(f)` / `net.load_parameters(f, ...)` (and the old `save_params` /
`load_params`, and a whole block's `collect_params().save/load`) -> torch.save / load_state_dict;
`net.export(path, epoch)` -> `_mx_export(net, path, epoch)` (Note [exported models])."""
import libcst as cst

from xlate.convert.rulectx import Manual, Site, Skip
from xlate.convert.transforms import param_evidence

_EQ = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))
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


def _load(site: Site, block):
    """`_mx_load_parameters(net, f, ...)`: Gluon's checks of missing and extra names, its
    contexts, and MXNet's mode for the loaded model (Note [MXNet's mode] in runtime/autograd.py)."""
    args = [cst.Arg(block), cst.Arg(site.value("filename"))]
    for name in ("ctx", "allow_missing", "ignore_extra", "cast_dtype", "dtype_source"):
        if site.has(name):
            args.append(cst.Arg(site.value(name), keyword=cst.Name(name), equal=_EQ))
    for i, arg in enumerate(args[:-1]):
        args[i] = arg.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    call = site.emit("_mx_load_parameters()").with_changes(args=args)
    site.review(f"-> `_mx_load_parameters(net, f, ...)`: {_CONVERT}; Gluon's checks of missing and extra "
                "names, values cast to each parameter's dtype, and the model then predicts or trains as "
                "MXNet's autograd flag says")
    return call


def _export(site: Site):
    """Gluon's graph and parameter files have no PyTorch reader: the state_dict under MXNet's stem.
    The arguments stay as written: on a receiver that is no torch module at run time, the helper
    calls the object's own `export`."""
    site.review("-> `_mx_export(net, path, epoch)`: the format changes. MXNet writes its graph and parameters "
                "(`path-symbol.json`, `path-0000.params`); this writes the PyTorch state_dict as `path-0000.pt` "
                "(and warns so at run time). Load it with `net.load_state_dict(torch.load('path-0000.pt'))` into "
                "the translated model; for a graph without the class, `torch.export.export(net, (x,))` with an "
                "example input. Code that reads the MXNet files (SymbolBlock.imports, MX615) stays manual")
    return site.method_helper("_mx_export")


_SIGNATURES = {
    ".save_parameters": ("block", "filename", "deduplicate"),
    ".save_params": ("block", "filename"),
    ".load_parameters": ("block", "filename", "ctx", "allow_missing", "ignore_extra", "cast_dtype", "dtype_source"),
    ".load_params": ("block", "filename", "ctx", "allow_missing", "ignore_extra"),
    ".save": ("params", "filename", "strip_prefix"),
    ".export": ("block", "filename", "epoch", "remove_amp_cast"),
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
    if method == ".export":
        return _export(site)
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
