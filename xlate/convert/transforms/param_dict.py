"""`gluon.ParameterDict(prefix, shared)` -> `_mx_GluonParameterDict(prefix, shared)`: the call as written,
`prefix=` kept (it names the parameters the dict makes, as in Gluon; on a block it only names the block)."""
from xlate.convert.rulectx import Site


def transform(site: Site):
    return site.node.with_changes(func=site.emit(site.rule.runtime_for(site.matched)))
