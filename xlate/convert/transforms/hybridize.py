"""`net.hybridize(...)` -> removed, or `net.compile()` with `--hybridize compile`."""
from xlate.convert.rulectx import Manual, Site


def transform(site: Site):
    stmt = site.conv.statement_of(site.original)
    compile_ = site.conv.options.get("hybridize") == "compile"
    if compile_:
        site.review("`hybridize()` -> `Module.compile()` (compiles in place, state_dict keys unchanged; "
                    "numerics may differ in the last bits)")
        return site.emit("{net}.compile()", net=site.receiver)
    if stmt is None:
        raise Manual("`hybridize()` used as a value: remove it by hand (PyTorch runs eagerly; "
                     "`--hybridize compile` emits `Module.compile()`)")
    site.fixed("`hybridize()` removed: PyTorch runs the module eagerly (`--hybridize compile` emits `.compile()`)")
    site.conv.replace_statement(stmt, [])
    return site.node
