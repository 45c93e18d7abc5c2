"""Properties of `convert_source` that hold for every input, checked on real and generated code.

1. pass-through: code without MXNet comes out byte-identical (stdlib modules, and generated
   variations of hand-written snippets: comments, blank lines, CRLF, tabs, non-ASCII text);
2. idempotence: converting converted code changes nothing;
3. the output parses, introduces no unbound name, and every MXNet reference left in it was
   reported as manual (or sits under an `xlate: ignore` comment); no dead MXNet import stays;
4. comments and lines without MXNet survive unchanged, in order;
5. every diagnostic's line:col in the original source points at the construct it names.

Generation is derandomized (the same examples every run) and has no deadline.
"""
from __future__ import annotations

import ast
import builtins
import io
import random
import re
import sysconfig
import tokenize
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from fuzzgen import second_pass_reports
from xlate.convert import catalogue
from xlate.convert.engine import InputError, convert_source

PROFILE = dict(derandomize=True, deadline=None, database=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
RULES = catalogue.by_code()
IMPORT_CODES = {"MX001", "MX002", "MX003"}
# whole generated programs per property (each converts one or two): 150 draws cover every
# construct of the strategy several times over; tests/test_fuzz.py and bench/fuzz.py run more
PROGRAM_EXAMPLES = 150


# =============================================================================================
# 1. pass-through
# =============================================================================================
def _stdlib_sample(n: int, seed: int, max_bytes: int = 30_000) -> list[tuple[str, str]]:
    """(name, text) of n standard-library modules that are UTF-8 and parse with LibCST."""
    root = Path(sysconfig.get_paths()["stdlib"])
    files = sorted(p for p in root.rglob("*.py")
                   if "site-packages" not in p.parts and p.stat().st_size <= max_bytes)
    random.Random(seed).shuffle(files)
    sample = []
    for p in files:
        try:
            text = p.read_bytes().decode("utf-8")
            ast.parse(text)
        except (UnicodeDecodeError, SyntaxError, ValueError):
            continue
        sample.append((str(p.relative_to(root)), text))
        if len(sample) == n:
            break
    return sample


STDLIB = _stdlib_sample(150, seed=20240601)


def test_stdlib_sample_is_big_enough():
    assert len(STDLIB) == 150


def test_stdlib_modules_pass_through_byte_identical():
    failures, checked = [], 0
    for name, text in STDLIB:
        try:
            result = convert_source(text, path=name)
        except InputError:  # LibCST cannot parse it: not a pass-through question
            continue
        checked += 1
        if result.output != text or result.diagnostics or result.changed:
            failures.append(name)
    assert failures == []
    assert checked >= 140


def test_stdlib_tree_passes_through_the_command_byte_identical(tmp_path, capsys):
    """The same through `xlate convert DIR -o OUT`: reading, writing and copying keep every byte."""
    from xlate.cli import main

    root = Path(sysconfig.get_paths()["stdlib"])
    src, out = tmp_path / "src", tmp_path / "out"
    names = [name for name, _ in STDLIB[:40]]
    for name in names:
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_bytes((root / name).read_bytes())
    assert main(["convert", str(src), "-o", str(out), "-j", "2"]) == 0
    report = capsys.readouterr().err  # the report goes to stderr in every mode
    assert f"Converted {len(names)} files (0 changed): 0 fixed" in report
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()) == sorted(names)
    assert [n for n in names if (out / n).read_bytes() != (root / n).read_bytes()] == []


def test_stdlib_modules_with_an_unused_mxnet_import_lose_only_that_import():
    """The whole rewriting pass over real code that never uses MXNet (numpy and str share many
    method names with NDArray: `.split`, `.copy`, `.reshape`...): nothing else changes."""
    changed, reported = [], []
    for name, text in STDLIB[:60]:
        if not text.strip():
            continue  # see test_a_file_that_only_imports_mxnet_becomes_empty
        try:
            result = convert_source("import mxnet as mx\n" + text, path=name)
        except InputError:
            continue
        if result.output != text:
            changed.append(name)
        reported += [d.format() for d in result.diagnostics if d.code != "MX001"]
    assert changed == []
    assert reported == []


@pytest.mark.parametrize("text", ["import mxnet as mx\n", "from mxnet import nd\n", "import mxnet\r\n"])
def test_a_file_that_only_imports_mxnet_becomes_empty(text):
    assert convert_source(text).output == ""


# Hand-written snippets without MXNet (several use names MXNet rules know: .reshape, .sum,
# .copy, .size, .context, F, nd) for generated variations.
SNIPPETS = [
    '''\
def area(w, h):
    """Width times height."""
    return w * h
''',
    '''\
class Box:
    size = 3

    @property
    def volume(self):
        return self.size ** 3

    def context(self):
        return {"size": self.size}
''',
    '''\
import numpy as np
q = np.zeros((2, 3)).reshape(3, 2).sum(axis=0)
r = np.arange(6).mean()
''',
    '''\
names = [n.upper() for n in ("ä", "b") if n]
table = {k: v for k, v in zip(names, range(2))}
msg = f"héllo {names[0]!r:>10} ✓"
''',
    '''\
try:
    with open("x") as fh:
        data = fh.read()
except OSError as e:
    data = None
finally:
    done = True
''',
    '''\
def outer():
    total = 0

    def inner(n):
        nonlocal total
        total += n
        return total
    return inner
''',
    '''\
if (n := len("abc")) > 2:
    f = lambda a, *b, **c: a if b else c
value = n \\
    + 1
''',
    '''\
async def fetch(client):
    async with client as c:
        async for item in c:
            await item
''',
    '''\
match ("nd", 1):
    case ("nd", int(k)):
        kind = k
    case _:
        kind = None
''',
    '''\
# This module used to `import mxnet as mx`; nd.ones(3) was here.
doc = "from mxnet import nd"
''',
    '''\
F = {"relu": abs}
nd = type("nd", (), {"ones": staticmethod(lambda s: [1] * s)})
y = nd.ones(3); z = F["relu"](-1)
''',
]


def _indented(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


@st.composite
def variations(draw, snippet: str) -> str:
    """The snippet with comments, blank lines, tabs, a non-ASCII string and its own newlines."""
    lines = snippet.splitlines()
    if draw(st.booleans()):  # tabs for indentation (consistently: 4 spaces -> 1 tab)
        lines = ["\t" * ((len(l) - len(l.lstrip(" "))) // 4) + l.lstrip(" ") for l in lines]
    if draw(st.booleans()):
        lines.append('label = "naïve café ✓ 日本語"  # non-ASCII')
    # (a comment ending in a backslash on the last line has its own test below)
    comment = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=12).map(
        lambda t: "#" + t.rstrip("\\"))
    out = []
    for i, line in enumerate(lines):
        continued = i > 0 and lines[i - 1].endswith("\\")
        if not continued:
            for _ in range(draw(st.integers(0, 2))):
                choice = draw(st.sampled_from(["blank", "spaces", "comment"]))
                if choice == "blank":
                    out.append("")
                elif choice == "spaces":
                    out.append(" " * draw(st.integers(1, 3)))
                else:
                    out.append(_indented(line) + draw(comment))
        if line.strip() and not line.endswith("\\") and draw(st.booleans()):
            line += draw(st.sampled_from(["  ", "\t", " "])) + draw(comment)
        out.append(line)
    newline = draw(st.sampled_from(["\n", "\r\n", "mixed"]))
    if newline == "mixed":
        ends = draw(st.lists(st.sampled_from(["\n", "\r\n"]), min_size=len(out), max_size=len(out)))
    else:
        ends = [newline] * len(out)
    text = "".join(l + e for l, e in zip(out, ends))
    if draw(st.booleans()):  # no newline at the end of the file
        text = text.rstrip("\r\n")
    return text


@settings(max_examples=120, **PROFILE)
@given(st.sampled_from(SNIPPETS).flatmap(variations))
def test_code_without_mxnet_passes_through_byte_identical(text):
    try:
        ast.parse(text)
    except SyntaxError:
        assume(False)
    result = convert_source(text)
    assert result.output == text
    assert result.diagnostics == []


@settings(max_examples=120, **PROFILE)
@given(st.sampled_from(SNIPPETS).flatmap(variations), st.sampled_from(["\n", "\r\n"]),
       st.sampled_from(["import mxnet as mx", "from mxnet import nd", "import mxnet.ndarray as F"]))
def test_an_unused_mxnet_import_is_all_that_goes(text, newline, mx_import):
    """The full rewriting pass runs (the file imports MXNet) over code that never uses it."""
    try:
        ast.parse(text)
    except SyntaxError:
        assume(False)
    # the snippets that rebind `nd`/`F` would make the import ambiguous, not unused
    assume(not re.search(r"^\s*(nd|F)\s*=", text, flags=re.M) or "mxnet as mx" in mx_import)
    result = convert_source(mx_import + newline + text)
    assert result.output == text
    assert [d.code for d in result.diagnostics if d.status != "manual"] == ["MX001"]
    # what is reported is left exactly as it was: numpy shares these method names
    assert all(d.code in {"MX001"} or d.message.startswith("could not tell") for d in result.diagnostics)


@pytest.mark.parametrize("last", ["x = 1  # a\\", "# see C:\\", "def f():\n    return 1  #\\"])
def test_a_comment_ending_in_a_backslash_keeps_the_final_newline(last):
    result = convert_source("import mxnet as mx\n" + last + "\n")
    assert result.output == last + "\n"


def test_a_rebound_non_mxnet_import_is_not_reported():
    """A name imported from elsewhere and also defined is no MXNet name (MX901 is for MXNet's)."""
    text = (
        "import mxnet as mx\n"
        "try:\n"
        "    from gettext import gettext\n"
        "except ImportError:\n"
        "    def gettext(message):\n"
        "        return message\n"
        "print(gettext('x'), mx.nd.ones(1))\n"
    )
    result = convert_source(text)
    assert result.output == "import torch\n" + text.split("\n", 1)[1].replace("mx.nd.ones", "torch.ones")
    assert [d.code for d in result.diagnostics] == ["MX001", "MX011"]


@settings(max_examples=20, **PROFILE)
@given(st.sampled_from(["line", "str(path)", "self.name", "text.strip()"]),
       st.sampled_from(["','", "sep", "'/', 1", ""]))
def test_str_split_is_not_an_ndarray_split(receiver, args):
    """MX030 is for NDArrays: `.split` on a value xlate cannot type is left alone, unreported."""
    text = f"import mxnet as mx\nparts = {receiver}.split({args})\nx = mx.nd.ones(2)\n"
    result = convert_source(text)
    assert result.output == f"import torch\nparts = {receiver}.split({args})\nx = torch.ones(2)\n"
    assert [d.code for d in result.diagnostics] == ["MX001", "MX011"]


# =============================================================================================
# Generated MXNet programs (properties 2-5)
# =============================================================================================
@dataclass(frozen=True)
class Fragment:
    text: str  # {nd} and {mx} are filled in from the import style
    ignored: bool = False  # carries an `xlate: ignore` comment

    @property
    def needs_mx(self) -> bool:
        return "{mx}" in self.text


# ~100 idioms covering rules/0xx_ndarray.toml and rules/5xx_context_seed.toml.
MX_FRAGMENTS = [Fragment(t) for t in [
    "x = {nd}.ones((2, 3))",
    "a = {nd}.array([1, 2, 3])",
    "b = {nd}.zeros((2, 3), dtype='float16')",
    "e0 = {nd}.empty((2, 2))",
    "f = {nd}.full((2, 2), 7)",
    "r = {nd}.arange(5)",
    "s = {nd}.arange(2, 10, 2, repeat=2)",
    "z = {nd}.zeros_like(x)",
    "u = {nd}.random.uniform(-1, 3, shape=(2, 3))",
    "n = {nd}.random.normal(0, 2, shape=(4,))",
    "v = x.asnumpy()",
    "t = x.sum().asscalar()",
    "y = x.astype('int32')",
    "y2 = {nd}.cast(x, dtype='float16')",
    "y = x.reshape((0, -1))",
    "y = {nd}.reshape(x, shape=(-3, -2))",
    "y = x.expand_dims(1)",
    "y = {nd}.transpose(x, axes=(1, 0))",
    "y = {nd}.swapaxes(x, 0, 1)",
    "y = {nd}.flatten(x)",
    "c = {nd}.concat(x, x)",
    "c = {nd}.concat(x, x, dim=0)",
    "c2 = {nd}.concat(\n    x,\n    x,\n    dim=0,\n)",
    "st = {nd}.stack(x, x, axis=1)",
    "parts = {nd}.split(x, 3)",
    "rows = {nd}.split(x, num_outputs=2, axis=0, squeeze_axis=True)",
    "d = {nd}.dot(x, x.T)",
    "bd = {nd}.batch_dot(x, x, transpose_b=True)",
    "m = {nd}.sum(x, axis=1, keepdims=True)",
    "m = x.mean()",
    "p = {nd}.softmax(x, axis=-1)",
    "i = {nd}.argmax(x, axis=1)",
    "k = {nd}.topk(x, k=2)",
    "w = {nd}.where(x > 0, x, x * 0)",
    "cl = {nd}.clip(x, 0, 1)",
    "oh = {nd}.one_hot({nd}.array([0, 1]), 3)",
    "pk = {nd}.pick(x, {nd}.array([0, 1]), axis=1)",
    "bs = {nd}.broadcast_add(x, x) * {nd}.broadcast_mul(x, x)",
    "bt = {nd}.broadcast_to(x, shape=(2, 3))",
    "sm = {nd}.SequenceMask(x, {nd}.array([1, 2]), use_sequence_length=True)",
    "e = {nd}.relu(x) + {nd}.exp(x)",
    "mm = {nd}.maximum(x, 0)",
    "cp = x.copy()",
    "rp = {nd}.repeat(x, 2, axis=1)",
    "tl = {nd}.tile(x, (2, 1))",
    "sq = {nd}.squeeze(x)",
    "ok = isinstance(x, {nd}.NDArray)",
    "n_el = x.size",
    "act = {nd}.Activation(x, act_type='softrelu')",
    "lk = {nd}.LeakyReLU(x, slope=0.1)",
    "srt = {nd}.sort(x, is_ascend=False)",
    "sl = {nd}.slice_axis(x, axis=1, begin=0, end=2)",
    "{nd}.waitall()",
    "print({nd}.ones(2).asnumpy())",
    'lbl, z1 = "naïve ✓ 日本", {nd}.ones(3)',
    "def make(shape):\n    return {nd}.zeros(shape)",
    "ctx = {mx}.cpu()",
    "g = {mx}.gpu(0)",
    "gpus = [{mx}.gpu(i) for i in range(2)]",
    "ng = {mx}.context.num_gpus()",
    "x2 = x.as_in_context({mx}.cpu())",
    "dev = x.context",
    "{mx}.random.seed(42)",
    # harder shapes: keywords, chains, nesting, other scopes, annotations, several per line
    "x3 = {nd}.ones(shape=(2, 3), ctx={mx}.cpu())",
    "x4 = {nd}.zeros((2,), ctx={mx}.gpu(0), dtype='int32')",
    "ch = x.reshape((0, -1)).astype('float16').asnumpy()",
    "fn = lambda t: {nd}.relu(t)",
    "def h(v={nd}.ones(1)):\n    return v",
    "class Net:\n    w = {nd}.zeros(3)\n\n    def forward(self, t):\n        return {nd}.relu(t) + self.w",
    "x += {nd}.ones((2, 3))",
    "u1 = {nd}.ones(1); u2 = {nd}.zeros(1)",
    "{mx}.random.seed(1); kk = 2",
    "if kk:\n    {mx}.random.seed(7)",
    "{mx}.random.seed(int('3'))",
    "y5 = x.T.asnumpy()",
    "y6 = x[0].asscalar()",
    "y7 = {nd}.concat(*[x, x], dim=0)",
    "ri = {nd}.random.randint(0, 10, shape=(3,))",
    "sh = {nd}.random.shuffle(x)",
    "ags = {nd}.argsort(x)",
    "sm2 = x.softmax()",
    "tk = {nd}.topk(x, k=2, ret_typ='both')",
    "ba = {nd}.broadcast_axis(x, axis=0, size=2)",
    "mn = {nd}.minimum(2, x)",
    "ct = x.copyto({mx}.cpu())",
    "x.wait_to_read()",
    "gl = {mx}.test_utils.list_gpus()",
    "xc = x.as_in_ctx({mx}.gpu(1))",
    "dc = x.ctx",
    "res = [{nd}.sum(v) for v in (x, x)]",
    "big = {nd}.ones((2, 3)) if x is None else {nd}.zeros((2, 3))",
    "nested = {nd}.concat({nd}.ones((1, 2)), {nd}.zeros((1, 2)), dim=0).reshape((-1,)).asnumpy()",
    "ann: {nd}.NDArray = {nd}.ones(2)",
    "def typed(v: {nd}.NDArray) -> {nd}.NDArray:\n    return v",
    "sz = {nd}.ones((2, 3)).size",
    "pw = {nd}.broadcast_power(x, 2) ** 2",
    "cmp = {nd}.broadcast_greater(x, x).sum()",
]] + [
    # these stay for a human (MX900)
    Fragment("with {mx}.autograd.record():\n    out = x * 2"),
    Fragment("net = {mx}.gluon.nn.Dense(10)"),
    Fragment("tr = {mx}.gluon.Trainer(net.collect_params(), 'sgd')"),
    Fragment("lo = {mx}.gluon.loss.L2Loss()"),
    Fragment("q = {nd}.no_such_op(x)"),
    # left as written, under a suppression comment
    Fragment("c3 = {nd}.concat(x, x)  # xlate: ignore[MX028]", ignored=True),
    Fragment("c4 = {nd}.ones(2).as_in_context({mx}.gpu(0))  # xlate: ignore", ignored=True),
]

# Lines without MXNet: they must come out exactly as they went in.
PLAIN_FRAGMENTS = [
    "npa = np.zeros((2, 3))\nnpb = npa.sum(axis=0).reshape(3, 1).copy()",
    "npc = np.arange(6).reshape(2, 3).mean()",
    "total = sum(range(10))",
    "if total > 3:\n    total = 0",
    "name = 'ok'  # a trailing comment",
    "for j in range(2):\n    # inside a loop\n    total += j",
]

STYLES = {  # import lines, the NDArray namespace, the mxnet module (None: add `import mxnet as mx`)
    "mx.nd": (["import mxnet as mx"], "mx.nd", "mx"),
    "from mxnet import nd": (["from mxnet import nd"], "nd", None),
    "import mxnet.ndarray as F": (["import mxnet.ndarray as F"], "F", None),
    "from mxnet import ndarray as nd": (["from mxnet import ndarray as nd"], "nd", None),
}

comment_text = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=15).map(
    lambda t: "# " + t.strip().rstrip("\\"))


@dataclass
class Program:
    source: str
    plain: list = field(default_factory=list)  # lines that must survive unchanged, in order
    style: str = ""


@st.composite
def programs(draw) -> Program:
    style = draw(st.sampled_from(sorted(STYLES)))
    imports, nd, mx = STYLES[style]
    # a slice of a shuffle: every idiom is as likely as any other (sampled_from favours the first)
    frags = draw(st.permutations(MX_FRAGMENTS))[: draw(st.integers(1, 10))]
    if draw(st.integers(0, 4)) == 0:
        frags += frags[:2]  # the same idiom twice
    if draw(st.booleans()):
        frags = [MX_FRAGMENTS[0]] + frags  # x is a known NDArray
    imports = list(imports)
    if mx is None and any(f.needs_mx for f in frags):
        imports.insert(draw(st.integers(0, len(imports))), "import mxnet as mx")
    mx = mx or "mx"
    imports.insert(draw(st.integers(0, len(imports))), "import numpy as np")

    body: list[tuple[str, bool]] = []  # (text, plain?)
    for f in frags:
        text = f.text.format(nd=nd, mx=mx)
        if not f.ignored and "\n" not in text and draw(st.integers(0, 3)) == 0:
            text += "  " + draw(comment_text)
        body.append((text, False))
    for _ in range(draw(st.integers(0, 5))):
        kind = draw(st.sampled_from(["plain", "comment", "blank"]))
        text = {"plain": lambda: draw(st.permutations(PLAIN_FRAGMENTS))[0],
                "comment": lambda: draw(comment_text),
                "blank": lambda: ""}[kind]()
        body.insert(draw(st.integers(0, len(body))), (text, True))

    in_function = draw(st.booleans())
    lines: list[str] = []
    plain: list[str] = []
    head: list[str] = []
    for imp in imports:
        if draw(st.integers(0, 3)) == 0:
            head.append(draw(comment_text))
            plain.append(head[-1])
        head.append(imp)
    if in_function:
        lines.append("def main():")
    for text, is_plain in body:
        for line in text.split("\n"):
            line = ("    " + line if line else line) if in_function else line
            lines.append(line)
            # Blank lines are not held to this: where helper functions go in, the blank lines
            # before the next statement become the two that follow a function definition.
            if line.strip() and (is_plain or line.lstrip().startswith("#")):
                plain.append(line)
    if in_function:
        lines.append("    return None")
    source = "\n".join(head + lines) + "\n"
    return Program(source, plain, style)


def _tokens(text: str, kind: int) -> list[str]:
    return [t.string for t in tokenize.generate_tokens(io.StringIO(text).readline) if t.type == kind]


# -- 2. idempotence ---------------------------------------------------------------------------
@settings(max_examples=PROGRAM_EXAMPLES, **PROFILE)
@given(programs())
@example(
    program=Program(source='# \nimport numpy as np\n# \nimport mxnet as mx\n# \nfrom mxnet import nd\nz = nd.zeros_like(x)\na = nd.array([1, 2, 3])\nsm2 = x.softmax()\ne0 = nd.empty((2, 2))  # \ndef h(v=nd.ones(1)):\n    return v\nr = nd.arange(5)  # \ns = nd.arange(2, 10, 2, repeat=2)  # \nwith mx.autograd.record():\n    out = x * 2\n',
     plain=['# ', '# ', '# '],
     style='from mxnet import nd'),
).via('discovered failure')
@example(
    program=Program(source="# \nimport numpy as np\n# \nfrom mxnet import nd\na = nd.array([1, 2, 3])  # \nb = nd.zeros((2, 3), dtype='float16')\ne0 = nd.empty((2, 2))  # \nf = nd.full((2, 2), 7)  # \ny = nd.flatten(x)\nr = nd.arange(5)\nc3 = nd.concat(x, x)  # xlate: ignore[MX028]\nz = nd.zeros_like(x)\nu = nd.random.uniform(-1, 3, shape=(2, 3))\n",
     plain=['# ', '# '],
     style='from mxnet import nd'),
).via('discovered failure')
def test_conversion_is_idempotent(program):
    """A second pass over the output changes nothing and reports nothing but the manual items
    the first left (MXNet code still there is reported again, at its line)."""
    first = convert_source(program.source)
    second = convert_source(first.output)
    assert second.output == first.output
    assert second_pass_reports(first, second) == []


# -- 3. the output parses; every MXNet reference is converted or reported -----------------------
def _bound_names(tree: ast.AST) -> set[str]:
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.alias):
            bound.add(node.asname or node.name.split(".")[0])
    return bound


def _loaded_names(tree: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _mxnet_aliases(tree: ast.Module) -> set[str]:
    aliases = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            aliases |= {a.asname or a.name.split(".")[0] for a in node.names if a.name.split(".")[0] == "mxnet"}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "mxnet":
            aliases |= {a.asname or a.name for a in node.names}
    return aliases


def _mxnet_references(tree: ast.Module, aliases: set[str]) -> list[tuple[str, int]]:
    """(dotted chain, line) of every use of an MXNet alias, longest chain only."""
    inner = set()
    refs = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            inner.add(id(node.value))
    for node in ast.walk(tree):
        if id(node) in inner or not isinstance(node, (ast.Attribute, ast.Name)):
            continue
        chain, base = [], node
        while isinstance(base, ast.Attribute):
            chain.append(base.attr)
            base = base.value
        if isinstance(base, ast.Name) and base.id in aliases and isinstance(base.ctx, ast.Load):
            refs.append((".".join([base.id] + chain[::-1]), node.lineno))
    return refs


DOTTED = re.compile(r"[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*")


def _text_at(source: str, line: int, col: int) -> str:
    return source.split("\n")[line - 1][col - 1:]


@settings(max_examples=PROGRAM_EXAMPLES, **PROFILE)
@given(programs())
def test_output_parses_and_every_mxnet_reference_is_converted_or_reported(program):
    result = convert_source(program.source)
    tree = ast.parse(result.output)  # 3a: the output parses
    before = ast.parse(program.source)

    # 3b: no name the output reads comes from nowhere (torch, F, helpers are all imported/defined)
    free_before = _loaded_names(before) - _bound_names(before)
    unbound = _loaded_names(tree) - _bound_names(tree) - set(dir(builtins)) - free_before
    assert unbound == set()

    # 3c: each MXNet reference still there is accounted for by a manual report at that construct
    aliases = _mxnet_aliases(tree)
    left = Counter(chain.replace(" ", "") for chain, line in _mxnet_references(tree, aliases)
                   if "xlate: ignore" not in result.output.split("\n")[line - 1])
    reported = Counter()
    for d in result.diagnostics:
        if d.status == "manual" and d.code not in IMPORT_CODES:
            m = DOTTED.match(_text_at(program.source, d.line, d.col))
            if m:
                reported[re.sub(r"\s", "", m.group())] += 1
    assert left - reported == Counter(), f"left without a manual report: {left - reported}"

    # 3d: an MXNet import stays only while something still uses it, and then it says so
    used = {chain.split(".")[0] for chain, _ in _mxnet_references(tree, aliases)}
    assert aliases == used
    kept_notes = [d for d in result.diagnostics if d.code == "MX002"]
    assert len(kept_notes) == len(aliases)


# -- 4. comments and lines without MXNet survive ---------------------------------------------------
def _is_subsequence(needles: list[str], haystack: list[str]) -> bool:
    it = iter(haystack)
    return all(any(n == h for h in it) for n in needles)


@settings(max_examples=PROGRAM_EXAMPLES, **PROFILE)
@given(programs())
def test_comments_and_lines_without_mxnet_survive(program):
    output = convert_source(program.source).output
    comments_in, comments_out = Counter(_tokens(program.source, tokenize.COMMENT)), Counter(
        _tokens(output, tokenize.COMMENT))
    assert comments_in - comments_out == Counter(), "comments lost"
    assert _is_subsequence(program.plain, output.split("\n"))
    # lines under `xlate: ignore` are left exactly as written, too
    for line in program.source.split("\n"):
        if "xlate: ignore" in line:
            assert line in output.split("\n")


# -- 5. report positions point at the construct ------------------------------------------------------
def _nodes_at(source: str) -> dict[tuple[int, int], list[ast.AST]]:
    """AST nodes by (line, column) where they start; columns counted in characters, 1-based."""
    lines = source.split("\n")
    at: dict = {}
    for node in ast.walk(ast.parse(source)):
        if hasattr(node, "col_offset"):
            col = len(lines[node.lineno - 1].encode("utf-8")[: node.col_offset].decode("utf-8")) + 1
            at.setdefault((node.lineno, col), []).append(node)
    return at


_COMPARISONS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}


def _check_position(source: str, d, at: dict) -> str | None:
    """None when d's line:col is where the construct it names starts; otherwise what is wrong."""
    nodes = at.get((d.line, d.col), [])
    if d.code in IMPORT_CODES:
        ok = any(isinstance(n, ast.Import) and any(a.name.split(".")[0] == "mxnet" for a in n.names)
                 or isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] == "mxnet" for n in nodes)
        return None if ok else "not at an MXNet import"
    if d.code in ("MX900", "MX917"):  # no rule / not in MXNet 1.9.1: the name is in the message
        names = {re.search(r"`([\w.]+)`", d.message).group(1).rsplit(".", 1)[-1]}
    else:
        names = {m.rsplit(".", 1)[-1] for m in RULES[d.code].matches}
    for n in nodes:
        if isinstance(n, ast.Compare) and len(n.ops) == 1 and _COMPARISONS.get(type(n.ops[0])) in names:
            return None  # `a == b` on NDArrays (MX540)
        if isinstance(n, ast.Subscript) and names & {"[element]", "[array]", "[::-k]"}:
            return None  # `x[0]` read from an NDArray (MX017), an array index (MX085), `x[::-1]` (MX007)
        target = n.func if isinstance(n, ast.Call) else n
        if isinstance(target, ast.Attribute) and target.attr in names:
            return None  # nd.concat(...), x.sum().asscalar(), nd.NDArray, x.size
        if isinstance(target, ast.Name) and target.id in names:
            return None
    return f"no {'/'.join(sorted(names))} starts at {d.line}:{d.col}"


@settings(max_examples=PROGRAM_EXAMPLES, **PROFILE)
@given(programs())
def test_report_positions_point_at_the_construct(program):
    result = convert_source(program.source)
    at = _nodes_at(program.source)
    problems = [f"{d.format()}: {why}" for d in result.diagnostics if (why := _check_position(program.source, d, at))]
    assert problems == []


def test_report_positions_count_characters_not_bytes():
    source = 'from mxnet import nd\nlbl, z = "naïve ✓ 日本", nd.ones(3)\n'
    result = convert_source(source)
    d = next(d for d in result.diagnostics if d.code == "MX011")
    assert (d.line, d.col) == (2, source.split("\n")[1].index("nd.ones") + 1)


def test_position_checker_rejects_a_wrong_position():
    """The checker of property 5 is not vacuous."""
    from xlate.convert.report import Diagnostic
    source = "from mxnet import nd\nx = nd.ones(3)\ny = x.asnumpy()\n"
    at = _nodes_at(source)
    good = [Diagnostic("a", 2, 5, "MX011", "fixed", ""), Diagnostic("a", 3, 5, "MX020", "fixed", ""),
            Diagnostic("a", 1, 1, "MX001", "fixed", "")]
    bad = [Diagnostic("a", 2, 1, "MX011", "fixed", ""), Diagnostic("a", 2, 6, "MX011", "fixed", ""),
           Diagnostic("a", 2, 5, "MX020", "fixed", ""), Diagnostic("a", 3, 1, "MX020", "fixed", ""),
           Diagnostic("a", 2, 5, "MX001", "fixed", ""), Diagnostic("a", 9, 1, "MX011", "fixed", "")]
    assert [_check_position(source, d, at) for d in good] == [None] * 3
    assert all(_check_position(source, d, at) for d in bad)


def test_astwalk_yields_what_ast_walk_yields_less_the_token_nodes():
    """xlate/convert/astwalk.py: the same nodes in the same order as ast.walk and
    ast.iter_child_nodes, without Load/Store/Del and the operator tokens."""
    from xlate.convert import astwalk

    tokens = (ast.expr_context, ast.operator, ast.cmpop, ast.unaryop, ast.boolop)
    checked = 0
    for name, text in STDLIB[:80]:
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        expected = [n for n in ast.walk(tree) if not isinstance(n, tokens)]
        assert list(astwalk.walk(tree)) == expected, name
        for node in expected[:200]:
            assert list(astwalk.children(node)) == [c for c in ast.iter_child_nodes(node)
                                                     if not isinstance(c, tokens)], name
        checked += 1
    assert checked >= 70


def test_children_and_walk_follow_libcsts_own_walk():
    """xlate/convert/visiting.py (Note [reading without LibCST's walk]): `children` gives what
    LibCST walks into, less formatting, in its order; FastVisitor.walk calls the visit hooks
    LibCST's walk would, in the same order, and prunes where a hook returns False."""
    from xlate.convert.visiting import FORMATTING, FastVisitor, children

    class Everything(cst.CSTVisitor):
        def __init__(self):
            self.seen, self.kids = [], {}

        def on_visit(self, node):
            if type(node) in FORMATTING:
                return False
            self.seen.append(node)
            return True

    class Hooks:  # records calls, does not look inside a def
        def __init__(self):
            self.calls = []

        def visit_Call(self, node):
            self.calls.append(node)

        def visit_FunctionDef(self, node):
            return False

    class Calls(Hooks, FastVisitor):
        pass

    class LibcstCalls(Hooks, cst.CSTVisitor):
        pass

    fixtures = Path(__file__).resolve().parent.parent / "fixtures"
    # the inputs, not the golden outputs (19k lines of the same pasted helpers, 5 s of the suite)
    sources = [p.read_text(encoding="utf-8") for p in sorted(fixtures.rglob("*.py")) if not p.name.endswith("_pt.py")]
    sources += [text for _, text in STDLIB[:40]]
    checked = 0
    for text in sources:
        try:
            module = cst.parse_module(text)
        except Exception:
            continue
        everything = Everything()
        module.visit(everything)
        walked = []
        stack = [module]
        while stack:  # the preorder `children` gives
            node = stack.pop()
            walked.append(node)
            stack.extend(reversed(children(node)))
        assert [id(n) for n in walked] == [id(n) for n in everything.seen]
        fast, slow = Calls(), LibcstCalls()
        fast.walk(module)
        module.visit(slow)
        assert [id(n) for n in fast.calls] == [id(n) for n in slow.calls]
        checked += 1
    assert checked >= 50


def test_a_fast_visitor_with_leave_hooks_is_refused():
    from xlate.convert.visiting import FastVisitor

    with pytest.raises(TypeError, match="visit hooks only"):
        class Leaves(FastVisitor):
            def leave_Call(self, node):
                pass


def test_derives_is_issubclass_on_libcsts_classes():
    """visiting.derives reads the MRO instead of asking ABCMeta: the same answers for every
    pair of LibCST classes (a class registered as a virtual subclass would differ)."""
    import libcst as cst

    from xlate.convert.visiting import derives

    classes = [t for t in vars(cst).values() if isinstance(t, type) and issubclass(t, cst.CSTNode)]
    assert len(classes) > 150
    for kind in classes:
        for base in classes:
            assert derives(kind, (base,)) == issubclass(kind, base), (kind, base)
