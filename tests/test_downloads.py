"""MX564: `gluon.utils.download` / `check_sha1` / `_get_repo_file_url` translated, against MXNet
1.9.1 (Note [downloads] in xlate/runtime/data.py).

Both sides fetch from a local HTTP server (no network needed): the same file names, bytes,
kept files, re-downloads and errors. MXNet fetches with requests, the translation with urllib.
"""
from __future__ import annotations

import functools
import os
import hashlib
import http.server
import threading

import pytest

from mxsupport import import_mxnet

mx = import_mxnet()

from xlate.convert.engine import convert_source  # noqa: E402

pytestmark = pytest.mark.mxnet

PAYLOAD = bytes(range(256)) * 300 + b"tail"
SOURCE = '''
import mxnet as mx
from mxnet import gluon
from mxnet.gluon.utils import check_sha1


def fetch(url, **kwargs):
    return gluon.utils.download(url, **kwargs)


def same(path, digest):
    return check_sha1(path, digest)


def hosted(namespace, name):
    return mx.gluon.utils._get_repo_file_url(namespace, name)


def fetch_test_utils(url, **kwargs):
    return mx.test_utils.download(url, **kwargs)


def mnist():
    return mx.test_utils.get_mnist()
'''


def _sha1(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("site")
    (root / "data.bin").write_bytes(PAYLOAD)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture(scope="module")
def sides():
    result = convert_source(SOURCE)
    codes = {(d.code, d.status) for d in result.diagnostics}
    assert {("MX564", "fixed"), ("MX567", "fixed"), ("MX630", "fixed")} <= codes and not [d for d in result.diagnostics if d.status == "manual"]
    assert "import mxnet" not in result.output and "from mxnet" not in result.output, result.output
    spaces = {}
    for side, text in (("mxnet", SOURCE), ("torch", result.output)):
        spaces[side] = {"__name__": f"downloads_{side}"}
        exec(compile(text, f"<{side}>", "exec"), spaces[side])
    return spaces


def _both(sides, tmp_path, monkeypatch, name, call):
    """Run `call(space)` for each side in a folder of its own; (result, exception type, files)."""
    out = {}
    for side, space in sides.items():
        where = tmp_path / side / name
        where.mkdir(parents=True)
        monkeypatch.chdir(where)
        try:
            result, error = call(space, where), None
        except Exception as e:  # noqa: BLE001  (the two sides must fail alike)
            result, error = None, type(e)
        files = {str(p.relative_to(where)): p.read_bytes() for p in sorted(where.rglob("*")) if p.is_file()}
        out[side] = (result if not isinstance(result, str) else result.replace(str(where), "<here>"), error, files)
    return out


@pytest.mark.parametrize("case", ["no-path", "folder", "file-in-new-folder", "kept-with-its-hash", "stale-hash",
                                  "overwrite", "hash-mismatch-after-download", "missing-url"])
def test_download_matches_gluon(case, server, sides, tmp_path, monkeypatch, capsys):
    url = f"{server}/data.bin"

    def call(space, where):
        fetch = space["fetch"]
        if case == "no-path":
            return fetch(url)
        if case == "folder":
            (where / "d").mkdir()
            return fetch(url, path=str(where / "d"))
        if case == "file-in-new-folder":
            return fetch(url, path=str(where / "new" / "inner" / "copy.bin"))
        if case in ("kept-with-its-hash", "stale-hash", "overwrite"):
            (where / "data.bin").write_bytes(b"old")
            digest = {"kept-with-its-hash": _sha1(b"old"), "stale-hash": _sha1(PAYLOAD), "overwrite": None}[case]
            return fetch(url, sha1_hash=digest, overwrite=case == "overwrite")
        if case == "hash-mismatch-after-download":
            return fetch(url, sha1_hash=_sha1(b"something else"), retries=1)
        return fetch(f"{server}/absent.bin", retries=1)

    out = _both(sides, tmp_path, monkeypatch, case, call)
    capsys.readouterr()
    assert out["torch"] == out["mxnet"]
    result, error, files = out["torch"]
    expected = {"no-path": ("data.bin", None), "folder": ("<here>/d/data.bin", None),
                "file-in-new-folder": ("<here>/new/inner/copy.bin", None), "kept-with-its-hash": ("data.bin", None),
                "stale-hash": ("data.bin", None), "overwrite": ("data.bin", None),
                "hash-mismatch-after-download": (None, UserWarning), "missing-url": (None, RuntimeError)}[case]
    assert (result, error) == expected
    if case in ("kept-with-its-hash", "overwrite"):
        # MXNet 1.9.1 downloads again with overwrite=True, then keeps the file already there
        # unless a sha1_hash says it is stale ("the downloaded file is deleted"): so does the helper
        assert files == {"data.bin": b"old"}
    elif case not in ("missing-url",):
        assert list(files.values()) == [PAYLOAD]  # no temporary file left beside it


def test_check_sha1_and_repo_urls_match_gluon(sides, tmp_path, monkeypatch):
    path = tmp_path / "f.bin"
    path.write_bytes(PAYLOAD)
    for digest in (_sha1(PAYLOAD), _sha1(b"x")):
        assert sides["torch"]["same"](str(path), digest) == sides["mxnet"]["same"](str(path), digest)
    for repo in (None, "https://mirror.example.org/gluon", "https://mirror.example.org/gluon/"):
        if repo is None:
            monkeypatch.delenv("MXNET_GLUON_REPO", raising=False)
        else:
            monkeypatch.setenv("MXNET_GLUON_REPO", repo)
        args = ("gluon/dataset/cifar10", "cifar-10-binary.tar.gz")
        assert sides["torch"]["hosted"](*args) == sides["mxnet"]["hosted"](*args)


@pytest.mark.parametrize("case", ["no-name", "fname", "dirname", "kept", "overwrite", "missing-url"])
def test_test_utils_download_matches_mxnet(case, server, sides, tmp_path, monkeypatch, capsys):
    """MX567: mx.test_utils.download, MXNet's other download function (example scripts' data)."""
    url = f"{server}/data.bin"

    def call(space, where):
        fetch = space["fetch_test_utils"]
        if case == "no-name":
            return fetch(url)
        if case == "fname":
            return fetch(url, fname=str(where / "sub" / "copy.bin"))
        if case == "dirname":
            return fetch(url, fname="copy.bin", dirname=str(where / "d" / "e"))
        if case in ("kept", "overwrite"):
            (where / "data.bin").write_bytes(b"old")
            return fetch(url, overwrite=case == "overwrite")
        return fetch(f"{server}/absent.bin", retries=1)

    out = _both(sides, tmp_path, monkeypatch, "tu-" + case, call)
    capsys.readouterr()
    assert out["torch"] == out["mxnet"]
    result, error, files = out["torch"]
    expected = {"no-name": "data.bin", "fname": "<here>/sub/copy.bin", "dirname": "<here>/d/e/copy.bin",
                "kept": "data.bin", "overwrite": "data.bin", "missing-url": None}[case]
    assert result == expected and (error is AssertionError) == (case == "missing-url")
    if case == "kept":
        assert files == {"data.bin": b"old"}
    elif case != "missing-url":
        assert list(files.values()) == [PAYLOAD]


def test_data_dir_is_mxnets(monkeypatch, tmp_path):
    """MX568: `base.data_dir()` is where MXNet keeps models, with and without MXNET_HOME."""
    from mxsupport import import_mxnet
    mx = import_mxnet()
    from xlate.runtime import load
    helper = load()._mx_data_dir
    monkeypatch.delenv("MXNET_HOME", raising=False)
    assert helper() == mx.base.data_dir()
    monkeypatch.setenv("MXNET_HOME", str(tmp_path))
    assert helper() == mx.base.data_dir() == str(tmp_path)


def test_numeric_types_are_mxnets():
    """MX139: the classes `mxnet.base.numeric_types` names, and what they accept."""
    import numpy as np
    from mxsupport import import_mxnet
    mx = import_mxnet()
    from xlate.runtime import load
    ours = load()._mx_numeric_types()
    assert set(ours) == set(mx.base.numeric_types)  # MXNet names int twice (as `long`)
    for value in (1, 2.5, np.float32(1), np.int8(3), np.bool_(True), True, "1", [1], np.ones(2)):
        assert isinstance(value, ours) == isinstance(value, mx.base.numeric_types), value


def test_replace_file_moves_as_mxnet_does(tmp_path):
    from mxsupport import import_mxnet
    mx = import_mxnet()
    from xlate.runtime import load
    helper = load()._mx_replace_file
    for move in (mx.gluon.utils.replace_file, helper):
        src, dst = tmp_path / "a.tmp", tmp_path / "a"
        src.write_text("new")
        dst.write_text("old")
        move(str(src), str(dst))
        assert dst.read_text() == "new" and not src.exists()
        src.write_text("x")
        import pytest as _pytest
        with _pytest.raises(OSError, match="Moving downloaded temp file"):
            move(str(src), str(tmp_path / "missing" / "b"))
        assert not src.exists()


def _idx_files(folder, rng) -> None:
    """MNIST's four idx files of random bytes (odd counts: 7 training, 3 test images)."""
    import gzip
    import struct

    for prefix, n in (("train", 7), ("t10k", 3)):
        with gzip.open(folder / f"{prefix}-images-idx3-ubyte.gz", "wb") as f:
            f.write(struct.pack(">IIII", 2051, n, 28, 28) + rng.integers(0, 256, n * 784, dtype="uint8").tobytes())
        with gzip.open(folder / f"{prefix}-labels-idx1-ubyte.gz", "wb") as f:
            f.write(struct.pack(">II", 2049, n) + rng.integers(0, 10, n, dtype="uint8").tobytes())


def test_get_mnist_reads_as_mxnet(sides, tmp_path, monkeypatch):
    """MX630: test_utils.get_mnist's dict (keys, dtypes, shapes, values) from the files in this folder."""
    import numpy as np

    _idx_files(tmp_path, np.random.default_rng(3))
    monkeypatch.chdir(tmp_path)
    expected, actual = sides["mxnet"]["mnist"](), sides["torch"]["mnist"]()
    assert sorted(actual) == sorted(expected) == ["test_data", "test_label", "train_data", "train_label"]
    for key in expected:
        assert actual[key].dtype == expected[key].dtype and actual[key].shape == expected[key].shape, key
        np.testing.assert_array_equal(actual[key], expected[key])
    assert expected["train_data"].shape == (7, 1, 28, 28) and expected["train_data"].max() > 0.5


def test_library_folder_helpers_are_the_libraries(monkeypatch, tmp_path):
    """MX547: gluonnlp's get_home_dir and mkdir against gluonnlp 0.10; GluonCV's makedirs (not
    installed here) against its own contract: mkdir -p, and an existing path, a file too, is kept."""
    import warnings
    nlp = pytest.importorskip("gluonnlp")
    from xlate.runtime import load
    helpers = load()
    monkeypatch.setenv("HOME", str(tmp_path))
    for home in (None, "~/mx", str(tmp_path / "h")):
        if home is None:
            monkeypatch.delenv("MXNET_HOME", raising=False)
        else:
            monkeypatch.setenv("MXNET_HOME", home)
        assert helpers._mx_nlp_home_dir() == nlp.base.get_home_dir()
    for name in ("~/a/b", str(tmp_path / "c" / "d")):
        helpers._mx_nlp_mkdir(name)
        made = os.path.expanduser(name)
        assert os.path.isdir(made)
        os.rmdir(made)
        nlp.utils.mkdir(name)
        assert os.path.isdir(made)
        helpers._mx_nlp_mkdir(name)  # exists: no error, as in gluonnlp
    with warnings.catch_warnings(record=True) as ours:
        warnings.simplefilter("always")
        helpers._mx_nlp_mkdir("s3://bucket/x")
    with warnings.catch_warnings(record=True) as theirs:
        warnings.simplefilter("always")
        nlp.utils.mkdir("s3://bucket/x")
    assert [str(w.message) for w in ours] == [str(w.message) for w in theirs] != []
    helpers._mx_makedirs(str(tmp_path / "e" / "f"))
    assert (tmp_path / "e" / "f").is_dir()
    helpers._mx_makedirs(str(tmp_path / "e" / "f"))
    (tmp_path / "file").write_text("x")
    helpers._mx_makedirs(str(tmp_path / "file"))
    with pytest.raises(OSError):
        helpers._mx_makedirs(str(tmp_path / "file" / "below"))


@pytest.mark.parametrize("case", ["no-path", "folder", "kept-with-its-hash", "stale-hash", "overwrite",
                                  "hash-mismatch", "missing-url"])
def test_gluoncv_download_does_what_gluoncvs_does(case, server, tmp_path, monkeypatch, capsys):
    """MX564's GluonCV form (`gluoncv.utils.download`, not installed here): its source's contract.
    Unlike Gluon's, `overwrite=True` always fetches again, and a failed fetch is not retried."""
    from xlate.runtime import load
    fetch = load()._mx_gcv_download
    monkeypatch.chdir(tmp_path)
    url = f"{server}/data.bin"
    if case == "no-path":
        assert fetch(url) == "data.bin" and (tmp_path / "data.bin").read_bytes() == PAYLOAD
        assert capsys.readouterr().out == f"Downloading data.bin from {url}...\n"
    elif case == "folder":
        (tmp_path / "d").mkdir()
        assert fetch(url, path=str(tmp_path / "d")) == str(tmp_path / "d" / "data.bin")
    elif case in ("kept-with-its-hash", "stale-hash", "overwrite"):
        (tmp_path / "data.bin").write_bytes(b"old")
        digest = {"kept-with-its-hash": _sha1(b"old"), "stale-hash": _sha1(PAYLOAD), "overwrite": _sha1(b"old")}[case]
        fetch(url, sha1_hash=digest if case != "overwrite" else None, overwrite=case == "overwrite")
        assert (tmp_path / "data.bin").read_bytes() == (b"old" if case == "kept-with-its-hash" else PAYLOAD)
    elif case == "hash-mismatch":
        with pytest.raises(UserWarning, match="content hash does not match"):
            fetch(url, path=str(tmp_path / "x.bin"), sha1_hash=_sha1(b"other"))
    else:
        with pytest.raises(RuntimeError, match="Failed downloading url"):
            fetch(f"{server}/missing.bin")
        assert not (tmp_path / "missing.bin").exists()
