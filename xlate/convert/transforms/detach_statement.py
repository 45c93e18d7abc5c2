"""`x.detach()` as a statement of its own -> `_mx_detach_spent(x)` (d2l's `for s in state: s.detach()`)."""
import libcst as cst

from xlate.convert.rulectx import Site, Skip


def _alone(site: Site) -> bool:
    """The call is a statement of its own: its result is thrown away."""
    conv = site.conv
    stmt = conv.suites[-1] if conv.suites else conv.statement_stack[-1] if conv.statement_stack else None
    return stmt is not None and any(isinstance(small, cst.Expr) and small.value is site.original
                                    for small in getattr(stmt, "body", ()))


def transform(site: Site):
    if not _alone(site) or site.node.args:
        raise Skip()  # a detached copy used as a value: torch's detach() is MXNet's
    site.fixed("`x.detach()` whose result is thrown away -> `_mx_detach_spent(x)`: MXNet's backward frees the "
               "graph behind x and a later backward stops at x, where torch's raises; the helper detaches x in "
               "place once a backward has freed its graph, and leaves it while the graph is alive")
    return site.emit("_mx_detach_spent({x})", x=site.receiver)
