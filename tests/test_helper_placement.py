"""Where converted code finds its helpers (Note [helper placement] in xlate/convert/placement.py):
after the user's code in a single file, from one `_mx_compat.py` per tree otherwise."""
from __future__ import annotations

import ast
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from xlate.cli import main
from xlate.convert.engine import convert_source
from xlate.convert.placement import HelperImport
from xlate.runtime import sources

MODEL = textwrap.dedent("""\
    import logging
    from mxnet.gluon import nn
    log = logging.getLogger(__name__)

    class Net(nn.HybridBlock):
        def __init__(self, **kwargs):
            super(Net, self).__init__(**kwargs)
            self.bn = nn.BatchNorm()
            self.out = nn.Dense(3)

        def hybrid_forward(self, F, x):
            return self.out(self.bn(x))

    def build():
        return Net()
    """)


def top_level(code: str) -> list[str]:
    """Names of the top-level statements, helpers as `<helpers>` once."""
    out = []
    for node in ast.parse(code).body:
        name = getattr(node, "name", None) or type(node).__name__
        if name in sources():
            name = "<helpers>"
        if not out or out[-1] != name:
            out.append(name)
    return out


def test_single_file_helpers_come_after_the_users_code():
    r = convert_source(MODEL)
    assert top_level(r.output) == ["Import", "ImportFrom", "Assign", "Net", "build", "<helpers>"]


def test_helpers_run_on_import_stand_once_after_the_imports_never_between_the_users_statements():
    for tail in ["if __name__ == '__main__':\n    build()\n", "net = build()\n",
                 "class Extra(nn.BatchNorm):\n    pass\n"]:
        out = convert_source(MODEL + tail).output
        names = top_level(out)
        assert names[:3] == ["Import", "ImportFrom", "<helpers>"] and names.count("<helpers>") == 1, names
        exec(compile(out, "<converted>", "exec"), {"__name__": "__main__"})  # runs: defined in time


def test_calls_on_imported_names_do_not_pull_helpers_up():
    out = convert_source(MODEL + "print(logging.INFO)\n").output
    assert top_level(out)[-1] == "<helpers>"


def write_tree(root: Path, files: dict) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


TREE = {
    "pkg/__init__.py": "",
    "pkg/common.py": """\
        from mxnet.gluon import nn
        def conv_bn(c):
            out = nn.HybridSequential()
            out.add(nn.Conv2D(c, 3, padding=1), nn.BatchNorm())
            return out
        """,
    "pkg/sub/__init__.py": "",
    "pkg/sub/model.py": """\
        from mxnet.gluon import nn
        from pkg.common import conv_bn
        class Net(nn.HybridBlock):
            def __init__(self, **kwargs):
                super(Net, self).__init__(**kwargs)
                self.body = conv_bn(4)
                self.out = nn.Dense(3, activation='relu')
            def hybrid_forward(self, F, x):
                return self.out(self.body(x))
        if __name__ == "__main__":
            print(Net()(__import__("torch").ones(2, 3, 5, 5)).shape)
        """,
    "scripts/train.py": """\
        from mxnet.gluon import nn
        net = nn.Dense(2, activation='relu')
        print(type(net).__name__)
        """,
}


def test_a_tree_imports_its_helpers_from_one_module_per_package(tmp_path, capsys):
    write_tree(tmp_path / "src", TREE)
    out = tmp_path / "out"
    assert main(["convert", str(tmp_path / "src"), "-o", str(out)]) == 0
    common = (out / "pkg/common.py").read_text()
    assert "from ._mx_compat import _mx_BatchNorm, _mx_named\n" in common and "class _mx_" not in common
    model = (out / "pkg/sub/model.py").read_text()
    # a package file that also runs as a script finds the module either way
    assert "if __package__:\n    from .._mx_compat import _mx_Dense\nelse:\n    from _mx_compat import _mx_Dense" in model
    assert "from _mx_compat import _mx_Dense\n" in (out / "scripts/train.py").read_text()
    modules = sorted(str(p.relative_to(out)) for p in out.rglob("_mx_compat.py"))
    # the root is no package: sys.path may start there (Note [one absolute helper module])
    assert modules == ["_mx_compat.py", "pkg/_mx_compat.py", "pkg/sub/_mx_compat.py", "scripts/_mx_compat.py"]
    helpers = {n.name for n in ast.parse((out / "pkg/_mx_compat.py").read_text()).body
               if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    assert {"_mx_BatchNorm", "_mx_Dense", "_mx_Deferred"} <= helpers  # with what they use
    run = dict(cwd=out, capture_output=True, text=True, timeout=120)
    as_package = subprocess.run([sys.executable, "-c", "import torch\nfrom pkg.sub.model import Net\n"
                                 "print(Net()(torch.ones(2, 3, 5, 5)).shape)"], **run)
    assert as_package.returncode == 0 and "torch.Size([2, 3])" in as_package.stdout, as_package.stderr
    as_module = subprocess.run([sys.executable, "-m", "pkg.sub.model"], **run)
    assert as_module.returncode == 0 and "torch.Size([2, 3])" in as_module.stdout, as_module.stderr
    script = subprocess.run([sys.executable, "scripts/train.py"], **run)
    assert script.returncode == 0 and "_mx_Dense" in script.stdout, script.stderr


def test_folders_without_init_imported_as_namespace_packages_find_every_helper(tmp_path):
    # Note [one absolute helper module]: `from data.sets import DS` run from the root takes the first
    # `_mx_compat` on sys.path, the root's, written for the root's own script, which needs other helpers
    write_tree(tmp_path / "src", {
        "data/sets.py": "import mxnet.gluon.data as data\nfrom mxnet import nd\nclass DS(data.Dataset):\n"
                        "    def __len__(self):\n        return 3\ndef sparse(a):\n    return nd.sparse.csr_matrix(a)\n",
        "nets/dense.py": "from mxnet.gluon import nn\nnet = nn.Dense(2, in_units=3)\n",
        "train.py": "import mxnet as mx\nfrom data.sets import DS\nx = mx.nd.ones((2, 3))\n"})
    out = tmp_path / "out"
    assert main(["convert", str(tmp_path / "src"), "-o", str(out), "--exit-zero"]) == 0
    sets = (out / "data/sets.py").read_text()
    assert "from _mx_compat import _mx_Dataset" in sets
    # and its import kept for the code left imports without MXNet (Note [kept MXNet imports])
    assert "    from mxnet import nd\nexcept ImportError:" in sets
    modules = sorted(str(p.relative_to(out)) for p in out.rglob("_mx_compat.py"))
    assert modules == ["_mx_compat.py", "data/_mx_compat.py", "nets/_mx_compat.py"]
    texts = {(out / m).read_text() for m in modules}
    assert len(texts) == 1 and "class _mx_Dataset" in texts.pop()


def test_a_root_with_an_init_whose_files_import_its_folders_absolutely_is_on_sys_path(tmp_path):
    """Note [a root on sys.path]: a federated-learning project keeps an empty `__init__.py` at its root and
    imports `Tools.utils` and `from Algorithm import MLP` from there; its files imported their helpers with
    `from .._mx_compat import ...`, above the top-level package, and failed to import."""
    from xlate.convert.tree import path_top

    files = {"__init__.py": "", "Tools/__init__.py": "",
             "Tools/utils.py": "from mxnet import nd\nfrom mxnet.gluon import nn\ndef ones():\n    return nd.ones((2, 3))\n"
                               "def head():\n    return nn.Dense(2, activation='relu')\n",
             "Algorithm/MLP.py": "from mxnet.gluon import nn\ndef MLP():\n    net = nn.Sequential()\n"
                                 "    net.add(nn.Dense(4, activation='relu'), nn.Dense(2))\n    return net\n",
             "main.py": "from Algorithm import MLP\nfrom Tools.utils import ones\nprint(MLP.MLP()(ones()).shape)\n"}
    write_tree(tmp_path / "src", files)
    assert path_top((tmp_path / "src").resolve()) == (tmp_path / "src").resolve()
    out = tmp_path / "out"
    assert main(["convert", str(tmp_path / "src"), "-o", str(out), "--exit-zero"]) == 0
    assert "from ._mx_compat import _mx_Dense" in (out / "Tools/utils.py").read_text()
    assert "from _mx_compat import _mx_Dense" in (out / "Algorithm/MLP.py").read_text()
    assert sorted(str(p.relative_to(out)) for p in out.rglob("_mx_compat.py")) == [
        "Algorithm/_mx_compat.py", "Tools/_mx_compat.py", "_mx_compat.py"]
    tops = ("Algorithm", "Tools", "_mx_compat")
    sys.path.insert(0, str(out))
    saved = {k: sys.modules.pop(k) for k in list(sys.modules) if k.split(".")[0] in tops}
    try:  # imported as main.py imports them, with the root on sys.path
        mlp, utils = __import__("Algorithm.MLP", fromlist=["MLP"]), __import__("Tools.utils", fromlist=["ones"])
        assert mlp.MLP()(utils.ones()).shape == (2, 2) and type(utils.head()).__name__ == "_mx_Dense"
    finally:
        sys.path.remove(str(out))
        for k in [k for k in sys.modules if k.split(".")[0] in tops]:
            del sys.modules[k]
        sys.modules.update(saved)
    # a tree whose files name the root's own package keeps the root a package
    write_tree(tmp_path / "pkg", {**files, "main.py": "from pkg.Tools.utils import ones\n"})
    assert path_top((tmp_path / "pkg").resolve()) == tmp_path.resolve()


def test_a_namespace_folder_inside_a_package_imports_the_packages_helpers(tmp_path):
    """Note [namespace folders inside a package]: MXNet-Detector's `core/utils/dataprocessing/` has no
    `__init__.py` below the package `core`, which imports it as `core.utils.dataprocessing`; its modules
    imported their helpers by absolute name, which nothing on sys.path held. The layer built with the size
    of the one before it (Note [deferred input sizes]) keeps the helper its initializer calls."""
    write_tree(tmp_path / "src", {
        "core/__init__.py": "from core.utils.heads.head import build\n",
        "core/utils/__init__.py": "",
        "core/utils/heads/head.py": "import mxnet as mx\nfrom mxnet.gluon import nn\ndef build(bias=-2.19):\n"
                                    "    seq = nn.HybridSequential()\n    seq.add(nn.Conv2D(4, 3, in_channels=2))\n"
                                    "    seq.add(nn.Conv2D(3, 1, bias_initializer=mx.init.Constant(bias)))\n"
                                    "    return seq\n",
        # a script beside it, no module imports: nothing in a namespace folder tells the two apart, so
        # its kept import is guarded (Note [kept MXNet imports])
        "core/utils/heads/tool.py": "from mxnet import nd\ndef sparse(a):\n    return nd.sparse.csr_matrix(a)\n"
                                    "if __name__ == '__main__':\n    print(sparse([[1.0]]))\n"})
    out = tmp_path / "out"
    assert main(["convert", str(tmp_path / "src"), "-o", str(out), "--exit-zero"]) == 0
    head = (out / "core/utils/heads/head.py").read_text()
    assert "from ..._mx_compat import _mx_constant, _mx_init_params, _mx_named\n" in head, head
    assert "    from mxnet import nd\nexcept ImportError:" in (out / "core/utils/heads/tool.py").read_text()
    assert "core/_mx_compat.py" in [str(p.relative_to(out)) for p in out.rglob("_mx_compat.py")]
    sys.path.insert(0, str(out))
    saved = {k: sys.modules.pop(k) for k in list(sys.modules) if k.split(".")[0] in ("core", "_mx_compat")}
    try:
        import torch

        net = __import__("core", fromlist=["build"]).build()
        net(torch.ones(1, 2, 5, 5))  # the deferred initialisers run
        assert net[1].bias.tolist() == pytest.approx([-2.19] * 3)  # MXNet's Constant(-2.19)
    finally:
        sys.path.remove(str(out))
        for k in [k for k in sys.modules if k.split(".")[0] in ("core", "_mx_compat")]:
            del sys.modules[k]
        sys.modules.update(saved)


def test_converting_the_output_again_changes_nothing(tmp_path):
    write_tree(tmp_path / "src", TREE)
    assert main(["convert", str(tmp_path / "src"), "-o", str(tmp_path / "once")]) == 0
    assert main(["convert", str(tmp_path / "once"), "-o", str(tmp_path / "twice")]) == 0
    once = {p.relative_to(tmp_path / "once"): p.read_text() for p in (tmp_path / "once").rglob("*.py")}
    twice = {p.relative_to(tmp_path / "twice"): p.read_text() for p in (tmp_path / "twice").rglob("*.py")}
    assert once == twice


def test_a_foreign_file_named_like_the_helper_module_stops_the_conversion(tmp_path, capsys):
    write_tree(tmp_path / "src", {**TREE, "pkg/_mx_compat.py": "VALUE = 1\n"})
    assert main(["convert", str(tmp_path / "src"), "-o", str(tmp_path / "out")]) == 2
    assert "xlate did not write it" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_inline_helpers_for_a_tree_and_a_module_for_one_file(tmp_path):
    write_tree(tmp_path / "src", TREE)
    assert main(["convert", str(tmp_path / "src"), "-o", str(tmp_path / "inline"), "--helpers", "inline"]) == 0
    assert not list((tmp_path / "inline").rglob("_mx_compat.py"))
    assert "class _mx_BatchNorm" in (tmp_path / "inline/pkg/common.py").read_text()
    single = tmp_path / "single"
    single.mkdir()
    (single / "m.py").write_text(MODEL)
    assert main(["convert", str(single / "m.py"), "-o", str(single / "m_pt.py"), "--helpers", "module"]) == 0
    assert "from _mx_compat import _mx_BatchNorm, _mx_Dense" in (single / "m_pt.py").read_text()
    assert (single / "_mx_compat.py").is_file()


def test_module_helpers_for_one_file_need_somewhere_to_write(tmp_path, capsys):
    (tmp_path / "m.py").write_text(MODEL)
    assert main(["convert", str(tmp_path / "m.py"), "--helpers", "module"]) == 2
    assert "_mx_compat.py" in capsys.readouterr().err


@pytest.mark.parametrize("mode", ["--diff", "--in-place"])
def test_diff_and_in_place_include_the_helper_module(tmp_path, capsys, mode):
    write_tree(tmp_path / "src", TREE)
    assert main(["convert", str(tmp_path / "src"), mode]) == 0
    if mode == "--diff":
        assert "b/" + str(tmp_path / "src/pkg/_mx_compat.py") in capsys.readouterr().out
    else:
        assert (tmp_path / "src/pkg/_mx_compat.py").is_file()


# -- issue 24: what a converted module needs at import ------------------------------------------
NO_MXNET = ("import sys\nclass _NoMXNet:\n    def find_spec(self, name, path=None, target=None):\n"
            "        if name.split('.')[0] == 'mxnet':\n            raise ImportError('mxnet is blocked')\n"
            "sys.meta_path.insert(0, _NoMXNet())\n")


def import_without_mxnet(root: Path, module: str, *more: str) -> str:
    """`module`'s __doc__ (and each of `more`'s, one line each), imported from `root` with torch
    and without MXNet, in one process."""
    modules = (module, *more)
    done = subprocess.run([sys.executable, "-c", NO_MXNET + f"sys.path.insert(0, {str(root)!r})\n"
                           + "".join(f"import {m}\nprint(repr({m}.__doc__))\n" for m in modules)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.strip().splitlines()[-len(modules):]
    return lines[0] if not more else lines


def convert_package(tmp_path: Path, files: dict) -> Path:
    write_tree(tmp_path / "src", {"pkg/__init__.py": "", **{f"pkg/{k}": v for k, v in files.items()}})
    assert main(["convert", str(tmp_path / "src"), "-o", str(tmp_path / "out"), "-j", "1"]) == 0
    return tmp_path / "out"


def test_a_torch_name_a_rewrite_writes_is_imported_in_a_tree_and_in_one_file(tmp_path):
    a = ('"""Module doc."""\nfrom mxnet import gluon\nfrom mxnet.gluon import nn\n\nact = gluon.nn.HybridLambda("tanh")\n'
         'net = nn.HybridSequential()\nnet.add(nn.Dense(3), act)\n')
    out = convert_package(tmp_path, {"a.py": a})
    assert "_mx_Lambda(torch.tanh)" in (out / "pkg/a.py").read_text()
    assert import_without_mxnet(out, "pkg.a") == "'Module doc.'"
    single = convert_source(a.replace("nn.Dense(3), ", ""), options={"helper_import": HelperImport(level=None)})
    assert "import torch\n" in single.output


def test_the_helper_import_precedes_every_use_at_import_time(tmp_path):
    b = ('"""Doc of b."""\nimport mxnet as mx\nfrom mxnet.gluon import nn\nx = nn.Dense(4)\nimport os\n'
         'y = mx.nd.reshape(mx.nd.ones((2,3)), (-1,))\n')
    c = ('from mxnet.gluon import nn\nimport os\nclass C:\n    layer = nn.Dense(2)\n'
         'def f(d=nn.Dense(2)):\n    return d\nimport math\n')
    out = convert_package(tmp_path, {"b.py": b, "c.py": c})
    assert import_without_mxnet(out, "pkg.b") == "'Doc of b.'"
    assert import_without_mxnet(out, "pkg.c") == "None"


HEADS = [
    '"""Doc."""\n', '# a comment\n\n"""Doc."""\n', '# -*- coding: utf-8 -*-\n"""Doc."""\n',
    '"""Doc."""\nfrom __future__ import annotations\n', '"""Doc."""; import os\n', 'r"""Doc."""\n',
    '"""Doc."""\r\n']


def test_the_docstring_and_future_imports_stay_first(tmp_path):
    files = {}
    for i, head in enumerate(HEADS):  # one package, one process: each header its own module
        newline = "\r\n" if head.endswith("\r\n") else "\n"
        files[f"d{i}.py"] = head + "from mxnet.gluon import nn\nx = nn.Dense(4)\n".replace("\n", newline)
    out = convert_package(tmp_path, files)
    assert import_without_mxnet(out, *[f"pkg.d{i}" for i in range(len(HEADS))]) == ["'Doc.'"] * len(HEADS)
    for i, head in enumerate(HEADS):
        converted = (out / f"pkg/d{i}.py").read_text()
        assert ast.get_docstring(ast.parse(converted)) == "Doc.", head
        if "__future__" in head:
            assert converted.index("from __future__") < converted.index("from ._mx_compat")


# -- one file -----------------------------------------------------------------------------------
LENET = textwrap.dedent('''\
    """LeNet."""
    import mxnet as mx
    from mxnet import gluon, nd
    from mxnet.gluon import nn
    net = nn.Sequential()
    net.add(nn.Conv2D(6, kernel_size=5, activation="relu", in_channels=1), nn.MaxPool2D(2),
            nn.Dense(10, activation="relu", in_units=96))
    net.initialize(mx.init.Xavier())
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    print(net(nd.ones((2, 1, 12, 12))).shape)
    ''')


def users_statements(code: str) -> list:
    return [i for i, name in enumerate(top_level(code)) if name != "<helpers>"]


def test_one_file_on_stdout_keeps_its_statements_together_and_runs():
    out = convert_source(LENET).output
    names = top_level(out)
    assert names.count("<helpers>") == 1 and names.index("<helpers>") == 3, names  # after the imports
    done = subprocess.run([sys.executable, "-c", NO_MXNET + "exec(compile(sys.stdin.read(), 'lenet', 'exec'))"],
                          input=out, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "torch.Size([2, 10])" in done.stdout, done.stderr[-2000:]
    assert top_level(convert_source(MODEL).output)[-1] == "<helpers>"  # nothing runs them: after the code


def test_one_file_written_to_a_file_imports_only_what_it_names_from_a_module_beside_it(tmp_path, capsys):
    (tmp_path / "lenet.py").write_text(LENET)
    out = tmp_path / "out"
    assert main(["convert", str(tmp_path / "lenet.py"), "-o", str(out / "lenet_pt.py")]) == 0
    converted = (out / "lenet_pt.py").read_text()
    assert "class _mx_" not in converted and "def _mx_" not in converted
    line = next(l for l in converted.splitlines() if l.startswith("from _mx_compat import"))
    named = line.split(" import ")[1].split(", ")
    assert "_mx_SGD" not in named and all(converted.count(n) >= 2 for n in named)  # each used
    assert "class _mx_SGD" in (out / "_mx_compat.py").read_text()  # the trainer finds it by name
    count = len(re.findall(r"^(?:def|class) _mx_", (out / "_mx_compat.py").read_text(), flags=re.M))
    assert f"Helpers: {count} in {out / '_mx_compat.py'} (imported by 1 file)." in capsys.readouterr().err


def test_a_second_script_into_the_same_folder_keeps_the_first_working(tmp_path, capsys):
    (tmp_path / "lenet.py").write_text(LENET)
    (tmp_path / "m.py").write_text(MODEL + "print(type(build()).__name__)\n")
    out = tmp_path / "out"
    assert main(["convert", str(tmp_path / "lenet.py"), "-o", str(out / "lenet_pt.py")]) == 0
    assert main(["convert", str(tmp_path / "m.py"), "-o", str(out / "m_pt.py")]) == 0
    err = capsys.readouterr().err
    assert f"in {out / '_mx_compat.py'}" in err
    for script, expect in [("lenet_pt.py", "torch.Size([2, 10])"), ("m_pt.py", "Net")]:
        run = NO_MXNET + f"sys.path.insert(0, '')\nimport runpy\nrunpy.run_path({script!r}, run_name='__main__')"
        done = subprocess.run([sys.executable, "-c", run], cwd=out, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and expect in done.stdout, done.stderr[-2000:]


def test_a_module_xlate_did_not_write_is_left_alone_and_the_file_carries_its_helpers(tmp_path, capsys):
    (tmp_path / "m.py").write_text(MODEL)
    (tmp_path / "_mx_compat.py").write_text("VALUE = 1\n")
    assert main(["convert", str(tmp_path / "m.py"), "-o", str(tmp_path / "m_pt.py")]) == 0
    assert (tmp_path / "_mx_compat.py").read_text() == "VALUE = 1\n"
    assert "class _mx_Dense" in (tmp_path / "m_pt.py").read_text()
    assert "is not xlate's; pasted instead" in capsys.readouterr().err


# Note [torch imported for the whole module]: an `import torch` the input makes in a block that may
# not run (a script's self-test, a flag's branch, a loop) binds nothing for the classes above it
@pytest.mark.parametrize("block", ["if __name__ == '__main__':", "if DEBUG:", "for _ in range(0):",
                                   "while DEBUG:"])
def test_a_torch_import_in_a_block_that_may_not_run_does_not_stand_for_the_modules(block):
    src = ("from mxnet.gluon import nn\nDEBUG = False\n\n\nclass Net(nn.HybridBlock):\n"
           "    def hybrid_forward(self, F, x):\n        return F.clip(x, 0, 1)\n\n\n"
           f"{block}\n    import torch\n    print(torch.ones(2))\n")
    out = convert_source(src).output
    scope = {"__name__": "converted"}
    exec(compile(out, "<converted>", "exec"), scope)
    import torch
    assert scope["Net"]()(torch.tensor([-1.0, 0.5, 2.0])).tolist() == [0.0, 0.5, 1.0]


def test_a_top_level_torch_import_or_a_guarded_one_is_not_repeated():
    for head in ["import torch\n", "try:\n    import torch\nexcept ImportError:\n    torch = None\n"]:
        src = head + "from mxnet import nd\nx = nd.ones((2,))\n"
        out = convert_source(src).output
        assert out.count("import torch\n") == 1, out
