"""What MXNet 1.9.1 itself has: its modules' public names, a few classes' members, NDArray's fluent methods.

Note [MXNet's own names]
A name resolved into MXNet that no rule matches is one of two things. Either MXNet 1.9.1 has it
and xlate has no rule for it yet (MX900), or MXNet 1.9.1 does not have it at all: an operator
of a fork built on MXNet's package names (BMXNet's binary layers `nn.QConv2D`, `nn.QDense`,
`nn.QActivation`, `nn.activated_conv` and the array method `det_sign`), an API of another
MXNet version, or a typo. The second kind has no translation to look for: its semantics live
in the fork's C++ code, which xlate cannot read, and its program fails under MXNet 1.9.1 too.
So it is reported at its line with its own code (MX917), and counted as its own cause.

The converter never imports mxnet, so it reads these names from `mxnet_api.txt`, written by
`python -m xlate.check.api_inventory` from the installed mxnet 1.9.1 (tests/test_mx_api.py
compares the two). Only a name whose parent is a module (or a class) of that list is judged:
an attribute of something else (`nn.Conv2D.foo`, a re-export spelled through an alias MXNet
does not bind) is never called absent.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Optional

NDARRAY = "mxnet.ndarray.NDArray"
_FILE = Path(__file__).with_name("mxnet_api.txt")


@lru_cache(maxsize=1)
def _tables() -> tuple[dict, dict]:
    members: dict[str, frozenset] = {}  # a module's or class's dotted name -> its public names
    fluent: dict[str, str] = {}
    for line in _FILE.read_text(encoding="utf-8").splitlines():
        kind, _, rest = line.partition(" ")
        if kind in ("module", "class"):
            name, *names = rest.split()
            members[name] = frozenset(names)
        elif kind == "fluent":
            fluent.update(pair.split("=", 1) for pair in rest.split())
    return members, fluent


def known_parent(resolved: str) -> bool:
    """`resolved` (a canonical `mxnet.` name) is a module or class MXNet 1.9.1's inventory lists."""
    return resolved in _tables()[0]


def absent(resolved: str) -> bool:
    """True when `resolved` (a canonical `mxnet.` name) names a member MXNet 1.9.1's module or
    class lacks; False when it has it, or when its parent is no module or class of the list."""
    parent, _, name = resolved.rpartition(".")
    if not resolved.startswith("mxnet.") or name.startswith("_"):
        return False
    known = _tables()[0].get(parent)
    return known is not None and name not in known


def array_method(name: str) -> bool:
    """NDArray has a public method or property `name` in MXNet 1.9.1."""
    return name in _tables()[0][NDARRAY]


def fluent_op(name: str) -> Optional[str]:
    """The operator NDArray's method `name` calls with the array first (`x.clip(0, 1)` is
    `nd.clip(x, 0, 1)`), or None."""
    return _tables()[1].get(name)


def not_in_mxnet(dotted: str) -> str:
    """MX917's message for `dotted` (an MXNet name, or `NDArray.method`), naming the parent's
    names it is a likely typo of (Note [a likely typo])."""
    close = close_names(dotted)
    if close:
        names = " or ".join(f"`{n}`" for n in close)
        return (f"`{dotted}` is not in MXNet 1.9.1, so the line fails under MXNet too: a typo of {names}? xlate "
                "translates no guess; correct the name in the original and convert again, or port what it computes "
                "by hand")
    return (f"`{dotted}` is not in MXNet 1.9.1 (an operator of a fork built on MXNet, such as BMXNet's binary layers, "
            "or another version's API): there is nothing to translate it from; port what it computes by hand")


# Note [a likely typo]
# A name MXNet 1.9.1 lacks is sometimes a misspelling of one it has: GluonOCR's CIoU loss calls
# `F.devide` (for `divide`) on a branch its own training never took. MX917's message names the
# parent's public names within difflib's ratio 0.8 of it, as a question: the call fails under
# MXNet too, and translating the guess would make the converted program run where the original
# raised, so the item stays manual and nothing is translated. A fork's operator is often MXNet's
# name with a letter in front (BMXNet's `QConv2D`, `QActivation`): calling it a typo of `Conv2D`
# would invite the very guess MX917 refuses (a plain convolution for a binary one), so only names
# that begin with the same letter (any case) are offered, and none the name merely contains.
def close_names(dotted: str) -> list[str]:
    """Public names of `dotted`'s parent (a module or class of the inventory, or NDArray for
    `NDArray.method`) close to its last part; at most two, closest first."""
    import difflib

    parent, _, name = dotted.rpartition(".")
    known = _tables()[0].get(NDARRAY if parent == "NDArray" else parent)
    if not known or not name:
        return []
    pool = sorted(n for n in known if not n.startswith("_") and n[:1].lower() == name[:1].lower() and n not in name)
    return difflib.get_close_matches(name, pool, n=2, cutoff=0.8)


# Note [libraries built on MXNet]
# GluonCV and gluonnlp are MXNet code: 0.10 imports mxnet at its top (GluonCV's own torch side,
# gluoncv.torch, is another API and refuses torch 2), so a call into them that no rule translates
# cannot stay as it is. Their source converts as any Gluon package does (GluonCV 0.10's model zoo
# and gluonnlp 0.10's package import and match MXNet converted: bench/README.md), and a package
# of the tree being converted is the tree's own code, never MXNet's (Note [package facts]). So the
# report says how to take the library along: copy the package into the tree.
_LIBRARIES = {"gluoncv": "GluonCV", "gluonnlp": "gluonnlp"}


def no_rule(resolved: str) -> str:
    """MX900's message for `resolved`, a name MXNet's side has and no rule translates."""
    top = resolved.partition(".")[0]
    library = _LIBRARIES.get(top)
    if library is None:
        return f"`{resolved}` has no rule yet: translate it by hand"
    return (f"`{resolved}` has no rule: {library} runs on MXNet only; copy the `{top}` package you use (its folder "
            f"in site-packages) into the tree you convert, and xlate converts it with your code "
            "(README: libraries built on MXNet), or translate this call by hand")

