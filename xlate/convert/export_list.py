"""`__all__` entries naming the MXNet imports the conversion removed (Note [__all__ of removed imports])."""
from __future__ import annotations

import libcst as cst

# Note [__all__ of removed imports]
# A module may list an MXNet import among its public names (`import mxnet as mx` ... `__all__ = [..., "mx", "np"]`,
# MXNet-Detector's image_utils), so that `from image_utils import *` hands `mx` on. Once the import goes, the entry
# names nothing and every star import of the module raises AttributeError at import time. The entry goes with
# the import: the importers' reads of the name resolve to MXNet's (Note [re-exported MXNet names]) and are
# translated there. Only string entries of a literal list or tuple at the top level (`__all__ = [...]`,
# `__all__ += [...]`) are touched; a name also bound otherwise at the top level keeps its entry.


def _string(element: cst.BaseElement):
    value = element.value
    return value.evaluated_value if isinstance(value, cst.SimpleString) else None


def prune(module: cst.Module, gone: set) -> tuple[cst.Module, list]:
    """The module with `gone` names struck from its top-level `__all__` literals, and the names struck."""
    if not gone:
        return module, []
    body, changed = list(module.body), []
    for i, stmt in enumerate(body):
        if type(stmt) is not cst.SimpleStatementLine or len(stmt.body) != 1:
            continue
        small = stmt.body[0]
        targets = [t.target for t in small.targets] if type(small) is cst.Assign else \
            [small.target] if type(small) is cst.AugAssign else []
        if not any(type(t) is cst.Name and t.value == "__all__" for t in targets) or \
                type(small.value) not in (cst.List, cst.Tuple):
            continue
        elements = small.value.elements
        keep = [e for e in elements if _string(e) not in gone]
        if len(keep) == len(elements):
            continue
        struck = [_string(e) for e in elements if _string(e) in gone]
        if keep:
            last = keep[-1].with_changes(comma=elements[-1].comma)  # the display's trailing comma as written
            keep[-1] = last
        value = small.value.with_changes(elements=keep)
        body[i] = stmt.with_changes(body=[small.with_changes(value=value)])
        changed += [n for n in struck if n not in changed]
    return (module.with_changes(body=body) if changed else module), changed
