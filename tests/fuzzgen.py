"""Programs for fuzzing the converter, and what every conversion must satisfy.

hypothesmith writes odd but valid Python (tabs and form feeds in indentation, CRLF, comments
everywhere, walruses, decorators, `global`, deep nesting); MXNet is spliced into it: an
MXNet expression in place of a name that is read, MXNet statements before statements at
their own indentation, and the imports on top. tests/test_fuzz.py runs a few hundred of
them in the suite, bench/fuzz.py thousands.

The checks (`problems`) are the engine's reliability promises: a conversion never crashes,
rejects only what Python or LibCST rejects, writes code that compiles, leaves no name
unbound that the input had bound, and a second pass over its output changes nothing and
reports nothing new.
"""
from __future__ import annotations

import ast
import builtins
import functools
import re
import symtable
import warnings
from typing import Callable, Optional

from hypothesis import assume
from hypothesis import strategies as st

IMPORTS = "import mxnet as mx\nfrom mxnet import nd, gluon\n"

# In place of a name that is read: `{v}` is another name the program reads.
EXPRESSIONS = [
    "nd.array([1, 2])", "nd.array({v})", "mx.nd.zeros((2, 3))", "nd.ones({v})", "mx.gpu(0)", "mx.cpu()",
    "mx.nd.zeros", "nd.relu", "mx.nd.ones", "nd.where({v}, {v}, {v})", "{v}.asnumpy()",
    "nd.concat({v}, {v}, dim=0)", "nd.random.randint(0, {v}, shape=(2,)).astype('float32')",
    'nd.ones((2, 3)).astype("float16")', "nd.ones((2, 3)).mean().asscalar()", "nd.ones((2, 3)).reshape((0, -1))",
    "nd.dot({v}, {v})", "nd.softmax({v}, axis=-1)", "nd.split({v}, 2)", "nd.ones(2).sum()",
    "nd.broadcast_add({v}, {v})", "gluon.nn.Dense(3)", "-nd.ones(2)", "nd.ones(2) * 2",
    "(w_mx := nd.array([1]))", "nd.ones(2) if {v} else nd.zeros(2)", "lambda t: nd.relu(t)",
    "(nd.ones(2)\n + nd.zeros(2))", "mx.nd.ones((2,), ctx=mx.gpu(0))", "nd.ones((2, 3)).flatten()",
    "nd.array([[[[1]]]])", "nd.ones((2, 3)).copy().copy()", "{v}.reshape((0, -1))", "{v}.astype('int32')",
    "nd.ones((2, 3)).T", "nd.NDArray", "mx.context.num_gpus()", "nd.ones(3).asnumpy().mean()",
    "nd.sum({v}, axis=1)", "nd.ones(2).mean().item()", "nd.foo({v})", "{v}.as_in_context(mx.cpu())",
]

# Before a statement, at its indentation (each line of a multi-line one too).
STATEMENTS = [
    "x_mx = nd.ones((2, 3))", "(w_mx := nd.array([1]))", "y_mx = (nd.ones(2)\n     + nd.zeros(2))",
    "mx.random.seed(1)", "nd.waitall()", "with self.name_scope(): self.d = nd.ones(1)",
    "with self.name_scope():\n    self.e = gluon.nn.Dense(2, in_units=3)",
    "global nd", "nd = {v}", "def f_mx(a=nd.array([1])):\n    nd = 2\n    return a",
    "class C_mx:\n    z = nd.ones(1)\n    nd = 3",
    "class N_mx(gluon.HybridBlock):\n    def hybrid_forward(self, F, x):\n        return F.relu(x) + F.dot(x, x)",
    "class M_mx(gluon.HybridBlock):\n    def make(self):\n        def hybrid_forward(self, F, x):\n"
    "            return F.dot(x, x)\n        return hybrid_forward",
    "y_mx = nd.random.randint(0, {v}, shape=(2,)).astype('float32')", 'print(f"{mx.gpu(0)}")',
    "print(f'{mx.gpu(0)} {nd.ones(2).astype(\"int32\")}')", "if {v}:\n\tz_mx = nd.where({v}, {v}, {v})",
    "u_mx = nd.ones(2).mean().asscalar()", "v_mx = {v}.mean(dim=1)", "t_mx = {v}.flatten(1)",
    "s_mx = mx.nd.zeros", "q_mx = nd.concat(\n    {v},\n    {v},\n    dim=0,\n)",
    "p_mx = nd.ones((2, 3)).reshape((0, -1)).astype('float16').asnumpy()",
    "try:\n    import mxnet as mx2\nexcept ImportError:\n    mx2 = None",
]


def _compile(source: str, name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SyntaxWarning: "'str' object is not callable"
        compile(source, name, "exec", dont_inherit=True)


def _char_col(line: str, byte_col: int) -> int:
    return len(line.encode("utf-8")[:byte_col].decode("utf-8", "ignore"))


def _lines(source: str) -> list[str]:
    """Lines as Python counts them (str.splitlines also breaks at \\f, \\x1c, \\u2028...)."""
    return [line for line in re.split(r"(?<=\r\n)|(?<=\r)(?!\n)|(?<=\n)", source) if line]


# Where the generated program goes: `{body}` at the depth of the `{i}` before it.
SCAFFOLDS = [
    "{body}",
    "def f_mx(self, x, *args, **kwargs):\n{i}{body}",
    "class N_mx(gluon.HybridBlock):\n{i}def __init__(self, **kwargs):\n{i}{i}super(N_mx, self).__init__(**kwargs)\n"
    "{i}{i}with self.name_scope():\n{i}{i}{i}{body}\n{i}def hybrid_forward(self, F, x, weight=None):\n"
    "{i}{i}return F.relu(x) + F.dot(x, x)",
    "class M_mx(gluon.Block):\n{i}def forward(self, x):\n{i}{i}{body}",
    "if x:\n{i}pass\nelse:\n{i}{body}",
    "try:\n{i}{body}\nexcept Exception as e:\n{i}raise",
    "class C_mx:\n{i}{body}",
    "async def a_mx():\n{i}{body}",
    "for i_mx in range(2):\n{i}while x:\n{i}{i}{body}",
]
INDENTS = ["    ", "    ", "\t", "  ", "\x0c    ", " "]


def scaffold(source: str, choose: Callable[[list], object]) -> str:
    """`source` put inside a function, a Gluon block, a loop... (or left at the top level)."""
    frame = choose(SCAFFOLDS)
    if frame == "{body}":
        return source
    unit = choose(INDENTS)
    newline = "\r\n" if "\r\n" in source else "\n"
    out = []
    for line in frame.split("\n"):
        depth = line.count("{i}")
        if "{body}" in line:
            prefix = unit.replace("\x0c", "") * (depth - 1) + unit if depth else ""
            body = _lines(source)
            if body and not body[-1].endswith(("\n", "\r")):
                body[-1] += newline
            body.append("pass" + newline)
            out.extend(prefix + b if b.strip() else b for b in body)
        else:
            out.append(line.replace("{i}", unit.replace("\x0c", "")) + newline)
    return "".join(out)


def splice(source: str, choose: Callable[[list], object], count: Callable[[int, int], int]) -> Optional[str]:
    """`source` with MXNet spliced in (`choose(seq)` picks an element, `count(lo, hi)` an int),
    or None when the result does not compile."""
    source = scaffold(source, choose)
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    lines = _lines(source)
    reads = sorted({(n.lineno, n.col_offset, n.end_lineno, n.end_col_offset, n.id) for n in ast.walk(tree)
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.lineno == n.end_lineno})
    names = sorted({r[4] for r in reads}) or ["x"]
    starts = sorted({(s.lineno, s.col_offset) for s in ast.walk(tree) if isinstance(s, ast.stmt)})

    def fill(text: str) -> str:
        while "{v}" in text:
            text = text.replace("{v}", str(choose(names)), 1)
        return text

    edits: list[tuple[int, int, int, str]] = []  # (line index, start col, end col, text): replace
    for _ in range(count(0, min(5, len(reads)))):
        line, col, _, end, _ = choose(reads)
        text = lines[line - 1]
        edits.append((line - 1, _char_col(text, col), _char_col(text, end), fill(choose(EXPRESSIONS))))
    inserts: list[tuple[int, str]] = []  # (line index, text): a new line before that line
    for _ in range(count(0 if reads else 1, 5)):
        if not starts:
            break
        line, col = choose(starts)
        text = lines[line - 1]
        indent = text[:_char_col(text, col)]
        if indent.strip(" \t\x0c"):
            continue  # the statement does not start its line (`a; b`, `if x: b`)
        newline = "\r\n" if text.endswith("\r\n") else "\n"
        body = fill(choose(STATEMENTS))
        inserts.append((line - 1, "".join(indent + part + newline for part in body.split("\n"))))
    if not edits and not inserts and not reads:
        inserts.append((len(lines), fill(choose(STATEMENTS)) + "\n"))
    applied: list[tuple[int, int, int]] = []
    for index, start, end, text in sorted(edits, reverse=True):
        if any(i == index and s < end and start < e for i, s, e in applied):
            continue  # the same name drawn twice
        applied.append((index, start, end))
        line = lines[index]
        lines[index] = line[:start] + text + line[end:]
    for index, text in sorted(inserts, key=lambda pair: pair[0], reverse=True):
        lines.insert(index, text)
    if lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += "\n"
    if not re.search(r"\b(nd|mx|gluon)\.", "".join(lines)):  # no MXNet use was spliced in: one at the end
        lines.append(fill(choose(STATEMENTS[:5])) + "\n")
    spliced = IMPORTS + "".join(lines)
    try:
        _compile(spliced, "<fuzz>")
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return None
    return spliced


@functools.lru_cache(maxsize=None)
def _grammar():
    import hypothesmith

    return hypothesmith.from_grammar()  # builds a parser for Python's grammar: once


@st.composite
def mx_programs(draw) -> str:
    """A hypothesmith program with MXNet spliced in (only ones that compile)."""
    source = draw(_grammar())
    rnd = draw(st.randoms(use_true_random=False))  # far cheaper than a draw per choice
    spliced = splice(source, rnd.choice, lambda lo, hi: rnd.randint(lo, max(lo, hi)))
    assume(spliced is not None)
    return spliced


def generate(n: int, seed: int) -> list[str]:
    """n programs (fewer when hypothesis repeats one), the same for the same seed."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as hseed

    programs: list[str] = []

    @hseed(seed)
    @settings(max_examples=n, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(mx_programs())
    def collect(source):
        programs.append(source)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)  # hypothesmith compiles what it writes
        collect()
    return list(dict.fromkeys(programs))


# -- names a program reads that nothing binds -----------------------------------------------------
_MODULE_NAMES = {"__file__", "__builtins__", "__spec__", "__loader__", "__path__", "__annotations__",
                 "__name__", "__doc__", "__package__", "__dict__", "__cached__"}


def unbound_names(source: str) -> set[str]:
    """Names read as globals (in any scope) that nothing in the module binds, nor builtins.

    Scope-aware (symtable), plus the one case symtable calls local but Python looks up
    globally: a class body reading a name before the class assigns it."""
    top = symtable.symtable(source, "<fuzz>", "exec")
    bound, read = set(), set()
    tables = [top]
    while tables:
        table = tables.pop()
        tables.extend(table.get_children())
        for sym in table.get_symbols():
            name = sym.get_name()
            if table is top:
                if sym.is_assigned() or sym.is_imported() or sym.is_namespace():
                    bound.add(name)
                if sym.is_referenced():
                    read.add(name)
            else:
                if sym.is_declared_global() and (sym.is_assigned() or sym.is_imported() or sym.is_namespace()):
                    bound.add(name)
                if sym.is_referenced() and sym.is_global():
                    read.add(name)
    if "*" in bound or any(isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names)
                           for n in ast.walk(ast.parse(source))):
        return set()
    read |= _class_reads_before_assignment(ast.parse(source))
    return read - bound - set(dir(builtins)) - _MODULE_NAMES


def _class_reads_before_assignment(tree: ast.AST) -> set[str]:
    found = set()
    for cls in ast.walk(tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        assigned: set = set()
        for stmt in cls.body:
            for node in _same_scope(stmt):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in assigned:
                    found.add(node.id)
            for node in _same_scope(stmt):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    assigned.add(node.id)
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    assigned.add(node.name)
                elif isinstance(node, ast.alias):
                    assigned.add(node.asname or node.name.split(".")[0])
    # only names the class itself assigns somewhere: the others symtable already calls global
    return {n for n in found if any(_assigns(cls, n) for cls in ast.walk(tree) if isinstance(cls, ast.ClassDef))}


def _assigns(cls: ast.ClassDef, name: str) -> bool:
    return any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id == name
               for stmt in cls.body for n in _same_scope(stmt))


def _same_scope(node: ast.AST):
    """Nodes of `node` in its own scope, in source order (not inside nested defs, classes,
    lambdas or comprehensions, whose defaults, decorators and bases are included)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            children = n.decorator_list + n.args.defaults + [d for d in n.args.kw_defaults if d is not None]
        elif isinstance(n, ast.ClassDef):
            children = n.decorator_list + n.bases + [k.value for k in n.keywords]
        elif isinstance(n, (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp)):
            children = []
        else:
            children = list(ast.iter_child_nodes(n))
        stack.extend(reversed(children))


# -- the checks -----------------------------------------------------------------------------------------
def problems(source: str, convert) -> list[tuple[str, str]]:
    """(kind, detail) of every promise the conversion of `source` breaks; `convert(text)` is
    xlate.convert.engine.convert_source (passed in so that the caller picks the process)."""
    from xlate.convert.engine import InputError

    try:
        first = convert(source)
    except InputError as e:
        return [("rejected", str(e))]
    except Exception as e:  # noqa: BLE001 -- any other exception is a crash
        return [("crash", f"{type(e).__name__}: {e}")]
    found = []
    try:
        _compile(first.output, "<output>")
    except (SyntaxError, ValueError) as e:
        return [("unparseable", f"{e}")]
    unbound = unbound_names(first.output) - unbound_names(source)
    if unbound:
        found.append(("unbound", ", ".join(sorted(unbound))))
    try:
        again = convert(source)
    except Exception as e:  # noqa: BLE001
        return found + [("varying", f"the second run raised {type(e).__name__}")]
    if again.output != first.output or [d.format() for d in again.diagnostics] != \
            [d.format() for d in first.diagnostics]:
        found.append(("varying", "two runs differ"))
    try:
        second = convert(first.output)
    except Exception as e:  # noqa: BLE001
        return found + [("second pass", f"raised {type(e).__name__}: {e}")]
    if second.output != first.output:
        found.append(("second pass", "changed the output"))
    else:
        new = second_pass_reports(first, second)
        if new:
            found.append(("second pass", "reported " + "; ".join(new[:3])))
    return found


def second_pass_reports(first, second) -> list[str]:
    """What a second pass reports beyond the manual items the first pass left (which a
    second pass must report again: MXNet code left in place always has its report). They are
    matched by code: the message may change with what was converted around the item (a
    `net.initialize(init=init.Xavier(), ctx=[...])` left for a human has a torch initializer
    the second time)."""
    left: dict = {}
    for d in first.diagnostics:
        if d.status == "manual":
            left[d.code] = left.get(d.code, 0) + 1
    new = []
    for d in second.diagnostics:
        if d.status == "manual" and left.get(d.code, 0) > 0:
            left[d.code] -= 1
        else:
            new.append(f"{d.code} [{d.status}] {d.message}")
    return new
