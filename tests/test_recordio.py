"""MXNet's RecordIO files without MXNet (Note [RecordIO] in xlate/runtime/recordio.py): files
written by MXNet 1.9.1 are read by the runtime and the other way round, byte for byte, with
the payload holding MXNet's magic number (a record split in parts), odd lengths (padding),
labels of one and of several values (pack/unpack), and RecordFileDataset by position."""
from __future__ import annotations

import struct

import pytest

from mxsupport import import_mxnet, import_numpy, import_torch
from xlate.runtime import load

pytestmark = pytest.mark.mxnet

MAGIC = struct.pack("<I", 0xCED7230A)
PAYLOADS = [b"", b"a", b"abcd", b"hello world!!", MAGIC, b"xy" + MAGIC + b"zw", b"abcd" + MAGIC + b"efgh" + MAGIC,
            bytes(range(256)) * 3]


@pytest.fixture(scope="module")
def rt():
    import_torch()
    return load()


def _write(cls, tmp_path, name):
    rec = cls(str(tmp_path / f"{name}.idx"), str(tmp_path / f"{name}.rec"), "w")
    for i, p in enumerate(PAYLOADS):
        rec.write_idx(i, p)
    rec.close()
    return (tmp_path / f"{name}.rec").read_bytes(), (tmp_path / f"{name}.idx").read_text()


def test_files_are_mxnets_bytes_and_read_both_ways(rt, tmp_path):
    mx = import_mxnet()
    mx_rec, mx_idx = _write(mx.recordio.MXIndexedRecordIO, tmp_path, "mx")
    pt_rec, pt_idx = _write(rt._mx_MXIndexedRecordIO, tmp_path, "pt")
    assert pt_rec == mx_rec and pt_idx == mx_idx
    theirs = rt._mx_MXIndexedRecordIO(str(tmp_path / "mx.idx"), str(tmp_path / "mx.rec"), "r")
    ours = mx.recordio.MXIndexedRecordIO(str(tmp_path / "pt.idx"), str(tmp_path / "pt.rec"), "r")
    for i in reversed(range(len(PAYLOADS))):  # random access
        assert theirs.read_idx(i) == PAYLOADS[i] and ours.read_idx(i) == PAYLOADS[i]
    plain = rt._mx_MXRecordIO(str(tmp_path / "mx.rec"), "r")
    assert [plain.read() for _ in PAYLOADS] == PAYLOADS and plain.read() is None


def test_pack_and_unpack_are_mxnets(rt):
    mx, np = import_mxnet(), import_numpy()
    for label in (4.0, [1.0, 2.5, -3.0], np.arange(5, dtype="float32")):
        header = (0, label, 2574, 7)
        packed = mx.recordio.pack(mx.recordio.IRHeader(*header), b"payload")
        assert rt._mx_recordio_pack(rt._mx_IRHeader(*header), b"payload") == packed
        got, rest = rt._mx_recordio_unpack(packed)
        want, want_rest = mx.recordio.unpack(packed)
        assert rest == want_rest == b"payload" and (got.flag, got.id, got.id2) == (want.flag, want.id, want.id2)
        np.testing.assert_array_equal(np.asarray(got.label), np.asarray(want.label))
        assert type(got.label) is type(want.label)


def test_pack_img_and_unpack_img_are_mxnets(rt):
    # crnn.gluon's convert_rec.py packs its text-line images with pack_img (MX571)
    mx, np = import_mxnet(), import_numpy()
    pytest.importorskip("cv2")
    img = np.random.default_rng(0).integers(0, 256, (6, 9, 3), dtype=np.uint8)
    for fmt, quality in ((".jpg", 90), (".png", 3)):
        header = (0, [1.0, 4.0, 2.0], 5, 0)
        packed = mx.recordio.pack_img(mx.recordio.IRHeader(*header), img, quality=quality, img_fmt=fmt)
        assert rt._mx_recordio_pack_img(rt._mx_IRHeader(*header), img, quality=quality, img_fmt=fmt) == packed
        (got_header, got), (_, want) = rt._mx_recordio_unpack_img(packed, 1), mx.recordio.unpack_img(packed, 1)
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(got_header.label, [1.0, 4.0, 2.0])


def test_record_file_dataset_by_position(rt, tmp_path):
    mx = import_mxnet()
    _write(mx.recordio.MXIndexedRecordIO, tmp_path, "data")
    ours = rt._mx_RecordFileDataset(str(tmp_path / "data.rec"))
    theirs = mx.gluon.data.RecordFileDataset(str(tmp_path / "data.rec"))
    assert len(ours) == len(theirs) == len(PAYLOADS)
    assert [ours[i] for i in range(len(ours))] == [theirs[i] for i in range(len(theirs))]
    assert ours.transform(len)[3] == len(PAYLOADS[3])  # Gluon's Dataset methods
