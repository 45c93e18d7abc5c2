"""MXNet code left for a human, and the rewrites around it that must stay MXNet too.

A rewrite around a left NDArray expression would give code that runs in neither framework:
`nd.random.randint(0, n, shape).astype('float32')` with the inner call left becomes
`nd.random.randint(...).to(torch.float32)`, a torch method on an NDArray. So an MXNet
construct whose receiver or argument is a left NDArray expression is left as well, and the
inner construct's report says so (one report for the expression, not one per layer). Through a
variable (`ious = F.contrib.box_iou(a, b)` left, then `ious.argmax(axis=-1)`), the later rewrite
is left and reported at its own line. Code a user keeps MXNet on purpose (`--select`,
`# xlate: ignore`) is mixed by design and not followed.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from xlate.convert import names
from xlate.convert.rulectx import Site


class Leftovers:
    """Mixed into the Converter, which sets `left_nodes`, `left_outers` and `left_names` up (its
    __init__)."""

    def mark_left(self, node: cst.CSTNode, report: Optional[int], *, array: bool, head: Optional[str]) -> None:
        """`node` (in the output tree) stays MXNet; found[report] is its report (None: it has
        none); `array`: its value is an NDArray; `head`: the MXNet import it keeps."""
        self.left_nodes[id(node)] = (node, report, array, head)

    def _array_left(self, node: Optional[cst.CSTNode]) -> Optional[int]:
        """The index of the report of `node` when it is a left NDArray expression."""
        hit = self.left_nodes.get(id(node)) if node is not None else None
        return hit[1] if hit is not None and hit[0] is node and hit[2] else None

    def forget_left(self, node: cst.CSTNode) -> None:
        """`node` was thrown away (a rewrite dropped an argument): what was left in it goes
        from the report, and keeps no import."""
        if not self.left_nodes:
            return
        stack = [node]
        while stack:
            sub = stack.pop()
            stack.extend(sub.children)
            hit = self.left_nodes.get(id(sub))
            if hit is not None and hit[0] is sub:
                del self.left_nodes[id(sub)]
                if hit[1] is not None:
                    self.found[hit[1]] = None
                if hit[3]:
                    self.survivors[hit[3]] -= 1

    def left_inside(self, site: Site) -> Optional[int]:
        """The report of a left NDArray expression this rewrite would take as input."""
        for node in [site.receiver, *(a.value for a in site.args.values()), *(a.value for a in site.varargs)]:
            found = self._array_left(node)
            if found is not None:
                return found
        return None

    def left_assigned(self, name: str, value: cst.BaseExpression) -> None:
        """`name = <a left NDArray expression>`: uses of `name` hold an NDArray (the module docstring)."""
        if self._array_left(value) is not None:
            home = self.analysis.home(self.scopes[-1], name)  # `global x` assigns the module's x
            self.left_names.add((home.key if home is not None else self.scopes[-1], name))

    def left_name_inside(self, site: Site) -> Optional[str]:
        """A name this rewrite would take as input that some assignment in its scope (or one
        it reads) set to a left NDArray expression."""
        for node in [site.receiver, *(a.value for a in site.args.values()), *(a.value for a in site.varargs)]:
            if isinstance(node, cst.Name):
                name = names.ident(node.value)
                scope = self.analysis.home(self.scopes[-1], name)
                if scope is not None and (scope.key, name) in self.left_names:
                    return name
        return None

    def left_with(self, site: Site, inner: int, head: Optional[str]):
        """Leave `site` because its input is left: the inner report says so."""
        if head:
            self.survivors[head] += 1
        if self.found[inner] is None:
            return site.node
        node, code, status, message = self.found[inner]
        base, outer = self.left_outers.get(inner, (message, []))
        outer.append(f"`{site.matched if site.matched.startswith('.') else site.matched.rsplit('.', 1)[-1]}`")
        self.left_outers[inner] = (base, outer)
        verb = "stays" if len(outer) == 1 else "stay"
        self.found[inner] = (node, code, status,
                             f"{base}; {', '.join(outer)} applied to it {verb} MXNet too (PyTorch's needs a tensor)")
        # its input is an NDArray: so is what an NDArray method makes of it
        array = site.matched[1:] in names.ND_METHODS if site.matched.startswith(".") else array_name(site.matched)
        self.mark_left(site.node, inner, array=array, head=head)
        return site.node


def is_array(site: Site) -> bool:
    """Whether the MXNet construct of `site`, left as it is, gives an NDArray."""
    matched = site.matched
    if matched.startswith("."):  # a method: on a value known to be an NDArray
        return matched[1:] in names.ND_METHODS and site.receiver_kind in ("nd", "mxnp")
    return array_name(matched)


def array_name(resolved: str) -> bool:
    if resolved.startswith(names.NP_ARRAY + "."):  # an mx.np array's method, matched by its dialect rule
        return resolved.rsplit(".", 1)[-1] in names.ND_METHODS
    if resolved.startswith(names.NP_ROOTS):
        return not resolved.endswith(names.NP_NOT_ARRAYS)
    return resolved.startswith("mxnet.ndarray.") and not resolved.endswith(names.NOT_ARRAYS)
