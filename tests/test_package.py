"""Whole-package analysis (Note [package facts]): what one module of a converted tree knows about
the classes and factories of the others."""
from __future__ import annotations

import io
import sys
import textwrap
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from xlate.cli import main
from xlate.convert.engine import convert_source


def convert_tree(tmp_path: Path, files: dict) -> dict:
    src = tmp_path / "src"
    for rel, text in files.items():
        path = src / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    with redirect_stderr(io.StringIO()):
        main(["convert", str(src), "-o", str(tmp_path / "out"), "-j", "1"])
    return {p.relative_to(tmp_path / "out").as_posix(): p.read_text() for p in (tmp_path / "out").rglob("*.py")}


BASE = {
    "pkg/__init__.py": "",
    "pkg/blocks/__init__.py": "from .core import *\nfrom .seq import Stack\n",
    "pkg/blocks/core.py": """\
        from mxnet.gluon import nn
        __all__ = ["ConvBlock", "make_block"]
        class ConvBlock(nn.HybridBlock):
            def __init__(self, c, **kwargs):
                super(ConvBlock, self).__init__(**kwargs)
                self.conv = nn.Conv2D(c, 3, padding=1, in_channels=c)
            def hybrid_forward(self, F, x):
                return F.relu(self.conv(x))
        def make_block(c):
            return ConvBlock(c)
        """,
    "pkg/blocks/seq.py": """\
        from mxnet.gluon import nn
        class Stack(nn.HybridSequential):
            pass
        """,
}


def test_a_subclass_of_a_block_re_exported_by_star_is_a_block(tmp_path):
    out = convert_tree(tmp_path, {**BASE, "pkg/model.py": """\
        from .blocks import ConvBlock, Stack, make_block
        class Lrn(ConvBlock):
            def hybrid_forward(self, F, x):
                return F.LRN(super(Lrn, self).hybrid_forward(F, x), nsize=3)
        def build():
            net = Stack()
            net.add(make_block(4), Lrn(4))
            return net
        """})
    model = out["pkg/model.py"]
    assert "def forward(self, x):" in model and "super(Lrn, self).forward(x)" in model
    assert "net.extend([make_block(4), Lrn(4)])" in model


def test_one_container_binding_is_enough_for_add():
    src = textwrap.dedent("""\
        from mxnet.gluon import nn
        def wrap(block, preprocess=None):
            if preprocess is not None:
                out = nn.HybridSequential()
                out.add(preprocess)
                out.add(block)
            else:
                out = block
            return out
        def downsample(stride):
            layer = None
            if stride != 1:
                layer = nn.HybridSequential()
                layer.add(*[nn.MaxPool2D(stride), nn.Activation('relu')])
            return layer
        """)
    r = convert_source(src)
    assert "out.append(preprocess)" in r.output and "out.append(block)" in r.output
    assert "layer.extend([nn.MaxPool2d(stride), nn.ReLU()])" in r.output
    assert not [d for d in r.diagnostics if d.status == "manual"]


def test_a_set_add_stays_a_set_add():
    r = convert_source("from mxnet.gluon import nn\nseen = set()\nseen.add(3)\nnet = nn.HybridSequential()\n")
    assert "seen.add(3)" in r.output


def test_the_trees_own_package_is_never_mxnet(tmp_path):
    out = convert_tree(tmp_path, {"gluoncv/__init__.py": "from .model_zoo import get_model\n",
                                  "gluoncv/model_zoo/__init__.py": "def get_model(name):\n    return name\n",
                                  "gluoncv/use.py": "from gluoncv.model_zoo import get_model\nnet = get_model('x')\n"})
    assert out["gluoncv/use.py"] == "from gluoncv.model_zoo import get_model\nnet = get_model('x')\n"


def test_a_library_built_on_mxnet_is_taken_along_by_copying_it_into_the_tree(tmp_path):
    """Note [libraries built on MXNet]: a GluonCV call no rule translates says how to take GluonCV
    along; once its package is in the tree, the same script is the tree's own code."""
    script = "from gluoncv import model_zoo\nnet = model_zoo.get_model('resnet18_v1b')\n"
    alone = convert_source(script)
    advice = [d.message for d in alone.diagnostics if d.code == "MX900"]
    assert len(advice) == 1 and "copy the `gluoncv` package you use" in advice[0], alone.diagnostics
    plain = [d.message for d in convert_source("import mxnet as mx\ns = mx.sym.var('x')\n").diagnostics
             if d.code == "MX900"]
    assert plain and "copy" not in plain[0]
    out = convert_tree(tmp_path, {"train.py": script,
                                  "gluoncv/__init__.py": "from . import model_zoo\n",
                                  "gluoncv/model_zoo.py": "from mxnet.gluon import nn\ndef get_model(name):\n"
                                                          "    return nn.Dense(2, in_units=3)\n"})
    assert out["train.py"] == script
    assert "mxnet" not in out["gluoncv/model_zoo.py"] and "_mx_Dense(2, in_units=3)" in out["gluoncv/model_zoo.py"]


# -- the package pass's own machinery -----------------------------------------------------------
# A chain that needs several rounds (each module's block derives from the next one's, and the
# files come in the opposite order), a star re-export, a plain re-export, a factory, a
# function returning something else, and a module whose class derives from a block of the
# tree without importing MXNet itself.
CHAIN = {
    "pkg/__init__.py": "from .m0 import *\nfrom .m5 import Deep as Reexported\n",
    **{f"pkg/m{i}.py": f"from .m{i + 1} import B{i + 1}\nclass B{i}(B{i + 1}):\n    pass\n"
       f"def make{i}():\n    return B{i}()\ndef other{i}():\n    return 3\n" for i in range(5)},
    "pkg/m5.py": "from mxnet.gluon import nn\nclass B5(nn.HybridBlock):\n    pass\nclass Deep(nn.HybridSequential):\n    pass\n",
    "pkg/m3_star.py": "from .m3 import *\n",
    "pkg/use.py": """\
        from . import m0
        from .m1 import B1, make1
        class Lrn(B1):
            def hybrid_forward(self, F, x):
                return F.relu(x)
        def build():
            return make1()
        """,
    "scripts/run.py": "import mxnet as mx\nfrom pkg.use import build\nnet = build()\nnet.hybridize()\n",
}


def _write(root: Path, files: dict) -> list[Path]:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(text))
    return sorted(root.rglob("*.py"))


def _fixed_point_every_file_every_round(analyses, modules):
    """The fixed point as first written: every file analysed again in every round."""
    from xlate.convert.context import BLOCKS_MODULE, GLUON_ROOTS, LENT, LOCAL, REEXPORT, is_mxnet
    from xlate.convert.kinds import local_modules, top_level_kinds

    tree_modules = {name for name, _ in modules.values() if name}

    facts, analysed = {}, 0
    for _ in range(12):
        changed = False
        for path, analysis in analyses.items():
            module = modules[path][0]
            if not module:
                continue
            analysed += 1
            analysis.facts = facts
            analysis._kinds.clear()
            found = dict(top_level_kinds(analysis))
            root = analysis.scopes[()]
            for name, target in root.imports.items():
                if target.startswith(LOCAL) and facts.get(target):
                    found.setdefault(name, facts[target])
            for name, target in root.imports.items():  # Note [re-exported MXNet names]
                if not name.startswith("_") and is_mxnet(target):
                    found.setdefault(name, frozenset([REEXPORT + target]))
            for star in root.star_local:
                for key, kinds in list(facts.items()):
                    name = key[len(star) + 1:]
                    if key.startswith(star + ".") and "." not in name and not name.startswith(("_", "#")):
                        found.setdefault(name, kinds)
            for other in local_modules(analysis) - {module}:  # imported by another module of the tree
                if other in tree_modules and LOCAL + other + LENT not in facts:
                    facts[LOCAL + other + LENT] = frozenset({"lent"})
                    changed = True
            for name, kinds in found.items():
                key = f"{LOCAL}{module}.{name}"
                if kinds and facts.get(key) != kinds:
                    facts[key] = kinds
                    changed = True
                    if any(k.startswith(GLUON_ROOTS) for k in kinds):  # Note [modules that make blocks]
                        facts[f"{LOCAL}{module}{BLOCKS_MODULE}"] = frozenset({"mxnet.gluon.Block"})
        if not changed:
            break
    return facts, analysed


def _settle(root, files, splits):
    """The package pass with the tree's files split into shares (Note [package pass in shares]),
    as the lanes of -j N run it: (the facts, each share's contexts)."""
    from xlate.convert import package

    shares = [package.Share(root, files, part, lambda p: p.read_bytes()) for part in splits]
    updates: dict = {}
    for _ in range(package.ROUNDS):
        updates = package.merge([share.step(updates) for share in shares])
        if not updates:
            break
    facts = [share.facts for share in shares]
    assert all(f == facts[0] for f in facts)
    contexts = {}
    for share in shares:
        contexts.update(share.finish())
    return facts[0], contexts


def test_the_fixed_point_only_reanalyses_what_changed_and_finds_the_same(tmp_path, monkeypatch):
    """Only the files that read a changed fact are analysed again, and the facts are the
    ones analysing every file in every round gives (in the files' order and reversed: six
    rounds), however the files are split into shares."""
    import ast

    from xlate.convert import names, package
    from xlate.convert.context import FileContext

    root = tmp_path / "src"
    files = _write(root, CHAIN)
    modules = package.module_names(root, files)
    roots = frozenset(n.split(".", 1)[0] for n, _ in modules.values() if n)

    def analyses(order):
        return {p: names.Analysis(ast.parse(p.read_text()), context=FileContext(*modules[p], roots))
                for p in order}

    calls = []
    real = package._kinds_found
    monkeypatch.setattr(package, "_kinds_found", lambda a, *rest: calls.append(a) or real(a, *rest))
    expected, every_round = _fixed_point_every_file_every_round(analyses(files), modules)
    assert _fixed_point_every_file_every_round(analyses(files[::-1]), modules)[0] == expected
    found = []
    for splits in ([files], [files[::2], files[1::2]], [files[-1:], files[:-1]], [[f] for f in files], [files, []]):
        calls.clear()
        facts, contexts = _settle(root, files, splits)
        assert facts == expected
        found.append(contexts)
        # the chain needs a round per module: 6 x 14 analyses, against at most 3 x 14
        assert every_round >= 6 * len(files) and len(calls) <= 3 * len(files), (len(calls), every_round)
    assert all(contexts == found[0] for contexts in found)
    assert expected["@pkg.m0.B0"] == frozenset({"mxnet.gluon.HybridBlock"})
    assert expected["@pkg.m0.make0"] == frozenset({"mxnet.gluon.HybridBlock"})
    assert expected["@pkg.Reexported"] == frozenset({"mxnet.gluon.nn.HybridSequential"})
    assert "@pkg.m3_star.B3" in expected and "@pkg.m0.other0" not in expected


def _fingerprint(analysis) -> tuple:
    scopes = tuple(sorted((repr(k), s.gluon, s.derived_base, tuple(sorted(s.imports.items())),
                           tuple(sorted(s.mx_params))) for k, s in analysis.scopes.items()))
    return analysis.uses_mxnet, analysis.np_mode, tuple(analysis.mx_imports), scopes


def test_the_kept_analysis_is_the_one_a_fresh_analysis_gives(tmp_path, monkeypatch):
    """Note [one analysis per file]: the analysis the package pass keeps for a file is the one
    the file's conversion would make under its final context, whether it was kept as it was
    (no fact it read says Gluon) or made again (use.py's Lrn derives from a block of m1)."""
    import ast

    from xlate.convert import names, package

    root = tmp_path / "src"
    files = _write(root, CHAIN)

    def kept_and_fresh():
        kept = {}
        contexts = package.tree_contexts(root, files, lambda p: p.read_bytes(), keep=kept)
        return {p.relative_to(root).as_posix(): (_fingerprint(kept[p][1]),
                _fingerprint(names.Analysis(ast.parse(p.read_text()), context=contexts[p]))) for p in files}

    for rel, (kept, fresh) in kept_and_fresh().items():
        assert kept == fresh, rel
    # the same comparison catches a package pass that keeps every first analysis
    monkeypatch.setattr(package, "_final", lambda analysis, context, read: setattr(analysis, "facts", context.facts)
                        or analysis)
    differ = [rel for rel, (kept, fresh) in kept_and_fresh().items() if kept != fresh]
    assert differ == ["pkg/__init__.py"] + [f"pkg/m{i}.py" for i in range(5)] + ["pkg/use.py"]


def test_worker_processes_and_this_one_give_what_one_process_gives(tmp_path):
    """-j 3 (two workers beside this process, Note [this process converts too]) writes the
    files and the report -j 1 writes."""
    src = tmp_path / "src"
    _write(src, {**BASE, **CHAIN, "pkg/model.py": BASE["pkg/blocks/core.py"]})
    runs = {}
    for jobs in ("1", "3"):
        out, err = tmp_path / f"out{jobs}", io.StringIO()
        with redirect_stderr(err):
            main(["convert", str(src), "-o", str(out), "-j", jobs, "--exit-zero"])
        runs[jobs] = ({p.relative_to(out).as_posix(): p.read_text() for p in out.rglob("*.py")},
                      err.getvalue().replace(str(out), "OUT"))
    assert runs["1"] == runs["3"]
    assert "def forward(self, x):" in runs["3"][0]["pkg/use.py"]


def test_with_workers_each_process_analyses_a_share_of_the_tree(tmp_path, monkeypatch):
    """Note [package pass in shares]: with -j 2 this process parses and analyses about half of
    the tree (the worker the rest), and two trees converted in one run (--diff) give what
    -j 1 gives."""
    from xlate.convert import package

    a, b = tmp_path / "a", tmp_path / "b"
    _write(a, {**BASE, **CHAIN})
    _write(b, {**CHAIN, "pkg/model.py": BASE["pkg/blocks/core.py"]})
    shares = []
    real = package.Share.__init__
    monkeypatch.setattr(package.Share, "__init__",
                        lambda self, root, files, mine, read: shares.append((len(files), len(mine)))
                        or real(self, root, files, mine, read))
    runs = {}
    for jobs in ("1", "2"):
        shares.clear()
        out, err = io.StringIO(), io.StringIO()
        with redirect_stderr(err), redirect_stdout(out):
            main(["convert", str(a), str(b), "--diff", "-j", jobs, "--exit-zero"])
        runs[jobs] = (out.getvalue(), err.getvalue(), list(shares))
    assert runs["1"][:2] == runs["2"][:2]
    assert "def forward(self, x):" in runs["2"][0]
    assert [mine == files for files, mine in runs["1"][2]] == [True, True]
    assert len(runs["2"][2]) == 2 and all(0 < mine < files for files, mine in runs["2"][2]), runs["2"][2]


def _two_lanes(tmp_path, sizes):
    """Lanes for this process and one worker over files of these sizes (nothing converted)."""
    from xlate.convert.files import Job, _Lanes

    jobs = []
    for i, size in enumerate(sizes):
        (tmp_path / f"f{i}.py").write_text("x" * size)
        jobs.append(Job(tmp_path / f"f{i}.py", f"f{i}.py", None))
    return _Lanes(jobs, [], 2, (None, None, None), None)


def test_a_lane_that_is_done_takes_the_smallest_file_of_the_busiest(tmp_path):
    """Note [this process converts too]: files are dealt out by size; each lane takes its own
    largest first, then the smallest left to the lane with the most bytes left."""
    sizes = [900, 100, 500, 400, 300, 50]
    lanes = _two_lanes(tmp_path, sizes)
    try:
        assert sorted(sizes[i] for i in lanes.queues[0]) == [300, 900]  # 1200 bytes
        assert sorted(sizes[i] for i in lanes.queues[1]) == [50, 100, 400, 500]  # 1050 bytes
        assert [sizes[lanes._next(1)] for _ in range(4)] == [500, 400, 100, 50]
        assert [sizes[lanes._next(1)], sizes[lanes._next(0)]] == [300, 900]
        assert lanes._next(0) is None and lanes._next(1) is None and lanes.left == [0, 0]
    finally:
        for pool in lanes.pools:
            pool.shutdown()


def test_empty_files_left_to_another_lane_are_still_taken(tmp_path):
    """Empty files (`__init__.py`) weigh 0 bytes: once only they were left, the busiest lane by
    bytes was this process's own empty queue, so it stopped taking work while a worker's queue
    still held one; sent after `run` had stopped waiting, that file's output was lost (1 run in
    7 of the stdlib tree with -j 2)."""
    sizes = [700, 0, 0, 0]
    lanes = _two_lanes(tmp_path, sizes)
    try:
        assert [sizes[i] for i in lanes.queues[0]] == [700] and len(lanes.queues[1]) == 3
        assert lanes._next(0) == 0
        taken = [lanes._next(0) for _ in range(3)]  # lane 0 empty, every other lane at 0 bytes
        assert sorted(taken) == [1, 2, 3] and lanes._next(0) is None and lanes._next(1) is None
    finally:
        for pool in lanes.pools:
            pool.shutdown()


def test_a_custom_initializer_works_where_a_layer_takes_it_and_a_builtin_subclass_is_flagged(tmp_path):
    """GluonCV's CenterNet passes `weight_initializer=BilinearUpSample()`, a subclass of
    mx.init.Initializer of its own: translated on `_mx_Initializer` (MX522), the layer's helper
    calls it with the tensor, in the class's own module and in another module of the tree. A
    subclass of a built-in initializer (`mx.init.Xavier`) stays MXNet's (a torch init function
    cannot be subclassed): the layer's line says so, in both modules."""
    init_module = """\
        import mxnet as mx
        from mxnet.gluon import nn
        class Ones(mx.init.Initializer):
            def _init_weight(self, _, arr):
                arr[:] = 1
        class Wide(mx.init.Xavier):
            pass
        def head():
            return nn.Conv2DTranspose(4, 4, in_channels=4, weight_initializer=Wide())
        def ones():
            return nn.Conv2DTranspose(4, 4, in_channels=4, weight_initializer=Ones())
        """
    src = tmp_path / "src"
    _write(src, {"pkg/__init__.py": "", "pkg/init.py": init_module, "pkg/model.py": """\
        from mxnet.gluon import nn
        from .init import Ones, Wide
        def up():
            return nn.Conv2DTranspose(4, 4, in_channels=4, weight_initializer=Wide())
        def plain():
            return nn.Conv2DTranspose(4, 4, in_channels=4, weight_initializer=Ones())
        """})
    err = io.StringIO()
    with redirect_stderr(err):
        main(["convert", str(src), "-o", str(tmp_path / "out"), "--exit-zero"])
    report = err.getvalue()
    flagged = sorted(line.split(": MX122 [review]")[0].rsplit("/", 2)[-2:][1] for line in report.splitlines()
                     if "MX122 [review]" in line and "Wide derives from a built-in MXNet initializer" in line)
    assert flagged == ["init.py:9:12", "model.py:4:12"]
    assert [line for line in report.splitlines() if "MX522 [fixed]" in line]
    assert "init.py:6:12: MX900 [manual]" in report
    torch = pytest.importorskip("torch")
    sys.path.insert(0, str(tmp_path / "out"))
    try:
        from pkg import init as converted_init, model as converted_model  # noqa: F401  (the converted tree)
        for layer in (converted_model.plain(), converted_init.ones()):
            assert bool((layer.weight == 1).all()) and isinstance(layer.weight, torch.nn.Parameter)
    finally:
        sys.path.remove(str(tmp_path / "out"))
        for name in [n for n in sys.modules if n == "pkg" or n.startswith("pkg.")]:
            del sys.modules[name]


def test_what_made_an_expression_is_not_another_expressions_answer():
    """kinds_of memoises by id(expr); rules ask about throw-away `ast` nodes (converter._shape),
    and a freed node's id is soon another's. The memo used to give the second the first's answer:
    in gluon-nlp's run_glue.py, `trainer` once read as a layer, and the backward lost its
    `trainer.zero_grad()`, depending on where the allocator put the nodes."""
    import ast

    from xlate.convert import names

    analysis = names.Analysis(ast.parse("from mxnet import gluon\ntrainer = gluon.Trainer(p, 'sgd')\n"
                                        "net = gluon.nn.Dense(2)\n"))
    for _ in range(20):  # CPython hands the freed node's memory to the next one of its size
        assert analysis.constructed_by((), ast.Name(id="trainer")) == {"mxnet.gluon.Trainer"}
        assert analysis.constructed_by((), ast.Name(id="net")) == {"mxnet.gluon.nn.Dense"}


def test_a_module_without_mxnet_that_receives_its_values_is_converted(tmp_path):
    """Note [modules that receive MXNet values]: a helper module that imports nothing of MXNet but
    calls `.asnumpy()` on arrays the converted modules pass it (MXNet's sn_gan utils.py), or a Gluon
    block's `.collect_params()` (Quantization.MXNet's utils.py), is converted as MXNet code, its
    untyped receivers decided at run time; MX905 says why at the first such call. A module with none
    of them stays unchanged, and NumPy's own `np.asscalar` proves nothing."""
    src = tmp_path / "src"
    _write(src, {"pkg/__init__.py": "", "pkg/helpers.py": """\
        import numpy as np
        def show(x, y):
            return x.asnumpy().sum() + y.asscalar()
        def plain(values):
            return values.copy(), np.asscalar(np.mean(values))
        def qparams(net):
            return net.collect_params('.*max')
        def ready(infr, algo, ctx):
            algo.initialize(verbose=True)
            infr.initialize(ctx=ctx)
        """, "pkg/other.py": """\
        import numpy as np
        def f(a):
            return np.asscalar(a), a.copy()
        """, "pkg/video.py": """\
        import torch
        from decord import VideoReader
        def frames(vr, idx):
            return torch.as_tensor(vr.get_batch(idx).asnumpy())
        """, "pkg/clip.py": """\
        class Clip:
            def asnumpy(self):
                return list(self.frames)
        def all_frames(clip):
            return clip.asnumpy()
        """, "pkg/main.py": """\
        import mxnet as mx
        from .helpers import show
        print(show(mx.nd.ones((2, 3)), mx.nd.ones((1,))))
        """})
    err = io.StringIO()
    with redirect_stderr(err):
        main(["convert", str(src), "-o", str(tmp_path / "out"), "--exit-zero"])
    report = err.getvalue()
    assert [line.split("/pkg/")[1].split(": ")[0] for line in report.splitlines() if "MX905" in line] == \
        ["helpers.py:3:12"]
    assert "[manual]" not in report
    out = tmp_path / "out" / "pkg"
    for plain in ("other.py", "video.py", "clip.py"):  # decord's arrays and a class's own asnumpy
        assert (out / plain).read_text() == (src / "pkg" / plain).read_text()
    text = (out / "helpers.py").read_text()
    assert "np.asscalar(np.mean(values))" in text and "values.copy()" in text
    sys.path.insert(0, str(tmp_path / "out"))
    try:
        import torch

        from pkg import helpers

        assert helpers.show(torch.ones(2, 3), torch.ones(1)) == 7.0

        class Algo:  # anybody's initialize is its own: MXFusion's inference algorithms
            def initialize(self, **kwargs):
                self.seen = kwargs

        algo = Algo()
        helpers.ready(torch.nn.Linear(2, 2), algo, torch.device("cpu"))
        assert algo.seen == {"verbose": True}
    finally:
        sys.path.remove(str(tmp_path / "out"))
        for name in [m for m in sys.modules if m == "pkg" or m.startswith("pkg.")]:
            del sys.modules[name]


def test_a_backend_subpackage_named_mxnet_does_not_hide_mxnet(tmp_path):
    # Note [a package named mxnet]: nn/mxnet/ beside nn/pytorch/, copied without nn/__init__.py
    files = {
        "nn/mxnet/__init__.py": "from .conv import Conv\n",
        "nn/mxnet/conv.py": ("import mxnet as mx\nfrom mxnet.gluon import nn\n"
                             "class Conv(nn.HybridBlock):\n    def hybrid_forward(self, F, x):\n"
                             "        return F.relu(x)\n"),
        "nn/pytorch/__init__.py": "",
        "train.py": "from mxnet import nd\nx = nd.ones((2, 3))\n",
        "model/mxnet.py": "import mxnet as mx\nx = mx.nd.ones((2,))\n",  # a backend module, not a package
    }
    src = tmp_path / "src"
    for rel, text in files.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text)
    err = io.StringIO()
    with redirect_stderr(err):
        main(["convert", str(src), "-o", str(tmp_path / "out"), "-j", "1", "--exit-zero"])
    conv = (tmp_path / "out/nn/mxnet/conv.py").read_text()
    assert "class Conv(nn.Module):" in conv and "def forward(self, x):" in conv and "torch.relu(x)" in conv
    assert "torch.ones((2, 3))" in (tmp_path / "out/train.py").read_text()
    assert "torch.ones((2,))" in (tmp_path / "out/model/mxnet.py").read_text()
    report = err.getvalue()
    assert "nn/mxnet/conv.py:1:1: MX910 [review]" in report and "train.py:1:1: MX910 [review]" in report
    # the tree's own top-level package of that name is the tree's own (MXNet's python/mxnet)
    own = convert_tree(tmp_path / "own", {"mxnet/__init__.py": "from .nd import ones\n",
                                          # a docstring's example naming what the tree lacks (MXNet's util.py)
                                          "mxnet/nd.py": ('def ones(shape):\n    """e.g.\n\n    from mxnet import np\n'
                                                          '    """\n    return [1] * shape[0]\n'),
                                          "use.py": "import mxnet\nx = mxnet.ones((2,))\n"})
    assert own["use.py"] == "import mxnet\nx = mxnet.ones((2,))\n"


@pytest.mark.parametrize("evidence", ["from .. import *\n", "from mxnet import gluon\n"])
def test_the_backend_folder_given_as_the_tree_is_not_mxnet(tmp_path, evidence):
    # Note [a package named mxnet]: `xlate convert dglke/models/mxnet`, a top-level package named mxnet whose
    # files climb out of it or import from mxnet a module it lacks: `import mxnet` is MXNet itself (it passed
    # through before, with nothing said and a 100% convert rate)
    report = _convert_folder(tmp_path, "mxnet", {
        "__init__.py": "from .score import dist\n",
        "score.py": ("import mxnet as mx\nfrom mxnet import ndarray as nd\n" + evidence
                     + "def dist(a, b):\n    return nd.norm(a - b, axis=-1)\n")})
    score = (tmp_path / "out/score.py").read_text()
    assert "import mxnet" not in score and "torch.linalg.vector_norm(a - b, dim=-1)" in score, score
    assert "score.py:1:1: MX910 [review]" in report


def test_a_backend_folder_named_like_an_mxnet_module_climbs_into_its_own_library(tmp_path):
    # Note [a tree of MXNet's own package]: a tree named `gluon` is taken for MXNet's own gluon, and its climbing
    # imports for MXNet's; one whose files import `gluon` from mxnet itself is another library's backend folder
    report = _convert_folder(tmp_path, "gluon", {
        "__init__.py": "from .model import Net\n",
        "model.py": ("from mxnet import gluon, nd\nfrom .. import registry\n\n\n"
                     "class Net(gluon.HybridBlock):\n    def hybrid_forward(self, F, x):\n"
                     "        return F.relu(x) + nd.ones((1,))\n")})
    model = (tmp_path / "out/model.py").read_text()
    assert "from .. import registry" in model and "class Net(nn.Module):" in model, model
    assert "MX190" not in report


def _convert_folder(tmp_path, name: str, files: dict) -> str:
    """`xlate convert src/<name> -o out` of the folder holding `files`; its report."""
    for rel, text in files.items():
        (tmp_path / "src" / name / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "src" / name / rel).write_text(text)
    err = io.StringIO()
    with redirect_stderr(err):
        main(["convert", str(tmp_path / "src" / name), "-o", str(tmp_path / "out"), "-j", "1", "--exit-zero"])
    return err.getvalue()


def test_relative_imports_out_of_the_tree_name_the_packages_around_it(tmp_path):
    # MXNet's own gluon/model_zoo converted alone: `from ..block import HybridBlock` there is MXNet's
    around = {"mxnet/__init__.py": "", "mxnet/gluon/__init__.py": "",
              "myproj/__init__.py": "", "myproj/utils.py": "def helper(x):\n    return x\n"}
    zoo = {"mxnet/gluon/model_zoo/__init__.py": "from .net import Net\n",
           "mxnet/gluon/model_zoo/net.py": ("from ..block import HybridBlock\nfrom .. import nn\n\n"
                                            "class Net(HybridBlock):\n    def __init__(self, **kwargs):\n"
                                            "        super(Net, self).__init__(**kwargs)\n"
                                            "        self.body = nn.Dense(3, in_units=4)\n"
                                            "    def hybrid_forward(self, F, x):\n        return F.relu(self.body(x))\n"),
           "myproj/models/__init__.py": "", "myproj/models/m.py": "from ..utils import helper\ny = helper(1)\n"}
    for rel, text in {**around, **zoo}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    for tree, out in (("mxnet/gluon/model_zoo", "zoo_pt"), ("myproj/models", "models_pt")):
        with redirect_stderr(io.StringIO()):
            main(["convert", str(tmp_path / tree), "-o", str(tmp_path / out), "-j", "1", "--exit-zero"])
    net = (tmp_path / "zoo_pt/net.py").read_text()
    assert "class Net(nn.Module):" in net and "def forward(self, x):" in net and "torch.relu(" in net
    assert "import HybridBlock" not in net and "from .. import" not in net
    # a package of the user's own around the tree stays the user's
    assert (tmp_path / "models_pt/m.py").read_text() == "from ..utils import helper\ny = helper(1)\n"


@pytest.mark.parametrize("spelling,call", [
    ("import pkg.blocks.core", "pkg.blocks.core.make_block(3)"),
    ("import pkg.blocks.core as core", "core.make_block(3)"),
    ("from pkg.blocks import core", "core.make_block(3)"),
])
def test_a_module_without_mxnet_that_uses_the_trees_blocks_by_module_name_is_converted(tmp_path, spelling, call):
    """Note [modules that make blocks]: sockeye's unit tests import nothing of MXNet, `import
    sockeye.encoder` and call `.initialize()` / `.hybridize()` on what its factory returns; they
    came back unchanged, with nothing reported, and failed where torch modules lack those methods."""
    out = convert_tree(tmp_path, {**BASE, "tests/test_core.py": f"""\
        {spelling}
        def test_it():
            net = {call}
            net.initialize()
            net.hybridize(static_alloc=True)
            return net
        """})
    test = out["tests/test_core.py"]
    assert "_mx_initialize(net)" in test and "hybridize" not in test and ".initialize()" not in test, test


@pytest.mark.parametrize("layout", ["scripts", "package", "named"])
def test_mxnet_names_taken_with_a_star_import_of_a_tree_module_are_mxnets(tmp_path, layout):
    """Note [re-exported MXNet names]: a module keeps the imports (`import mxnet.gluon as gluon`)
    and another takes them with `from common import *` (or by name). Converted, common no longer
    binds them: the block of the other was left a Gluon class with nothing said (the named import
    an ImportError). Run without mxnet, the converted model computes what MXNet computes."""
    mx = pytest.importorskip("mxnet")
    torch = pytest.importorskip("torch")
    np = pytest.importorskip("numpy")
    # its `__all__` lists the MXNet imports it hands on (Note [__all__ of removed imports]): converted, the
    # entries go with the imports, or the star import raises AttributeError
    common = ("import mxnet as mx\nimport mxnet.gluon as gluon\nfrom mxnet import nd\n_hidden = 1\nscale = 2\n"
              "__all__ = ['mx', 'gluon', 'nd', 'scale']\n")
    model = """\
        from common import *

        class Net(gluon.HybridBlock):
            def __init__(self, **kwargs):
                super(Net, self).__init__(**kwargs)
                with self.name_scope():
                    self.dense = gluon.nn.Dense(3, in_units=4)
            def hybrid_forward(self, F, x):
                return F.relu(self.dense(x)) + nd.ones((1, 3)) * scale

        def build():
            net = Net()
            net.initialize(mx.init.Xavier())
            return net
        """
    if layout != "scripts":
        star = "from .common import *" if layout == "package" else "from .common import mx, gluon, nd, scale"
        files = {"pkg/__init__.py": "", "pkg/common.py": common,
                 "pkg/model.py": textwrap.dedent(model).replace("from common import *", star)}
    else:
        files = {"common.py": common, "model.py": model}
    out = convert_tree(tmp_path, files)
    converted = out["model.py" if layout == "scripts" else "pkg/model.py"]
    assert "gluon" not in converted and "class Net(nn.Module)" in converted, converted
    root = tmp_path / "out"
    sys.path.insert(0, str(root))
    mine = ("common", "model", "pkg", "_mx_compat")  # the converted tree's modules, its helper module too
    saved = {k: sys.modules.pop(k) for k in list(sys.modules) if k.split(".")[0] in mine}
    try:
        mod = __import__("model" if layout == "scripts" else "pkg.model", fromlist=["build"])
        pt = mod.build()
    finally:
        sys.path.remove(str(root))
        for k in [k for k in sys.modules if k.split(".")[0] in mine]:
            del sys.modules[k]  # a later test's own `_mx_compat` must not find this one
        sys.modules.update(saved)
    namespace: dict = {}
    exec(compile(common, "common", "exec"), namespace)
    exec(compile(textwrap.dedent(model).replace("from common import *\n", ""), "model", "exec"), namespace)
    ref = namespace["build"]()
    x = np.random.default_rng(0).uniform(-1, 1, (2, 4)).astype("float32")
    with torch.no_grad():
        pt.dense.weight.copy_(torch.tensor(ref.dense.weight.data().asnumpy()))
        pt.dense.bias.copy_(torch.tensor(ref.dense.bias.data().asnumpy()))
        got = pt(torch.tensor(x)).numpy()
    np.testing.assert_allclose(got, ref(mx.nd.array(x)).asnumpy(), rtol=1e-6, atol=1e-6)


BARE = {
    "pkg/__init__.py": "",
    "pkg/net.py": """\
        from mxnet.gluon import nn
        class Base(nn.HybridBlock):
            def __init__(self, **kwargs):
                super(Base, self).__init__(**kwargs)
                self.dense = nn.Dense(3, in_units=4)
        def get_net():
            return Base()
        """,
    "pkg/child.py": """\
        from net import Base
        class Child(Base):
            def hybrid_forward(self, F, x):
                return F.relu(self.dense(x))
        """,
    "pkg/tools/__init__.py": "",
    "pkg/tools/clip.py": """\
        import os
        import sys
        sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        from net import get_net
        def clip():
            net = get_net()
            return net.collect_params()
        """,
    "pkg/tools/plain.py": """\
        from net import get_net
        def clip():
            return get_net().collect_params()
        """,
}


def test_the_trees_modules_imported_by_bare_name_are_the_trees(tmp_path):
    """Note [bare-name imports of the tree]: a module beside the importer, or the tree's only module
    of that name where the importer changes sys.path, is the tree's. SPOS's utils/clip_weights.py
    came back unchanged with `.collect_params()` and `.set_data()` on the factory's network, and
    nothing reported. Without either sign (`plain.py`), a bare name stays a module of its own; its
    `.collect_params()` still proves a Gluon block reaches it (Note [modules that receive MXNet
    values]), and the helper decides at run time, whichever `net` it is."""
    out = convert_tree(tmp_path, BARE)
    assert "class Child(Base)" in out["pkg/child.py"] and "def forward(self, x)" in out["pkg/child.py"], out["pkg/child.py"]
    assert "_mx_collect_params(net)" in out["pkg/tools/clip.py"], out["pkg/tools/clip.py"]
    assert out["pkg/tools/plain.py"] == textwrap.dedent(BARE["pkg/tools/plain.py"]).replace(
        "get_net().collect_params()", "_mx_collect_params(get_net())").replace(
        "from net import get_net\n", "from net import get_net\nfrom .._mx_compat import _mx_collect_params\n")


def test_a_module_with_a_main_guard_that_the_tree_imports_keeps_its_mxnet_import_guarded(tmp_path):
    """Note [kept MXNet imports]: a package module that runs as a script too stays unguarded, but
    one another module imports is lent first (sknlp's crf.py and the tagger importing it)."""
    crf = """\
        import mxnet as mx
        def graph():
            return mx.sym.var('data')
        if __name__ == '__main__':
            print(graph())
        """
    out = convert_tree(tmp_path, {"pkg/__init__.py": "", "pkg/crf.py": crf, "pkg/solo.py": crf,
                                  "pkg/tagger.py": "from .crf import graph\n"})
    assert "except ImportError" in out["pkg/crf.py"], out["pkg/crf.py"]
    assert "except ImportError" not in out["pkg/solo.py"], out["pkg/solo.py"]


def test_another_librarys_mxnet_binding_is_reported_but_the_trees_own_backend_is_not(tmp_path):
    """Note [MXNet bindings of other libraries]: Horovod's, DALI's and MXBoard's MXNet modules (and an
    unknown `<lib>.mxnet`) are reported at their import, in a module with MXNet and in one without; the
    tree's own backend subpackage `pkg/nn/mxnet/`, imported by its absolute name, is converted code."""
    src = tmp_path / "src"
    _write(src, {"pkg/__init__.py": "", "pkg/nn/__init__.py": "", "pkg/nn/mxnet/__init__.py": "",
                 "pkg/nn/mxnet/conv.py": "import mxnet as mx\n\n\ndef conv(x):\n    return mx.nd.relu(x)\n",
                 "pkg/train.py": """\
        import mxnet as mx
        import horovod.mxnet as hvd
        from nvidia.dali.plugin.mxnet import DALIGenericIterator
        from pkg.nn.mxnet.conv import conv
        hvd.init()
        """, "pkg/log.py": """\
        from mxboard import SummaryWriter
        from somelib.mxnet.ops import thing
        """})
    err = io.StringIO()
    with redirect_stderr(err):
        main(["convert", str(src), "-o", str(tmp_path / "out"), "--exit-zero"])
    found = sorted(line.split("/pkg/")[1].split(": ")[0] + " " + line.split("`")[1]
                   for line in err.getvalue().splitlines() if "MX902" in line and "/pkg/" in line)
    assert found == ["log.py:1:1 mxboard", "log.py:2:1 somelib.mxnet", "train.py:2:1 horovod.mxnet",
                     "train.py:3:1 nvidia.dali.plugin.mxnet"]
