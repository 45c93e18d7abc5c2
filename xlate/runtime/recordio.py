"""MXNet's RecordIO files, read and written without MXNet: `mx.recordio.MXRecordIO`,
`MXIndexedRecordIO`, `pack`/`unpack`/`IRHeader`, and `gluon.data.RecordFileDataset`.

Copied as text into converted programs (xlate/runtime/__init__.py): torch and other `_mx_*`
helpers only; the standard library from inside functions. Compared with MXNet in
tests/test_recordio.py (files written by each side read by the other, byte for byte).

Note [RecordIO]
A .rec file is a sequence of records, each: uint32 magic 0xced7230a, uint32 whose upper 3 bits
are a continuation flag (0 whole, 1 first part, 2 middle, 3 last) and lower 29 the length, the
bytes, and zero padding to a multiple of 4 (dmlc-core's recordio). A part boundary stands where
the data held the magic number itself at a 4-byte boundary: the reader joins the parts with the
magic between them.
An index file has one `key<TAB>offset` line per record. `pack` puts MXNet's image-record header
(struct 'IfQQ': flag, label, id, id2) in front of the payload; a label of several values is
stored after it as `flag` float32s, and `unpack` returns it as a NumPy float32 array, as MXNet
does (NumPy is taken from the modules already loaded: it is there whenever a program has
NumPy arrays to label with).
"""
import torch

def _mx_recordio_numpy():
    import sys

    return sys.modules.get("numpy")


class _mx_MXRecordIO:
    """`mx.recordio.MXRecordIO(uri, flag)`: sequential reads ('r') or writes ('w') of records
    (Note [RecordIO])."""

    def __init__(self, uri, flag):
        self.uri, self.flag = str(uri), flag
        self.is_open = False
        self.open()

    def open(self):
        if self.flag not in ("r", "w"):
            raise ValueError(f"Invalid flag {self.flag}")
        self.handle = open(self.uri, "wb" if self.flag == "w" else "rb")
        self.writable = self.flag == "w"
        self.is_open = True

    def close(self):
        if self.is_open:
            self.handle.close()
            self.is_open = False

    def __del__(self):
        self.close()

    def reset(self):
        self.close()
        self.open()

    def write(self, buf):
        import struct

        assert self.writable
        data = buf.encode() if isinstance(buf, str) else bytes(buf)
        magic = struct.pack("<I", 0xCED7230A)
        # the magic at a 4-byte boundary of the data splits the record (dmlc's writer)
        cuts = [i for i in range(0, len(data) - 3, 4) if data[i:i + 4] == magic]
        starts, ends = [0] + [c + 4 for c in cuts], cuts + [len(data)]
        parts = [data[a:b] for a, b in zip(starts, ends)]
        for i, part in enumerate(parts):
            flag = 0 if len(parts) == 1 else 1 if i == 0 else 3 if i == len(parts) - 1 else 2
            self.handle.write(magic + struct.pack("<I", (flag << 29) | len(part)) + part
                              + b"\0" * (-len(part) % 4))

    def read(self):
        import struct

        assert not self.writable
        pieces = []
        while True:
            head = self.handle.read(8)
            if len(head) < 8:
                return None if not pieces else b"".join(pieces)
            magic, word = struct.unpack("<II", head)
            if magic != 0xCED7230A:
                raise ValueError(f"{self.uri}: not a RecordIO record at offset {self.handle.tell() - 8}")
            flag, length = word >> 29, word & ((1 << 29) - 1)
            pieces.append(self.handle.read(length))
            self.handle.read(-length % 4)
            if flag in (0, 3):
                return struct.pack("<I", 0xCED7230A).join(pieces) if flag == 3 else pieces[0]

    def tell(self):
        return self.handle.tell()

    def seek(self, pos):
        self.handle.seek(pos)


class _mx_MXIndexedRecordIO(_mx_MXRecordIO):
    """`mx.recordio.MXIndexedRecordIO(idx_path, uri, flag, key_type=int)`: records found by key
    through the index file."""

    def __init__(self, idx_path, uri, flag, key_type=int):
        self.idx_path, self.idx, self.keys, self.key_type, self.fidx = str(idx_path), {}, [], key_type, None
        super().__init__(uri, flag)

    def open(self):
        super().open()
        self.idx, self.keys = {}, []
        self.fidx = open(self.idx_path, self.flag)
        if not self.writable:
            for line in iter(self.fidx.readline, ""):
                fields = line.strip().split("\t")
                key = self.key_type(fields[0])
                self.idx[key] = int(fields[1])
                self.keys.append(key)

    def close(self):
        if self.is_open:
            super().close()
            self.fidx.close()

    def seek(self, idx):
        assert not self.writable
        self.handle.seek(self.idx[self.key_type(idx)])

    def read_idx(self, idx):
        self.seek(idx)
        return self.read()

    def write_idx(self, idx, buf):
        key = self.key_type(idx)
        pos = self.tell()
        self.write(buf)
        self.fidx.write("%s\t%d\n" % (str(key), pos))
        self.idx[key] = pos
        self.keys.append(key)


def _mx_IRHeader(flag, label, id, id2):
    """`mx.recordio.IRHeader`: the namedtuple HEADER(flag, label, id, id2)."""
    import collections

    return collections.namedtuple("HEADER", ["flag", "label", "id", "id2"])(flag, label, id, id2)


def _mx_recordio_pack(header, s):
    """`mx.recordio.pack(header, s)`: the image-record header, a label of several values as
    float32s after it, then the payload."""
    import numbers
    import struct

    flag, label, id_, id2 = header
    s = s.encode() if isinstance(s, str) else bytes(s)
    if isinstance(label, numbers.Number):
        return struct.pack("IfQQ", 0, label, id_, id2) + s
    if isinstance(label, torch.Tensor):
        values = label.detach().cpu().to(torch.float32).flatten().tolist()
    else:
        values = [float(v) for v in _mx_recordio_numpy().asarray(label, dtype="float32").ravel()]
    return struct.pack("IfQQ", len(values), 0.0, id_, id2) + struct.pack(f"{len(values)}f", *values) + s


def _mx_recordio_unpack(s):
    """`mx.recordio.unpack(s)`: (HEADER, payload); a label of several values comes back as a
    float32 NumPy array, as MXNet gives it."""
    import struct

    size = struct.calcsize("IfQQ")
    header = _mx_IRHeader(*struct.unpack("IfQQ", s[:size]))
    s = s[size:]
    if header.flag > 0:
        header = header._replace(label=_mx_recordio_numpy().frombuffer(s, "float32", header.flag))
        s = s[header.flag * 4:]
    return header, s


def _mx_recordio_pack_img(header, img, quality=95, img_fmt=".jpg"):
    """`mx.recordio.pack_img`: the image encoded by OpenCV's Python module (`cv2.imencode`, JPEG
    quality or PNG compression `quality`), as MXNet's own function does, then packed."""
    import cv2

    params = {".JPG": [cv2.IMWRITE_JPEG_QUALITY, quality], ".JPEG": [cv2.IMWRITE_JPEG_QUALITY, quality],
              ".PNG": [cv2.IMWRITE_PNG_COMPRESSION, quality]}.get(img_fmt.upper())
    if isinstance(img, torch.Tensor):
        img = img.detach().cpu().numpy()
    ok, buf = cv2.imencode(img_fmt, img, params)
    assert ok, "failed to encode image"
    return _mx_recordio_pack(header, buf.tobytes())


def _mx_recordio_unpack_img(s, iscolor=-1):
    """`mx.recordio.unpack_img`: (HEADER, the image decoded by `cv2.imdecode`, a NumPy array)."""
    import cv2

    header, s = _mx_recordio_unpack(s)
    return header, cv2.imdecode(_mx_recordio_numpy().frombuffer(s, dtype="uint8"), iscolor)


class _mx_RecordFileDataset(_mx_Dataset):
    """`gluon.data.RecordFileDataset(filename)`: the raw records of a .rec file, by position,
    through the .idx file beside it (the same name, `.idx` for the extension)."""

    def __init__(self, filename):
        import os

        self.idx_file = os.path.splitext(filename)[0] + ".idx"
        self.filename = filename
        self._record = _mx_MXIndexedRecordIO(self.idx_file, self.filename, "r")

    def __getitem__(self, idx):
        return self._record.read_idx(self._record.keys[idx])

    def __len__(self):
        return len(self._record.keys)
