"""The rule catalogue: TOML files in ``rules/`` loaded into frozen dataclasses.

This is the only module that knows where rules live (the ``rules/`` directory of a
source checkout, or ``xlate/rules`` inside an installed wheel).
"""
from __future__ import annotations

import functools
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

APPLICABILITIES = ("safe", "review", "manual")
KINDS = ("call", "reference", "assign", "def", "operator", "type", "import", "report")
CODE_RE = re.compile(r"^MX\d{3}$")
# Codes of rules that were removed; a code is never reused, so these stay refused.
RETIRED = {
    "MX145": "a norm class used as a value was manual; MX140-MX144 translate it (Gluon-signature helpers)",
}

# Families by hundreds (STYLE.md): the catalogue file a code lives in must agree.
FAMILIES = {
    0: "imports and NDArray",
    1: "gluon.nn layers",
    2: "recurrent layers",
    3: "transformer and attention",
    4: "losses",
    5: "training loop, devices and seeds",
    6: "hybridize, export and io",
    7: "numpy dialect: mx.np / mx.npx",
    # 0xx ran out of codes (five left); operators that are neither plain NDArray methods nor numpy-dialect
    # functions continue here.
    8: "operators, continued: sampling, linear algebra, contrib and control flow",
    9: "report only",
}


# kinds whose rules match names; a "type" rule matches an MXNet class where it stands as a type
# (an annotation, isinstance's classes, an except clause: Note [type positions] in types.py)
_MATCHING = ("call", "reference", "assign", "def", "operator", "type")


class CatalogueError(ValueError):
    pass


@dataclass(frozen=True)
class Example:
    before: str
    after: str
    # Other rules the example needs on (to make a receiver a known NDArray, say).
    also: tuple[str, ...] = ()
    # A tree around the file, where the rule needs one: folders holding a package named like
    # MXNet's (FileContext.shadows)
    shadows: tuple[str, ...] = ()
    # other FileContext fields, as (name, value) pairs: the file's module, the packages around the tree
    context: tuple[tuple[str, object], ...] = ()


@dataclass(frozen=True)
class Param:
    """How one MXNet argument maps onto the PyTorch call (see Note [argument mapping])."""

    name: str
    to: str | int | None = None  # keyword name, positional index, or None = dropped
    default: str | None = None  # source text emitted when MXNet's default differs
    drop_if: tuple[str, ...] = ()  # source texts for which the argument is dropped
    manual: bool = False  # any use of this argument needs a human
    convert: str | None = None  # value converter (xlate.convert.table.CONVERTERS), e.g. "dtype"


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    summary: str
    notes: str
    applicability: str
    kind: str
    matches: tuple[str, ...]
    examples: tuple[Example, ...]
    target: str | None = None
    transform: str | None = None
    signature: tuple[str, ...] = ()
    params: Mapping[str, Param] = field(default_factory=dict)
    receiver: str = "any"  # methods: "any" (an MXNet-only method) or "ndarray" (numpy has it too)
    unknown: str = "report"  # a method on a receiver of unknown type: "report" it or "leave" it
    # the helper a method call on a receiver xlate cannot type goes to, receiver first, then the
    # call's own arguments (Note [untyped receivers] in xlate/convert/untyped.py)
    untyped: str | None = None
    # Note [Gluon-signature modules] (xlate/runtime/layers.py): the helper that takes the Gluon
    # class's own arguments, used where the call's values are only known at run time, where the
    # class is passed as a value or subclassed; and the torch class every translation of the
    # layer is an instance of (what `isinstance(m, nn.Dense)` tests)
    # ({name} stands for the matched class's own name: `_mx_{name}` -> `_mx_Conv2D`; a table
    # gives instance_of per class name)
    runtime: str | Mapping[str, str] | None = None
    instance_of: str | Mapping[str, str] | None = None
    # a method whose arguments are only known at run time (`x.astype(*args, **kwargs)`, d2l's
    # `astype = lambda x, *args, **kwargs: ...`): the helper that takes the receiver first and the
    # method's own signature after it, called with the arguments as written (defaults to `untyped`:
    # that helper has the method's signature too)
    method_runtime: str | None = None
    # Note [functions as values] (xlate/convert/func_values.py): per matched function's own name,
    # the parameters (MXNet's names, order and defaults, as a Python parameter list) that the
    # function's translation takes when it is passed or bound as a value (`zeros = np.zeros`)
    as_value: Mapping[str, str] = field(default_factory=dict)
    # a member reference rule that also applies inside a longer chain (`self._children.values()`)
    chained: bool = False
    # Note [keywords MXNet ignores] (xlate/convert/rulectx.py): the operators have no parameters at all
    ignores_keywords: bool = False
    family_file: str = ""

    @property
    def family(self) -> int:
        return int(self.code[2])

    def runtime_for(self, matched: str) -> str | None:
        short = matched.rsplit(".", 1)[-1]
        if isinstance(self.runtime, Mapping):  # one helper per operator the rule matches
            return self.runtime.get(short)
        return self.runtime.replace("{name}", short) if self.runtime else None

    def instance_for(self, matched: str) -> str | None:
        short = matched.rsplit(".", 1)[-1]
        if isinstance(self.instance_of, Mapping):
            return self.instance_of.get(short)
        return self.instance_of.replace("{name}", short) if self.instance_of else None


# Note [argument mapping]
# A table-driven rule binds the call's arguments to MXNet's parameter names using
# `signature` (positional order; "*name" collects varargs). Each bound argument is then
# emitted as `params[name].to`: an int is a positional slot, a string a keyword. A
# parameter absent from the call but carrying `default` is emitted with that value,
# because the two frameworks disagree on the default (nd.concat's dim=1). A parameter
# not listed in `params` but present in `signature` passes through under its own name
# only if it is listed; anything else unknown makes the call `manual`. The one exception is
# `name=` on an MXNet operator (a rule matching mxnet.ndarray/symbol names): it only names the
# operator's node in the symbol graph, so binding drops it (rulectx.names_node).


def _rules_dir() -> Path:
    package = Path(__file__).resolve().parent.parent  # xlate/
    installed = package / "rules"
    return installed if installed.is_dir() else package.parent / "rules"


def _param(name: str, spec: Any) -> Param:
    if isinstance(spec, (str, int)):
        return Param(name, to=spec)
    if not isinstance(spec, dict):
        raise CatalogueError(f"parameter {name!r}: expected a table, string or int")
    drop_if = spec.get("drop_if", ())
    return Param(
        name,
        to=spec.get("to"),
        default=spec.get("default"),
        drop_if=tuple(drop_if) if isinstance(drop_if, list) else (drop_if,),
        manual=bool(spec.get("manual", False)),
        convert=spec.get("convert"),
    )


def _rule(entry: dict[str, Any], source: str) -> Rule:
    where = f"{source}: rule {entry.get('code', '?')}"
    missing = [k for k in ("code", "name", "summary", "applicability", "kind") if k not in entry]
    if missing:
        raise CatalogueError(f"{where}: missing {', '.join(missing)}")
    examples = tuple(Example(e["before"], e["after"], tuple(e.get("with", ())), tuple(e.get("shadows", ())),
                             tuple(sorted(e.get("context", {}).items())))
                     for e in entry.get("examples", ()))
    matches = entry.get("matches", ())
    return Rule(
        code=entry["code"],
        name=entry["name"],
        summary=entry["summary"].strip(),
        notes=entry.get("notes", "").strip(),
        applicability=entry["applicability"],
        kind=entry["kind"],
        matches=tuple([matches] if isinstance(matches, str) else matches),
        examples=examples,
        target=entry.get("target"),
        transform=entry.get("transform"),
        signature=tuple(entry.get("signature", ())),
        params={k: _param(k, v) for k, v in entry.get("params", {}).items()},
        receiver=entry.get("receiver", "any"),
        unknown=entry.get("unknown", "report"),
        untyped=entry.get("untyped"),
        runtime=entry.get("runtime"),
        instance_of=entry.get("instance_of"),
        # the untyped-receiver helper takes the method's own signature too, so it is also the one
        # forwarded arguments go to unless the rule names another
        method_runtime=entry.get("method_runtime") or entry.get("untyped"),
        as_value=dict(entry.get("as_value", {})),
        chained=bool(entry.get("chained", False)),
        ignores_keywords=bool(entry.get("ignores_keywords", False)),
        family_file=source,
    )


def validate(rules: tuple[Rule, ...]) -> list[str]:
    """Problems that make a catalogue unusable; the meta-tests assert this is empty."""
    problems = []
    seen: dict[str, str] = {}
    for r in rules:
        where = f"{r.family_file}: {r.code}"
        if not CODE_RE.match(r.code):
            problems.append(f"{where}: code must be MX + 3 digits")
        elif r.family not in FAMILIES:
            problems.append(f"{where}: no family {r.family}xx")
        elif r.family_file and not r.family_file.startswith(f"{r.family}xx_"):
            problems.append(f"{where}: a {r.family}xx code in another family's file")
        if r.code in RETIRED:
            problems.append(f"{where}: code retired ({RETIRED[r.code]}); codes are never reused")
        if r.code in seen:
            problems.append(f"{where}: duplicate code (also in {seen[r.code]})")
        seen[r.code] = r.family_file
        if r.applicability not in APPLICABILITIES:
            problems.append(f"{where}: applicability must be one of {APPLICABILITIES}")
        if r.kind not in KINDS:
            problems.append(f"{where}: kind must be one of {KINDS}")
        if not r.examples:
            problems.append(f"{where}: no before/after example")
        if r.applicability != "safe" and not r.notes:
            problems.append(f"{where}: a {r.applicability} rule needs notes")
        if r.kind in _MATCHING and not r.matches:
            problems.append(f"{where}: matches nothing")
        if r.kind in _MATCHING and not (r.target or r.transform) \
                and r.applicability != "manual":
            problems.append(f"{where}: needs a target or a transform")
        if (r.runtime or r.instance_of or r.method_runtime) and r.kind != "call":
            problems.append(f"{where}: only a call rule names a run-time helper")
        if isinstance(r.runtime, Mapping):
            missing = sorted({m.rsplit(".", 1)[-1] for m in r.matches if not m.startswith(".")} - set(r.runtime))
            if missing:
                problems.append(f"{where}: its runtime table names no helper for {', '.join(missing)}")
        if r.untyped and not (r.kind == "call" and all(m.startswith(".") for m in r.matches[:1])):
            problems.append(f"{where}: only a method call rule names an untyped-receiver helper")
        if r.unknown not in ("report", "leave") or r.receiver not in ("any", "ndarray"):
            problems.append(f"{where}: receiver/unknown have unknown values")
        for p in r.params.values():
            if p.name not in {s.lstrip("*") for s in r.signature} and r.signature:
                problems.append(f"{where}: parameter {p.name} is not in the signature")
    claimed: dict[tuple, str] = {}  # one rule per (kind, matched name): a second would be shadowed
    for r in rules:
        for m in r.matches if r.kind in _MATCHING else ():
            other = claimed.setdefault((r.kind, m), r.code)
            if other != r.code:
                problems.append(f"{r.family_file}: {r.code}: {r.kind} `{m}` is already matched by {other}")
    names = [r.name for r in rules]
    for n in sorted({n for n in names if names.count(n) > 1}):
        problems.append(f"rule name {n!r} is used twice")
    return problems


def read(directory: str | None = None) -> tuple[Rule, ...]:
    """Every rule in the catalogue, unchecked (the meta-tests check them)."""
    root = Path(directory) if directory else _rules_dir()
    rules: list[Rule] = []
    for path in sorted(root.glob("*.toml")):
        with path.open("rb") as fh:
            data = tomllib.load(fh)
        rules.extend(_rule(entry, path.name) for entry in data.get("rule", ()))
    return tuple(rules)


@functools.lru_cache(maxsize=None)
def load(directory: str | None = None) -> tuple[Rule, ...]:
    rules = read(directory)
    problems = validate(rules)
    if problems:
        raise CatalogueError("invalid rule catalogue:\n  " + "\n  ".join(problems))
    return tuple(sorted(rules, key=lambda r: r.code))


def by_code() -> dict[str, Rule]:
    return {r.code: r for r in load()}


class RuleSet:
    """The catalogue indexed the way the transformer looks rules up.

    Keys are canonical MXNet names (`mxnet.ndarray.sum`) or, for methods and attributes
    on arrays, the member name with a leading dot (`.sum`). `assigns` holds the rules for
    assignments to an attribute (`p.grad_req = 'null'`), keyed `.grad_req`; `defs` the rules for
    methods of Gluon classes, keyed by the method's name (`hybrid_forward`); `classes` the
    call rules of Gluon classes with a Gluon-signature helper, for the class used as a value;
    `operators` the rules for Python operators on arrays, keyed by the operator (`==`); `types`
    the rules for an MXNet class where it stands as a type (Note [type positions]).
    """

    def __init__(self, rules: Iterable[Rule], enabled: Callable[[str], bool]):
        self.calls: dict[str, Rule] = {}
        self.references: dict[str, Rule] = {}
        self.assigns: dict[str, Rule] = {}
        self.defs: dict[str, Rule] = {}
        self.classes: dict[str, Rule] = {}
        self.operators: dict[str, Rule] = {}
        self.types: dict[str, Rule] = {}
        self.all = {r.code: r for r in rules}
        self.enabled = enabled
        for r in rules:
            index = {"call": self.calls, "reference": self.references, "assign": self.assigns,
                     "def": self.defs, "operator": self.operators, "type": self.types}.get(r.kind)
            if index is not None:
                for m in r.matches:
                    index[m] = r
            if r.runtime:
                for m in r.matches:
                    self.classes[m] = r
        # MXNet-only methods that prove a comparison they reduce an NDArray's (compare_dtype.in_chain)
        self.chain_methods = frozenset(m[1:] for m, r in self.calls.items()
                                       if m.startswith(".") and (r.untyped or m == ".asscalar"))
