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
"""

from __future__ import annotations

import zipfile
import zlib
from typing import IO

from .errors import ApiError

CHUNK = 64 * 1024
_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflate"}
#: What inflating a damaged member raises, by way of zipfile and zlib.
DAMAGED = (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, RuntimeError, ValueError)


class Archive:
    """The members of one ZIP, checked, and a running count of what has been inflated from it."""

    def __init__(self, file: IO[bytes], name: str, *, max_members: int, max_total: int) -> None:
        self.name = name
        self.max_total = max_total
        self.inflated = 0
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
