"""`autograd.record() / pause() / train_mode() / predict_mode()` -> `_mx_record()` / `_mx_pause()`
/ `_mx_train_mode()` / `_mx_predict_mode()` with the call's own arguments: MXNet's global flags
at run time (Note [MXNet's mode] in xlate/runtime/autograd.py)."""
from xlate.convert.rulectx import Site

_WHAT = {
    "record": "records (torch.enable_grad) with MXNet's training flag set",
    "pause": "stops recording (torch.no_grad), with MXNet's training flag off unless train_mode=True",
    "train_mode": "sets MXNet's training flag, recording as it is",
    "predict_mode": "clears MXNet's training flag, recording as it is",
}


def transform(site: Site):
    kind = site.matched.rsplit(".", 1)[-1]
    site.fixed(f"`autograd.{kind}()` -> `_mx_{kind}()`: {_WHAT[kind]}; every model the program initialised or "
               "loaded trains or predicts as that flag says, inside and after the block")
    return site.node.with_changes(func=site.emit(f"_mx_{kind}"))
