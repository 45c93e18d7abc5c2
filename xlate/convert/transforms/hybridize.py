"""`net.hybridize(...)` -> removed, or `_mx_compile(net)` (`net.compile()` once the deferred sizes are
known) with `--hybridize compile`."""
from xlate.convert.rulectx import Manual, Site


def transform(site: Site):
    stmt = site.conv.statement_of(site.original)
    compile_ = site.conv.options.get("hybridize") == "compile"
    if compile_:
        site.review("`hybridize()` -> `_mx_compile(net)`: `Module.compile()` (in place, state_dict keys "
                    "unchanged; numerics may differ in the last bits), after the first call where a layer's "
                    "size is deferred")
        return site.emit("_mx_compile({net})", net=site.receiver)
    if stmt is None:
        raise Manual("`hybridize()` used as a value: remove it by hand (PyTorch runs eagerly; "
                     "`--hybridize compile` emits `Module.compile()`)")
    site.fixed("`hybridize()` removed: PyTorch runs the module eagerly (`--hybridize compile` emits `.compile()`)")
    site.conv.replace_statement(stmt, [])
    return site.node
