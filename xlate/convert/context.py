"""What a file of a converted tree knows beyond its own text (Note [package facts] in
xlate/convert/package.py), and the name basics every part of the converter shares."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Optional

MX_ROOTS = ("mxnet", "gluonnlp", "gluoncv")
# a class deriving from one of these is a Gluon block (its super().__init__ takes prefix=...)
GLUON_ROOTS = ("mxnet.gluon.", "gluonnlp.", "gluoncv.")
AMBIGUOUS = "<ambiguous>"


def is_mxnet(name: Optional[str]) -> bool:
    return bool(name) and name.split(".", 1)[0] in MX_ROOTS


LOCAL = "@"  # the prefix of a name that is the converted tree's own code
ALIAS = "="  # a fact's kind that says the name is bound to this MXNet function (Note [module aliases])


@dataclass(frozen=True)
class FileContext:
    """What one file of a tree knows beyond its own text."""

    module: str = ""  # its absolute dotted module name ('' when unknown: a lone file)
    is_package: bool = False  # an __init__.py
    local_roots: frozenset = frozenset()  # top-level import names that are the tree's own code
    facts: Mapping[str, frozenset] = field(default_factory=dict)  # LOCAL + dotted name -> kinds
    shadows: tuple = ()  # folders of the tree holding a package named like MXNet's, taken as no MXNet
    outer: str = ""  # the packages on disk above the tree's top (`mxnet.gluon` for a tree of gluon/model_zoo)

    def absolute(self, level: int, module: Optional[str]) -> Optional[str]:
        """The module a relative import (`from ..common import x`: level 2) names."""
        if not self.module:
            return None
        parts = self.module.split(".") if self.is_package else self.module.split(".")[:-1]
        if level - 1 > len(parts) or (level - 1 == len(parts) and not module):
            return None
        base = parts[:len(parts) - (level - 1)]
        return ".".join(base + ([module] if module else []))

    def beyond(self, level: int, module: Optional[str]) -> Optional[str]:
        """The module a relative import names when it climbs out of the tree into the packages on
        disk around it (`from ...block import HybridBlock` in a tree of MXNet's gluon/model_zoo is
        mxnet.gluon.block): code that is not the tree's own. None when it stays in the tree, or
        nothing around the tree is a package."""
        if not self.module or not self.outer:
            return None
        parts = self.module.split(".") if self.is_package else self.module.split(".")[:-1]
        if level - 1 < len(parts):
            return None
        around = self.outer.split(".") + parts
        if level - 1 > len(around) or (level - 1 == len(around) and not module):
            return None
        base = around[:len(around) - (level - 1)]
        return ".".join(base + ([module] if module else [])) or None

    def localize(self, dotted: str) -> str:
        return LOCAL + dotted if dotted.split(".", 1)[0] in self.local_roots else dotted
