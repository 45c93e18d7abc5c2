"""`mx.optimizer.Adam(...)` / `mx.optimizer.create('adam', ...)` -> the optimizer helper with
the call's own arguments (a name given as a string pastes its class)."""
from xlate.convert.rulectx import Site
from xlate.convert.transforms.trainer import optimizer_helpers


def transform(site: Site):
    if site.matched.rsplit(".", 1)[-1] in ("create", "create_optimizer"):
        first = next((a.value for a in site.node.args if a.keyword is None or a.keyword.value == "name"), None)
        optimizer_helpers(site, first)
    return site.verbatim()
