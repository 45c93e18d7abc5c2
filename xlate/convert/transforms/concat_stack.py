"""`nd.concat(*xs, dim=1)` / `nd.stack(*xs, axis=0)` -> `torch.cat` / `torch.stack` with the dim
written out, or `_mx_concat` / `_mx_stack` when an element may be 0-d in torch.

MXNet 1.x has no 0-d arrays: `x[i]` of a 1-D array, `x[i, j]` of a 2-D one and the items of
`*x` are (1,). torch gives 0-d tensors there, which `torch.cat` refuses and `torch.stack` stacks
into one axis fewer than MXNet's (N,) -> (N, 1). Where an element is a starred sequence or an
all-integer index, the helper joins 0-d tensors as (1,), as MXNet sees them."""
import libcst as cst

from xlate.convert.rulectx import Site


def _may_be_0d(site: Site, arg: cst.Arg) -> bool:
    """A starred sequence (its items may be array elements), an index of integers only into an
    array (`x[i, j]`; `x[i]` only where `x` is known to be one: `states[2]` picks from a list)."""
    if arg.star:  # `*[a, b]` and `*[f(p) for p in ps]` show their items; `*outs` does not
        if isinstance(arg.value, (cst.List, cst.Tuple)):
            return any(_element_0d(site, e.value) for e in arg.value.elements)
        if isinstance(arg.value, (cst.ListComp, cst.GeneratorExp)):
            return _element_0d(site, arg.value.elt)
        return True
    return _element_0d(site, arg.value)


def _element_0d(site: Site, value) -> bool:
    if not isinstance(value, cst.Subscript) or not all(_integer(e) for e in value.slice):
        return False
    return len(value.slice) > 1 or site.conv.classify(value.value) == "nd"


def _integer(element) -> bool:
    if not isinstance(element.slice, cst.Index):
        return False  # a slice keeps the axis
    index = element.slice.value
    return not isinstance(index, (cst.Ellipsis, cst.List, cst.Tuple)) and not (
        isinstance(index, cst.Name) and index.value == "None")


def transform(site: Site):
    stack = site.matched.rsplit(".", 1)[1] == "stack"
    name, default = ("axis", "0") if stack else ("dim", "1")
    dim = site.value(name)
    dim_node = dim if dim is not None else cst.Integer(default)
    if any(_may_be_0d(site, a) for a in site.varargs):
        helper = "_mx_stack" if stack else "_mx_concat"
        site.fixed(f"`{site.matched.rsplit('.', 1)[1]}` of starred or integer-indexed arrays -> `{helper}(...)`: such an "
                   f"element is (1,) in MXNet 1.x and 0-d in torch; the helper joins it as (1,)")
        items = [a.with_changes(keyword=None, equal=cst.MaybeSentinel.DEFAULT,
                                comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))) for a in site.varargs]
        if stack and dim is None:  # both stack along a new first axis by default
            return cst.Call(func=site.emit(helper), args=[*items[:-1], items[-1].with_changes(
                comma=cst.MaybeSentinel.DEFAULT)] if items else [])
        keyword = cst.Arg(dim_node, keyword=cst.Name(name),
                          equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))
        return cst.Call(func=site.emit(helper), args=[*items, keyword])
    if stack and dim is None:
        return site.emit("torch.stack({items})", items=site.vararg_list())
    target = "torch.stack" if stack else "torch.cat"
    return site.emit(target + "({items}, dim={d})", items=site.vararg_list(), d=dim_node)
