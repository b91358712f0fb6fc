"""Reading a ZIP someone sent without trusting what it says about itself.

A ZIP's directory states each member's size, but the size that counts is what inflating really
makes: a few kilobytes may inflate to gigabytes, and a header may lie. So each member is
inflated a piece at a time into a file, its bytes counted against its own limit and against
the archive's total as they come, and refused (413) the moment either is passed. Members a
Spinner archive never holds are refused before anything is inflated: encrypted ones, methods
other than stored and deflate (deflate64, bzip2, lzma...), and a name that comes twice (the
second would silently win). A damaged member (a bad CRC, a broken deflate stream, a stated
size the data does not fill) is a 400 naming it. Nothing here keeps anything: the caller
decides what to keep once everything is read.

The directory itself is measured before `zipfile` reads it: `zipfile` holds every entry it lists
as an object, so a 63 MB directory of a million empty names (no data at all) took 500 MB and 14 s
to refuse for its count. Its size, from the end record, is held to `ENTRY_BYTES` a member first.
"""

from __future__ import annotations

import struct
import zipfile
import zlib
from typing import IO

from .errors import ApiError

CHUNK = 64 * 1024
#: The most a member's entry in the directory may take on average: 46 bytes, its name (Spinner's
#: are under 20), its extra fields and comment.
ENTRY_BYTES = 512
_END = b"PK\x05\x06"  # the end of central directory record (22 bytes and a comment of up to 64 KB)
_END64 = b"PK\x06\x06"  # ZIP64's, found through its locator (20 bytes) just before the end record
_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflate"}
#: What inflating a damaged member raises, by way of zipfile and zlib.
DAMAGED = (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, RuntimeError, ValueError)


class Archive:
    """The members of one ZIP, checked, and a running count of what has been inflated from it."""

    def __init__(self, file: IO[bytes], name: str, *, max_members: int, max_total: int) -> None:
        self.name = name
        self.max_total = max_total
        self.inflated = 0
        size = directory_size(file)
        if size is not None and size > max_members * ENTRY_BYTES:
            raise ApiError(413, f"{name}'s list of files is {size} bytes: at most {max_members} files")
        try:
            self.zip = zipfile.ZipFile(file)
            infos = self.zip.infolist()
        except DAMAGED as error:
            raise ApiError(400, f"{name} is not a ZIP archive ({error})") from None
        if len(infos) > max_members:
            raise ApiError(413, f"{name} holds {len(infos)} files: at most {max_members}")
        self.members: dict[str, zipfile.ZipInfo] = {}
        for info in infos:
            if info.filename in self.members:
                raise ApiError(400, f"{name} holds {info.filename!r} twice")
            if info.flag_bits & 0x1:
                raise ApiError(
                    400, f"{name}: {info.filename!r} is encrypted; export the match again without a password"
                )
            if info.compress_type not in _METHODS:
                raise ApiError(
                    400,
                    f"{name}: {info.filename!r} is compressed with method {info.compress_type}; "
                    "a Spinner archive uses stored or deflate only",
                )
            self.members[info.filename] = info

    def __contains__(self, member: str) -> bool:
        return member in self.members

    def names(self) -> list[str]:
        return list(self.members)

    def extract(self, member: str, target: IO[bytes], limit: int) -> int:
        """Inflate `member` into `target`, at most `limit` bytes of it; its size."""
        info = self.members[member]
        where = f"{self.name}: {member}"
        if info.file_size > limit:
            raise ApiError(413, f"{where} unpacks to {info.file_size} bytes: at most {limit}")
        size = 0
        try:
            with self.zip.open(info) as source:
                while True:
                    chunk = source.read(CHUNK)
                    if not chunk:
                        break
                    size += len(chunk)
                    self.inflated += len(chunk)
                    if size > limit:
                        raise ApiError(413, f"{where} unpacks to more than {limit} bytes")
                    if self.inflated > self.max_total:
                        raise ApiError(413, f"{self.name} unpacks to more than {self.max_total // 2**20} MB")
                    target.write(chunk)
        except DAMAGED as error:
            raise ApiError(400, f"{where} is damaged ({error})") from None
        if size != info.file_size:  # zipfile checks the CRC, not that the stated size was met
            raise ApiError(400, f"{where} is damaged (it says {info.file_size} bytes and holds {size})")
        return size

    def read(self, member: str, limit: int) -> bytes:
        """A small member (JSON) in memory."""
        import io

        out = io.BytesIO()
        self.extract(member, out, limit)
        return out.getvalue()


def directory_size(file: IO[bytes]) -> int | None:
    """The size of a ZIP's central directory as its end record says, without reading the
    directory; None where there is no end record (`zipfile` then says why).

    The end record is found as `zipfile` finds it (at the very end, else the last one in the
    comment's reach), and of its size and ZIP64's (just before the locator, or where the locator
    points: Python versions differ) the largest is taken, so no reading of it is larger.
    """
    end = file.seek(0, 2)
    start = max(0, end - (22 + 0xFFFF))
    file.seek(start)
    tail = file.read(end - start)
    if tail[-22:-18] == _END and tail[-2:] == b"\0\0":
        at = len(tail) - 22
    else:
        at = tail.rfind(_END)
        if at < 0 or at + 22 > len(tail):
            file.seek(0)
            return None
    (size,) = struct.unpack("<I", tail[at + 12 : at + 16])
    sizes = [size]
    locator_at = start + at - 20
    if locator_at >= 0:
        file.seek(locator_at)
        locator = file.read(20)
        if locator[:4] == b"PK\x06\x07":
            (pointed,) = struct.unpack("<Q", locator[8:16])
            sizes += [_zip64_size(file, where) for where in (locator_at - 56, pointed)]
    file.seek(0)
    return max(s for s in sizes if s is not None)


def _zip64_size(file: IO[bytes], where: int) -> int | None:
    """The directory's size in a ZIP64 end record at `where`, if one is there."""
    if where < 0:
        return None
    file.seek(where)
    record = file.read(56)
    if len(record) < 56 or record[:4] != _END64:
        return None
    (size,) = struct.unpack("<Q", record[40:48])
    return int(size)
