"""`a == b` (and !=, <, <=, >, >=) on an NDArray -> `(a == b).float()`: MXNet's comparisons give
float32 0/1, torch's bool, which `mean()` refuses and arithmetic promotes differently."""
import libcst as cst

from xlate.convert.rulectx import Site, Skip

_NUMERIC = frozenset("mean sum prod asscalar item astype".split())


def transform(site: Site):
    kinds = {site.conv.classify(site.original.left), site.conv.classify(site.original.comparisons[0].comparator)}
    if "nd" not in kinds or "np" in kinds:
        raise Skip()
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
            and receiver.func.attr.value in _NUMERIC:
        inner = in_chain(site, receiver.func.value)
        if inner is not receiver.func.value:
            return receiver.with_changes(func=receiver.func.with_changes(value=inner))
    return receiver
