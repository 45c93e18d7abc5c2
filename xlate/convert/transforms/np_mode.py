"""npx.set_np() / npx.reset_np(): MXNet's switch between its two array APIs goes (torch has one)."""
from xlate.convert.rulectx import Manual, Site


def transform(site: Site):
    stmt = site.conv.statement_of(site.original)
    if stmt is None:
        raise Manual("`set_np()`/`reset_np()` used as a value: torch has one array type; remove the call by hand")
    site.conv.replace_statement(stmt, [])
    return site.node
