"""Note [an MXNet module given its own submodule]
`mx.autograd = autograd` (gluonts' trainer, "make the IDE happy: mx.py does not explicitly import
autograd"), `mxnet.gluon.nn = nn`: a statement that stores into an MXNet module the very object the
attribute already is changes nothing in MXNet. Left, it reads the MXNet import, which must then stay,
and every estimator importing the module needs MXNet (issue 21, item 7). Where both sides resolve
to the same MXNet name the statement is removed (MX837); any other write into an MXNet module
stays and is reported (`_stored_attribute`)."""
from __future__ import annotations

import libcst as cst

from xlate.convert import names
from xlate.convert.rulectx import Site

REBIND, REBIND_KEY = "MX837", "[module.x]=x"


class Rebindings:
    """Mixed into the Converter."""

    def note_rebinding(self, node: cst.Assign) -> None:
        if len(node.targets) != 1 or not isinstance(node.targets[0].target, cst.Attribute):
            return
        target, value = node.targets[0].target, node.value
        both = [self.dotted(n, self.analysis.imported) for n in (target, value)]
        if None in both or REBIND_KEY not in self.rules.operators or not self.rules.enabled(REBIND):
            return
        resolved = [self.analysis.resolve(self.scopes[-1], d) for d in both]
        if resolved[0] is None or resolved[0] is names.AMBIGUOUS or resolved[0] != resolved[1] \
                or not names.is_mxnet(resolved[0]):
            return
        self.__dict__.setdefault("rebound", set()).add(id(node))
        self.inner.update((id(target), id(value)))  # neither side is a reference left to translate

    def drop_rebinding(self, original: cst.Assign, updated: cst.Assign):
        """The statement's replacement (the rule removes it), or None where it is no such statement."""
        if id(original) not in self.__dict__.get("rebound", ()):
            return None
        return self._apply(Site(self, self.rules.operators[REBIND_KEY], original, updated, matched=REBIND_KEY))
