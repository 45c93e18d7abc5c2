"""MXNet left in a converted tree, and whether the report says so at that line (used by
bench/model_zoo.py on real code and by the property tests on generated and fixture programs).

Note [silent misses]
A silent miss is an MXNet construct still in the converted output with no report at its
line. The output is read with xlate's own name resolution (`xlate.convert.names.Analysis`,
one `ast` pass), and five kinds of leftovers are collected:
  import       an `import`/`from` of mxnet or gluonnlp that stayed;
  mxnet        a name or attribute chain that still resolves to mxnet/gluonnlp (`mx.nd.foo`,
               `nn.HybridBlock`, hybrid_forward's `F.xxx` where `F` is still MXNet's);
  no-torch     a chain that resolves to a torch name torch does not have (`F.contrib.X`,
               where the converter made `F` torch.nn.functional but left an MXNet operator);
  undefined    a name the converted file uses and defines nowhere, where the original
               defined it (hybrid_forward's `F` after its parameter went: `F.contrib.X`);
  gluon-api    attributes only a Gluon object has (`x.asnumpy()`, `self._children`,
               `self.params.get`, `net.collect_params()`; a method's name only where it is
               called: `args.hybridize` is a configuration's flag), a method still named
               `hybrid_forward` in a class with no forward (torch never calls it; beside
               the class's own forward, which calls it, it is the class's method), and
               `.add(...)` on anything the file
               does not assign a set to (Sequential.add: torch has no such method).
A tree's own package (gluoncv, when converting GluonCV) is not MXNet: pass its name in
`local` and its references count as the converted tree's own code.

Report lines are lines of the ORIGINAL file, so output lines are mapped back by aligning the
two files' stripped lines (difflib). In a block the converter changed, a line maps to the
original line with the same text, else to the line at the same position when the block kept
its length, else to the most similar lines (ratio >= 0.4); a line like none of them is
xlate's own (a pasted helper) or merges several (`.add` lines made one `extend`): it has no
original line. A leftover counts as reported when the report has a `manual` or `review` item
at its original line or on another line of the same statement (for an import: any item
there), or, without an original line, anywhere in the changed block. Of the silent ones,
"only fixed there" counts those whose line the report calls fixed, and "near" those with a
manual/review item within two lines. Files the converter left unchanged without a single
report are skipped (no MXNet was found there).

The heuristics are the harness's, not xlate's: they can miss (a Gluon object reached through
a variable) and, for `gluon-api`, over-count a user class that defines the same name.
"""
from __future__ import annotations

import ast
import builtins
import difflib
import importlib
from bisect import bisect_right
from dataclasses import dataclass
from typing import Optional

from xlate.convert import names

MX_ROOTS = ("mxnet", "gluonnlp", "gluoncv")
GLUON_ONLY_ATTRS = frozenset(
    "asnumpy asscalar as_in_context as_in_ctx attach_grad collect_params hybridize name_scope "
    "register_child reset_ctx list_ctx set_data wait_to_read tostype _children _reg_params "
    "hybrid_forward infer_shape infer_type optimize_for register_op_hook".split())
# the attributes of these that are no methods; a method name read without a call is no leftover (a
# configuration's `args.hybridize` flag, gluonts' `trainer.hybridize`)
GLUON_ONLY_DATA = frozenset({"_children", "_reg_params"})


@dataclass
class Leftover:
    path: str  # relative to the tree
    out_line: int
    in_line: Optional[int]
    kind: str
    name: str
    text: str  # the output line, stripped
    reported: bool = False
    only_fixed: bool = False  # the report has items at that line, all `fixed`
    near: bool = False  # not reported at its line, but a manual/review item is within 2 lines


def _scoped_nodes(tree: ast.Module):
    """(scope key, node) for every node, with the scope keys names.Analysis uses."""
    stack = [((), tree, {})]
    while stack:
        key, node, counts = stack.pop()
        children = list(ast.iter_child_nodes(node))
        pending = []
        for child in children:
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                yield key, child
                for sub in child.decorator_list + getattr(child, "bases", []) + \
                        [k.value for k in getattr(child, "keywords", [])]:
                    pending.append((key, sub, counts))
                if not isinstance(child, ast.ClassDef):
                    for d in child.args.defaults + [d for d in child.args.kw_defaults if d is not None]:
                        pending.append((key, d, counts))
                n = counts.get(child.name, 0)
                counts[child.name] = n + 1
                inner = key + ((child.name, n),)
                body = ast.Module(body=child.body, type_ignores=[])
                pending.append((inner, body, {}))
            else:
                yield key, child
                pending.append((key, child, counts))
        stack.extend(reversed(pending))


def _chain(node: ast.Attribute) -> Optional[str]:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return ".".join([node.id] + parts[::-1])
    return None


_TORCH_CACHE: dict = {}


def _torch_has(dotted: str) -> bool:
    if dotted not in _TORCH_CACHE:
        parts = dotted.split(".")
        obj, ok = None, True
        for i in range(len(parts), 0, -1):  # the longest importable module, then attributes
            try:
                obj = importlib.import_module(".".join(parts[:i]))
                rest = parts[i:]
                break
            except ImportError:
                continue
        else:
            ok = False
            rest = []
        for attr in rest:
            if not ok:
                break
            if not hasattr(obj, attr):
                ok = False
            else:
                obj = getattr(obj, attr)
        _TORCH_CACHE[dotted] = ok
    return _TORCH_CACHE[dotted]


def _bound(tree: ast.Module) -> Optional[set]:
    """Every name the file binds anywhere (any scope); None with a star import (unknowable)."""
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                if a.name == "*":
                    return None
                bound.add(a.asname or a.name.split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            bound.update(node.names)
        elif hasattr(ast, "MatchAs") and isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            bound.add(node.name)
    return bound


def _undefined(tree: ast.Module) -> set:
    bound = _bound(tree)
    if bound is None:
        return set()
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
            and n.id not in bound and n.id not in BUILTINS}


BUILTINS = frozenset(dir(builtins)) | {"__file__", "__name__", "__doc__", "__spec__", "__path__", "__package__"}


def leftovers(source: str, path: str, original: str = "", local: frozenset = frozenset()) -> list[Leftover]:
    """MXNet constructs left in one converted file (output line numbers). With the original
    text, names the converted file uses but never defines (hybrid_forward's `F` once its
    parameter is gone) count too, unless the original did not define them either."""
    try:
        tree = ast.parse(source)
    except SyntaxError as e:
        return [Leftover(path, e.lineno or 1, None, "syntax", f"does not parse: {e.msg}", "")]
    _hollow_helpers(tree)
    try:
        undefined = _undefined(tree) - _undefined(ast.parse(original)) if original else set()
    except SyntaxError:
        undefined = set()
    analysis = names.Analysis(tree)
    MX = tuple(r for r in MX_ROOTS if r not in local)
    lines = source.splitlines()
    found: list[Leftover] = []

    def add(node, kind, name):
        text = lines[node.lineno - 1].strip() if node.lineno <= len(lines) else ""
        found.append(Leftover(path, node.lineno, None, kind, name, text))

    sets = _sets(tree)
    adders = {c.name for c in ast.walk(tree) if isinstance(c, ast.ClassDef)
              for n in c.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == "add"}
    if adders:  # `self.add(...)` calls the class's own method, so does `net.add(...)` on `net = OwnClass()`
        sets.add("self")
        sets.update(t.id for a in ast.walk(tree) if isinstance(a, ast.Assign) and isinstance(a.value, ast.Call)
                    and isinstance(a.value.func, ast.Name) and a.value.func.id in adders
                    for t in a.targets if isinstance(t, ast.Name))
    parents: dict[int, ast.AST] = {}
    for parent in ast.walk(tree):
        for child in ast.iter_child_nodes(parent):
            parents[id(child)] = parent
    for key, node in _scoped_nodes(tree):
        if key and key[0][0].startswith("_mx_"):
            continue  # a pasted helper: xlate's own torch code, whose methods keep MXNet's names
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] in MX:
                    add(node, "import", a.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module and node.module.split(".")[0] in MX:
                add(node, "import", node.module)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "hybrid_forward" \
                and not _beside_forward(node, parents):
            add(node, "gluon-api", "def hybrid_forward")
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in undefined:
            top = node
            while isinstance(parents.get(id(top)), ast.Attribute) and parents[id(top)].value is top:
                top = parents[id(top)]
            add(node, "undefined", (_chain(top) if top is not node else None) or node.id)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            top = node
            while isinstance(parents.get(id(top)), ast.Attribute) and parents[id(top)].value is top:
                top = parents[id(top)]
            dotted = _chain(top) if top is not node else node.id
            if dotted is None:
                continue
            resolved = analysis.resolve(key, dotted)
            if not resolved or resolved is names.AMBIGUOUS:
                continue
            root = resolved.split(".")[0]
            if root in MX:
                add(node, "mxnet", resolved)
            elif root == "torch" and not _torch_has(resolved):
                # a call on a missing name is the name; strip nothing else
                add(node, "no-torch", resolved)
        elif isinstance(node, ast.Attribute):
            if _other_module(analysis, key, node.value, MX):
                continue  # `np.asscalar(x)`: NumPy's own function of that name, not an NDArray's method
            if node.attr in GLUON_ONLY_ATTRS and node.attr != "hybrid_forward" and (
                    node.attr in GLUON_ONLY_DATA or isinstance(parents.get(id(node)), ast.Call)
                    and parents[id(node)].func is node):
                add(node, "gluon-api", f".{node.attr}")
            elif node.attr == "get" and isinstance(node.value, ast.Attribute) and node.value.attr == "params":
                add(node, "gluon-api", ".params.get")
            elif node.attr == "add" and isinstance(parents.get(id(node)), ast.Call) \
                    and parents[id(node)].func is node and ast.unparse(node.value) not in sets:
                add(node, "gluon-api", ".add(...)")
    return found


def _other_module(analysis, key, receiver: ast.AST, mx_roots: tuple) -> bool:
    """The receiver is an import of another library (`np` for numpy): its attributes are its own."""
    dotted = _chain(receiver) if isinstance(receiver, ast.Attribute) else getattr(receiver, "id", None)
    if dotted is None:
        return False
    resolved = analysis.resolve(key, dotted)
    return bool(resolved) and resolved is not names.AMBIGUOUS and resolved.split(".")[0] not in mx_roots


def _hollow_helpers(tree: ast.Module) -> None:
    """Empty the bodies of the pasted helpers (top-level `_mx_*` functions and classes), in place.

    They are xlate's own torch code and never leftovers (see the `_mx_` skip below), but a
    single-file output carries a thousand lines of them for a script of twenty-five, and every
    walk below would cross them: the analysis took six times as long as the conversion. Their
    names stay bound; names bound only inside their bodies no longer hide a name the user's
    code reads and never defines."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name.startswith("_mx_"):
            node.body = [ast.Pass(lineno=node.lineno, col_offset=node.col_offset,
                                  end_lineno=node.lineno, end_col_offset=node.col_offset)]


def _sets(tree: ast.Module) -> set[str]:
    """Targets (as written: `seen`, `self.keep`) that the file assigns a set to: their `.add` is
    a set's. Any other `.add(...)` is taken for Gluon's Sequential.add, which torch lacks (a
    tensor's `add` would be over-counted; the converter writes `+`)."""
    found = set()
    for node in ast.walk(tree):
        value = getattr(node, "value", None)
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and (
                isinstance(value, (ast.Set, ast.SetComp))
                or (isinstance(value, ast.Call) and getattr(value.func, "id", "") in ("set", "frozenset"))):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found.update(ast.unparse(t) for t in targets)
    return found


class LineMap:
    """Output line -> original line(s), by aligning stripped lines."""

    def __init__(self, original: str, converted: str):
        self.a = [ln.strip() for ln in original.splitlines()]
        self.b = [ln.strip() for ln in converted.splitlines()]
        ops = difflib.SequenceMatcher(None, self.a, self.b, autojunk=False).get_opcodes()
        self.ops = [op for op in ops if op[0] != "delete"]
        self.starts = [op[3] for op in self.ops]

    def candidates(self, out_line: int) -> list[int]:
        j = out_line - 1
        k = bisect_right(self.starts, j) - 1
        if k < 0:
            return []
        tag, i1, i2, j1, j2 = self.ops[k]
        if not (j1 <= j < j2):
            return []
        if tag == "equal":
            return [i1 + (j - j1) + 1]
        if tag == "insert":  # lines the converter added (helpers): no original line
            return []
        same = [i + 1 for i in range(i1, i2) if self.a[i] == self.b[j]]
        if same:
            return same
        if i2 - i1 == j2 - j1:  # as many lines as before: each one rewritten in place
            return [i1 + (j - j1) + 1]
        # otherwise the most similar original lines; none for xlate's own lines (helpers)
        scored = sorted(((difflib.SequenceMatcher(None, self.a[i], self.b[j]).ratio(), i) for i in range(i1, i2)),
                        reverse=True)
        return [i + 1 for ratio, i in scored if ratio >= 0.4]

    def block(self, out_line: int) -> list[int]:
        """Every original line of the changed block around `out_line` (several original lines
        the converter merged into one: `.add(a)` lines into one `extend([...])`)."""
        k = bisect_right(self.starts, out_line - 1) - 1
        if k < 0 or self.ops[k][0] != "replace" or not (self.ops[k][3] <= out_line - 1 < self.ops[k][4]):
            return []
        return list(range(self.ops[k][1] + 1, self.ops[k][2] + 1))


def statement_lines(source: str) -> dict[int, range]:
    """Original line -> the lines of the innermost statement holding it (for a compound
    statement, its header): an item reported at a statement's first line is at its line."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    spans: dict[int, range] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt):
            continue
        body = getattr(node, "body", None)
        end = (body[0].lineno - 1) if isinstance(body, list) and body and isinstance(body[0], ast.stmt) \
            else node.end_lineno
        span = range(node.lineno, max(node.lineno, end) + 1)
        for line in span:
            if line not in spans or len(span) < len(spans[line]):
                spans[line] = span
    return spans


def find(originals: dict[str, str], converted: dict[str, str], diagnostics: dict[str, list[dict]],
         local: frozenset = frozenset()) -> list[Leftover]:
    """Every leftover in the converted tree with its original line and whether it is reported.
    Keys of all three dicts: paths relative to the tree; `local`: the tree's own packages."""
    out: list[Leftover] = []
    for rel, text in sorted(converted.items()):
        if text == originals.get(rel) and not diagnostics.get(rel):
            continue  # no MXNet found there (gluoncv/torch is PyTorch code already)
        found = leftovers(text, rel, originals.get(rel, ""), local)
        if not found:
            continue
        lm = LineMap(originals.get(rel, ""), text)
        spans = statement_lines(originals.get(rel, ""))
        by_line: dict[int, list[dict]] = {}
        for d in diagnostics.get(rel, []):
            by_line.setdefault(d["line"], []).append(d)
        for lo in found:
            cands = lm.candidates(lo.out_line)
            lo.in_line = cands[0] if cands else None
            cands = cands or lm.block(lo.out_line)
            cands = sorted({ln for c in cands for ln in spans.get(c, [c])})
            ds = [d for c in cands for d in by_line.get(c, [])]
            if lo.kind == "import":
                lo.reported = bool(ds)
            else:
                lo.reported = any(d["status"] != "fixed" for d in ds)
                lo.only_fixed = bool(ds) and not lo.reported
            if not lo.reported and lo.in_line:
                lo.near = any(d["status"] != "fixed" for k in range(lo.in_line - 2, lo.in_line + 3)
                              for d in by_line.get(k, []))
            if lo.reported and len(cands) > 1:  # a changed block: take the line that is reported
                lo.in_line = next(c for c in cands if any(d["status"] != "fixed" or lo.kind == "import"
                                                          for d in by_line.get(c, [])))
            out.append(lo)
    return out


def _beside_forward(fn: ast.AST, parents: dict) -> bool:
    """A method of a class that defines `forward` too (Note [explicit base calls]), or inherits it from
    a class of the same file (sockeye's `Encoder.forward` calls `self.hybrid_forward(...)`, which each
    encoder defines)."""
    cls = parents.get(id(fn))
    if not isinstance(cls, ast.ClassDef):
        return False
    module = parents.get(id(cls))
    classes = {n.name: n for n in getattr(module, "body", []) if isinstance(n, ast.ClassDef)}
    todo, seen = [cls], set()
    while todo:
        c = todo.pop()
        if c.name in seen:
            continue
        seen.add(c.name)
        if any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == "forward" for n in c.body):
            return True
        todo += [classes[b.id] for b in c.bases if isinstance(b, ast.Name) and b.id in classes]
    return False
