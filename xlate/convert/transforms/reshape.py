"""reshape with MXNet's special codes goes through the `_mx_reshape` helper."""
import libcst as cst

from xlate.convert.rulectx import NOT_LITERAL, Manual, Site, Skip

_CODES = {0, -2, -3, -4}


def _spec(site: Site):
    """The shape argument as one node, however it was passed."""
    if site.varargs:
        if site.has("shape"):
            raise Manual("reshape with both a shape argument and shape=")
        if len(site.varargs) == 1 and not site.varargs[0].star:
            return site.varargs[0].value
        # `x.reshape(*dims)`: MXNet's method takes `*shape` and unwraps one list (`_mx_reshape` too)
        return cst.Tuple(site.vararg_elements())
    node = site.value("shape")
    if node is None:
        raise Manual("reshape without a shape")
    return node


def _codes(site: Site, spec) -> object:
    """True/False when the spec's literal entries do/don't use special codes; None if unknown."""
    if isinstance(spec, (cst.Tuple, cst.List)):
        if any(isinstance(e, cst.StarredElement) for e in spec.elements):
            return None  # unpacked at run time: may hold special codes
        values = [site.evaluate(e.value) for e in spec.elements]
    else:
        value = site.evaluate(spec)
        if value is NOT_LITERAL:
            return None
        if not isinstance(value, (int, tuple, list)):
            return None  # `x.reshape(None)`: not a shape MXNet takes; left to the run-time spelling
        values = [value] if isinstance(value, int) else list(value)
    return any(v in _CODES for v in values if isinstance(v, int))


def transform(site: Site):
    spec = _spec(site)
    reverse = site.literal("reverse", False)
    codes = _codes(site, spec)
    function_form = site.receiver is None
    if reverse is False and codes is False:
        if function_form:
            return site.emit("torch.reshape({x}, {shape})", x=site.value("data"), shape=spec)
        raise Skip()  # same meaning in torch and numpy
    if codes is None and reverse is False and site.receiver_kind is None:
        raise Skip()  # a shape held in a variable on an untyped value: taken as plain sizes
    holes = {"x": site.value("data"), "shape": spec}
    if reverse is False:
        return site.emit("_mx_reshape({x}, {shape})", **holes)
    holes["reverse"] = site.value("reverse")
    return site.emit("_mx_reshape({x}, {shape}, reverse={reverse})", **holes)
