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


# the modules and subpackages of MXNet 1.9.1's `mxnet` package (pkgutil.iter_modules, measured; the
# private ones left out), and the aliases it binds (nd, sym, np, npx)
MXNET_MODULES = frozenset(
    "attribute autograd base callback context contrib engine error executor executor_manager gluon image initializer "
    "io kvstore library log lr_scheduler metric model module monitor name ndarray nd notebook numpy numpy_extension "
    "onnx operator optimizer profiler random recordio registry rnn rtc runtime space symbol sym test_utils util "
    "visualization np npx".split())

LOCAL = "@"  # the prefix of a name that is the converted tree's own code
# the fact key (LOCAL + module + BLOCKS_MODULE) saying a module of the tree defines or returns Gluon blocks
BLOCKS_MODULE = ".#blocks"
# the fact key (LOCAL + module + LENT) saying another module of the tree imports the module
# (Note [kept MXNet imports] in imports.py)
LENT = ".#lent"
ALIAS = "="  # a fact's kind that says the name is bound to this MXNet function (Note [module aliases])
REEXPORT = "^"  # a fact's kind: the module's top level imports this MXNet name (Note [re-exported MXNet names])


@dataclass(frozen=True)
class FileContext:
    """What one file of a tree knows beyond its own text."""

    module: str = ""  # its absolute dotted module name ('' when unknown: a lone file)
    is_package: bool = False  # an __init__.py
    local_roots: frozenset = frozenset()  # top-level import names that are the tree's own code
    facts: Mapping[str, frozenset] = field(default_factory=dict)  # LOCAL + dotted name -> kinds
    shadows: tuple = ()  # folders of the tree holding a package named like MXNet's, taken as no MXNet
    outer: str = ""  # the packages on disk above the tree's top (`mxnet.gluon` for a tree of gluon/model_zoo)
    # `outer` is no package on disk but a guess: the tree's top is named like a module of MXNet's
    # (Note [a tree of MXNet's own package] in package.py)
    outer_guessed: bool = False
    # where the tree is MXNet's own package (`outer` is `mxnet`): the MXNet names the catalogue
    # translates, and the modules holding them (Note [a tree of MXNet's own package])
    mxnet_names: frozenset = frozenset()
    # Note [bare-name imports of the tree]: a bare module name -> ((its package, the module), ...)
    # for the tree's modules below its top; and whether the file changes sys.path
    bare: Mapping[str, tuple] = field(default_factory=dict)
    path_changed: bool = False

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
        if self.outer_guessed and (not parts or parts[0] not in MXNET_MODULES):
            return None  # the guess is for a top named like one of MXNet's modules alone
        around = self.outer.split(".") + parts
        if level - 1 > len(around) or (level - 1 == len(around) and not module):
            return None
        base = around[:len(around) - (level - 1)]
        return ".".join(base + ([module] if module else [])) or None

    def own_mxnet(self, level: int, module: Optional[str], name: str, canonical=lambda d: d) -> Optional[str]:
        """The MXNet name a relative import inside a tree of MXNet's own package takes
        (`from ..block import HybridBlock` in gluon/nn: mxnet.gluon.block.HybridBlock), where the
        catalogue translates it (as spelt, or as `canonical`, names.canonical, documents it);
        None: the tree's own code, and every import of a package's __init__.py (it re-exports
        the tree's modules: `from . import nn` is `gluon.nn`)."""
        if not self.mxnet_names or self.is_package \
                or self.outer_guessed and self.module.split(".")[0] not in MXNET_MODULES:
            return None
        absolute = self.absolute(level, module)
        dotted = f"{self.outer}.{absolute + '.' if absolute else ''}{name}"
        return dotted if dotted in self.mxnet_names or canonical(dotted) in self.mxnet_names else None

    def reexported(self, level: int, module: Optional[str], name: str) -> Optional[str]:
        """The MXNet name `from <module> import <name>` takes where that module of the tree only
        imports it from MXNet (Note [re-exported MXNet names]); None otherwise."""
        absolute = self.absolute(level, module) if level else module
        if absolute and level == 0:
            local = self.localize(absolute)
            absolute = local[len(LOCAL):] if local.startswith(LOCAL) else None
        if not absolute:
            return None
        kinds = self.facts.get(f"{LOCAL}{absolute}.{name}") or ()
        kind = next(iter(kinds)) if len(kinds) == 1 else ""
        return kind[len(REEXPORT):] if kind.startswith(REEXPORT) else None

    def localize(self, dotted: str) -> str:
        """The tree's module an absolute import names (behind LOCAL), or `dotted` unchanged."""
        head = dotted.split(".", 1)[0]
        if head in self.local_roots:
            return LOCAL + dotted
        found = self.bare.get(head)
        if found and self.module:
            own = self.module if self.is_package else self.module.rpartition(".")[0]
            pick = [d for p, d in found if p == own] or ([found[0][1]] if self.path_changed and len(found) == 1 else [])
            if len(pick) == 1:
                return LOCAL + pick[0] + dotted[len(head):]
        return dotted


# Note [bare-name imports of the tree]
# Research code imports its own modules by bare name from below the tree's top: `from
# oneshot_nas_blocks import SE` beside the importing module (run as a script from its folder,
# whose folder Python puts first on sys.path, or written for Python 2's implicit relative
# imports), or `sys.path.append(parent); from oneshot_nas_network import get_net` from a
# subfolder. Taken for third-party modules, their names had no kinds: a module using the
# imported factory's blocks without importing MXNet came back unchanged, with nothing
# reported at `.collect_params()`. A bare name that no top-level name of the tree takes is the
# tree's module of that name in the importing module's own package; failing that, where the
# file changes sys.path itself, the tree's only module of that name. The standard library's
# names and MXNet's are never taken (`bare_modules`).
