"""`autograd.is_recording()` inside an autograd block -> its known value."""
from xlate.convert.rulectx import Manual, Site
from xlate.convert.transforms import train_models


def transform(site: Site):
    if site.node.args:
        raise Manual("is_recording() takes no arguments")
    if not any(train_models.autograd_call(site, w) for w in site.conv.with_stack):
        raise Manual("outside an autograd block MXNet's is_recording() is a process-wide flag (False outside "
                     "record()); torch.is_grad_enabled() is True by default: pass the state in by hand")
    recording = train_models.state(site, site.conv.with_stack)[0]
    site.fixed(f"`autograd.is_recording()` inside this autograd block -> `{recording}`")
    return site.emit(str(recording))
