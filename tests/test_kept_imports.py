"""A kept MXNet import (code left to translate still uses it, MX002) no longer stops the
converted module from importing where MXNet is not installed (Note [kept MXNet imports]): the
module and the modules that import it load, what was converted runs, and the code left raises
ImportError naming the MXNet API when it runs; with MXNet installed the import is MXNet's."""
from __future__ import annotations

import subprocess
import sys
import textwrap

from xlate.cli import main

SOURCE = textwrap.dedent('''
    """A module whose sparse branch has no rule."""
    import mxnet as mx
    from mxnet import nd, gluon


    def dense(units):
        return gluon.nn.Dense(units, in_units=3)


    def to_sparse(a):
        if isinstance(a, mx.nd.NDArray):
            return nd.sparse.csr_matrix(a)
        return a


    if __name__ == "__main__":  # a self-test: the module is still lent by its package first
        print(to_sparse(mx.nd.ones((2, 2))))
''')

USER = "from .model import dense, to_sparse\n"

BLOCK = ("import sys\nclass B:\n    def find_spec(self, name, path=None, target=None):\n"
         "        if name == 'mxnet' or name.startswith('mxnet.'):\n            raise ImportError('blocked')\n"
         "sys.meta_path.insert(0, B())\n")

RUN = BLOCK + textwrap.dedent('''
    import torch
    import pkg
    from pkg import model
    print(tuple(model.dense(4)(torch.ones(2, 3)).shape))
    print(model.to_sparse([1.0, 1.0]), isinstance(torch.ones(1), model.nd.NDArray))
    try:
        model.nd.sparse.csr_matrix(1)
    except ImportError as e:
        print("raised", e)
    from pkg._mx_compat import _mx_missing
    print(_mx_missing('mxnet').__version__, _mx_missing('mxnet').__name__)  # `library=mxnet` (MX590's version)
''')


def test_a_module_with_code_left_imports_without_mxnet(tmp_path, capsys):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text(USER)
    (tmp_path / "pkg" / "model.py").write_text(SOURCE)
    out = tmp_path / "out"
    assert main(["convert", str(tmp_path / "pkg"), "-o", str(out / "pkg"), "--exit-zero"]) == 0
    converted = (out / "pkg" / "model.py").read_text()
    assert "    from mxnet import nd\nexcept ImportError:" in converted
    assert "MX002" in capsys.readouterr().err
    done = subprocess.run([sys.executable, "-c", RUN], cwd=out, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0] == "(2, 4)" and lines[1] == "[1.0, 1.0] False"  # converted code runs; no MXNet arrays
    assert lines[2].startswith("raised mxnet.nd.sparse.csr_matrix is MXNet code that xlate left to translate")
    assert lines[3] == "1.9.1 mxnet"
    again = tmp_path / "again"
    assert main(["convert", str(out / "pkg"), "-o", str(again / "pkg"), "--exit-zero"]) == 0
    assert (again / "pkg" / "model.py").read_text() == converted  # converted again: the same bytes
