"""MX112: the base of a Gluon Sequential subclass that defines its own `__init__`.

Note [sliced Sequential subclasses]
Gluon's `HybridSequential.__getitem__` with a slice builds `type(self)(prefix=self._prefix)` and
adds the children in that slice: a subclass gets its own constructor's defaults, and its
children are renumbered from 0. torch's `nn.Sequential.__getitem__` builds
`self.__class__(OrderedDict(children))`, which hands the children to the subclass's first
parameter: imgclsmob's `MultiOutputSequential(multi_output=True, ...)` sliced by
`resnetd50b().features[:-1]` got the OrderedDict as `multi_output` and no children at all, so
DeepLabv3's backbone returned its input (no error, a wrong network). A subclass that keeps
Sequential's constructor (no `__init__`) slices the same in both. One that defines `__init__`
derives from `_mx_Sequential` (xlate/runtime/blocks.py), torch's Sequential with Gluon's slicing;
subclasses of it in the tree inherit that.
"""
import libcst as cst

SEQUENTIAL_BASE = "MX112"
_SEQUENTIAL = ("mxnet.gluon.nn.Sequential", "mxnet.gluon.nn.HybridSequential")


def rebase(conv, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
    """`class S(nn.HybridSequential)` with an `__init__` -> `class S(_mx_Sequential)`; called in the
    scope enclosing the class, where its bases are read."""
    if not conv.rules.enabled(SEQUENTIAL_BASE) or len(original.bases) != len(updated.bases):
        return updated
    body = original.body.body if isinstance(original.body, cst.IndentedBlock) else ()
    if not any(isinstance(s, cst.FunctionDef) and s.name.value == "__init__" for s in body):
        return updated
    bases = list(updated.bases)
    for i, arg in enumerate(original.bases):
        if arg.keyword is None and conv.resolve_expr(arg.value) in _SEQUENTIAL:
            conv.dropped(updated.bases[i].value)
            bases[i] = bases[i].with_changes(value=cst.Name("_mx_Sequential"))
            conv.use_helper("_mx_Sequential")
            said = (f"`{original.name.value}` is a Sequential subclass with its own __init__ -> base `_mx_Sequential`: "
                    "sliced, it is built with its own defaults, as Gluon does (torch's Sequential would pass the "
                    "children to that __init__)")
            at = [k for k, e in enumerate(conv.found) if e is not None and e[0] is arg.value and e[1] == SEQUENTIAL_BASE]
            for k in at:  # the reference rewrite said `nn.Sequential`
                conv.found[k] = (*conv.found[k][:3], said)
            if not at:
                conv.report(arg.value, SEQUENTIAL_BASE, "fixed", said)
    return updated.with_changes(bases=bases)
