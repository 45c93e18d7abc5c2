"""`a == b` (and !=, <, <=, >, >=) on an NDArray -> `(a == b).float()`: MXNet's comparisons give
float32 0/1, torch's bool, which `mean()` refuses and arithmetic promotes differently."""
import libcst as cst

from xlate.convert.rulectx import Site, Skip

NUMERIC = frozenset("mean sum prod asscalar item astype".split())
# the operators' array parameters a comparison may be handed by keyword (any other keyword is a flag)
ARRAY_PARAMETERS = frozenset("data lhs rhs condition x y a b label pred index indices mask weight".split())
# MXNet's functions that make an array from Python or NumPy values: a comparison handed to them may be NumPy's
FROM_VALUES = frozenset("array asarray from_numpy full zeros ones empty arange linspace eye".split())


# Note [a comparison as an index]
# `x[x > 0]` on NDArrays is no mask in MXNet 1.x: the comparison's float 0/1 are read as positions, and
# the read gathers rows 0 and 1 (shape (2, 2, 2) for a 2x2 x), a write `x[x < 0] = 0` sets whole rows.
# Torch and NumPy mask. Made float, the index raised in torch (only integer or bool index tensors). The
# translation reads positions as MXNet does (`_mx_index`, as for any float index array: MX085), so the
# program keeps MXNet's numbers and `xlate check` agrees, and the line is marked for review: its writer
# most likely meant a mask, which MXNet never computed.
def transform(site: Site):
    kinds = {site.conv.classify(site.original.left), site.conv.classify(site.original.comparisons[0].comparator)}
    if "nd" not in kinds or "np" in kinds:
        raise Skip()
    if id(site.original) in site.conv.index_masks:
        site.review(f"`x[a {site.matched} b]` on NDArrays -> `x[_mx_index((a {site.matched} b).float())]`: MXNet 1.x reads "
                    "the comparison's 0/1 as positions, not as a mask (a read gathers rows 0 and 1, a write sets whole "
                    "rows), and so does the translation; if a mask was meant, as in NumPy, write `x[a > b]` on the "
                    "torch side (or nd.contrib.boolean_mask in MXNet)")
        return site.emit("_mx_index({c})", c=as_float(site, site.node))
    site.fixed(f"`a {site.matched} b` on an NDArray -> `(a {site.matched} b).float()` (float32 0/1 as in MXNet)")
    return as_float(site, site.node)


def as_float(site: Site, comparison: cst.Comparison) -> cst.BaseExpression:
    bare = comparison.with_changes(lpar=[], rpar=[])
    return site.emit("{c}.float()", c=bare.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()]))


def in_chain(site: Site, receiver: cst.BaseExpression) -> cst.BaseExpression:
    """The receiver of an MXNet-only method (`.asscalar()`), with a comparison it reduces
    (`(pred == label).mean().asscalar()`) made float: the chain proves it is an NDArray."""
    if isinstance(receiver, cst.Comparison) and receiver.lpar:
        rule = site.conv.rules.operators.get("==")
        if len(receiver.comparisons) == 1 and rule is not None and site.conv.rules.enabled(rule.code):
            return as_float(site, receiver)
        return receiver
    if isinstance(receiver, cst.Call) and isinstance(receiver.func, cst.Attribute) \
            and receiver.func.attr.value in NUMERIC:
        inner = in_chain(site, receiver.func.value)
        if inner is not receiver.func.value:
            return receiver.with_changes(func=receiver.func.with_changes(value=inner))
    return receiver


# Note [comparison handed to an operator]
# d2l-style accuracy helpers write `nd.mean(output.argmax(axis=1) == label)` on values xlate cannot
# type (the network's output, a DataLoader's label): MXNet's operator takes only NDArrays, so the
# comparison it is handed is one of NDArrays and gives float 0/1. Left bool, `torch.mean` raises
# ("could not infer output dtype ... Got: Bool") and `torch.sum` counts in int64. Each comparison
# that is an array argument of an `mxnet.ndarray` operator (not of a function that builds an array
# from Python or NumPy values, `nd.array(x > 0)`) is made float as if an operand were typed. A
# comparison given to a flag by keyword (`exclude=data.ndim > 2`) is Python's bool and stays.
def handed_to_operator(site: Site) -> None:
    """Make float each comparison among `site`'s arguments (an MXNet operator's call)."""
    name = site.matched
    if not name.startswith("mxnet.ndarray.") or name.rsplit(".", 1)[-1] in FROM_VALUES:
        return
    rule = site.conv.rules.operators.get("==")
    if rule is None or not site.conv.rules.enabled(rule.code):
        return
    made = False
    for key, arg in list(site.args.items()):
        value = arg.value
        if arg.keyword is not None and key not in ARRAY_PARAMETERS:
            continue  # a flag (`exclude=data.ndim > 2`): a Python bool, no array
        if isinstance(value, cst.Comparison) and len(value.comparisons) == 1 \
                and not isinstance(value.comparisons[0].operator, (cst.In, cst.NotIn, cst.Is, cst.IsNot)):
            site.args[key] = arg.with_changes(value=as_float(site, value))
            made = True
    if made:
        site.conv.report(site.original, rule.code, "fixed", f"a comparison handed to `{name.rsplit('.', 1)[-1]}` "
                         "compares NDArrays -> `(a < b).float()` (float32 0/1 as in MXNet)")
