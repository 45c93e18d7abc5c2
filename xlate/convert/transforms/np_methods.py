"""mx.np array methods NDArray lacks (NumPy's): `x.dot(y)` is NumPy's dot (N8.9), `x.take(i)` takes
from the flattened array (N8.10), `x.nonzero()` a tuple of index arrays (N8.11), `x.argsort()`,
`x.round(d)` (torch's decimals is keyword-only)."""
import importlib

from xlate.convert.rulectx import Manual, Site, Skip, unknown_receiver

_ROUTES = {  # method -> (transform, signature with the receiver first)
    "dot": ("np_linalg", None), "take": ("np_index", None), "nonzero": ("np_index", None),
    "argsort": ("np_index", None),
}


def transform(site: Site):
    op = site.matched.rsplit(".", 1)[1]
    if site.receiver_kind is None:
        if op == "round":
            raise Skip()
        if op == "dot" and len(site.node.args) == 1 and site.node.args[0].keyword is None \
                and not site.node.args[0].star:
            return _dot_at_run_time(site)
        raise Manual(unknown_receiver(site))
    if op == "round":
        site.bind("a", "decimals", "out")
        if site.has("out") and site.literal("out") is not None:
            raise Manual("`out=` is not translated")
        if not site.has("decimals") or site.literal("decimals") == 0:
            return site.emit("{x}.round()", x=site.value("a"))
        return site.emit("{x}.round(decimals={d})", x=site.value("a"), d=site.value("decimals"))
    return importlib.import_module(f"xlate.convert.transforms.{_ROUTES[op][0]}").transform(site)


def _dot_at_run_time(site: Site):
    """`_mx_np_dot_method(x, y)`: a tensor (an mx.np array, converted) multiplies as NumPy's dot
    (`_mx_np_dot`), anything else (a NumPy array) calls its own dot."""
    what = site.code(site.receiver).strip()
    site.fixed(f"`{what[:40]}.dot(...)` on a value xlate could not type -> `_mx_np_dot_method(...)`, decided at run "
               "time: a tensor (an mx.np array, converted) multiplies as NumPy's dot (`_mx_np_dot`), anything else "
               "(a NumPy array) keeps its own dot")
    return site.emit("_mx_np_dot_method({x}, {y})", x=site.receiver, y=site.node.args[0].value)
