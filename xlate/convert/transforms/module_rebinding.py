"""`mx.autograd = autograd`: an MXNet module given the object its attribute already is -> the
statement removed (Note [an MXNet module given its own submodule] in xlate/convert/rebinding.py)."""
from xlate.convert.rulectx import Manual, Site


def transform(site: Site):
    conv = site.conv
    stmt = conv.statement_stack[-1] if conv.statement_stack else None
    at = next((i for i, small in enumerate(stmt.body) if small is site.original), None) if stmt is not None else None
    if at is None:
        raise Manual("an MXNet module given its own submodule, in a place a statement cannot be removed from")
    conv.rewrite_at[id(stmt)] = at
    conv.replace_statement(stmt, [])
    site.fixed(f"`{site.code(site.original)}` removed: it stores into MXNet's module the object the attribute "
               "already is, which changes nothing")
    return site.node
