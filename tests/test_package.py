"""Whole-package analysis (Note [package facts]): what one module of a converted tree knows about
the classes and factories of the others."""
from __future__ import annotations

import io
import textwrap
from contextlib import redirect_stderr
from pathlib import Path

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
