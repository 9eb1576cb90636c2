"""Reading inputs with located errors, and writing outputs that are never half-written.

- ``read_jsonl`` / ``read_records`` yield ``(line_number, record)``; a bad line raises
  ``InputError`` naming the file and the line.
- ``write_json_atomic`` / ``write_jsonl_atomic`` write to a temporary file in the same
  folder and rename it into place, so a crash leaves the old file or the new one.
- ``ResultsLog`` is the append-only results file of a long job: one JSON row per item,
  flushed as it is written, so a killed run resumes where it stopped (a torn last line
  is dropped on reopen) and every item appears exactly once.
"""

from __future__ import annotations

import csv
import json
import os
import tempfile
from collections.abc import Iterable, Iterator, KeysView
from pathlib import Path
from typing import Any

from judge.errors import InputError


def read_jsonl(path: str | os.PathLike[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line_number, object)`` for each non-blank line; 1-based line numbers."""
    p = Path(path)
    try:
        fh = p.open(encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror}", path=str(p)) from e
    with fh:
        for n, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                raise InputError(f"not valid JSON ({e.msg} at column {e.colno})", path=str(p), line=n) from e
            if not isinstance(obj, dict):
                raise InputError(f"expected a JSON object, got {type(obj).__name__}", path=str(p), line=n)
            yield n, obj


def read_json(path: str | os.PathLike[str]) -> tuple[str, Any]:
    """Read a whole JSON file; return its text (for locating keys) and its value.

    A file that cannot be read or parsed raises ``InputError`` naming the file (and the
    line, for a syntax error).
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror}", path=str(p)) from e
    try:
        return text, json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"not valid JSON ({e.msg})", path=str(p), line=e.lineno) from e


def _read_delimited(p: Path, delimiter: str) -> Iterator[tuple[int, dict[str, Any]]]:
    with p.open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh, delimiter=delimiter)
        for row in reader:
            # line_num is the physical line the row ended on; the header is line 1.
            yield reader.line_num, {k: v for k, v in row.items() if k is not None}


def _read_xlsx(p: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    import openpyxl  # lazy: only .xlsx inputs pay for it

    try:
        wb = openpyxl.load_workbook(p, read_only=True, data_only=True)
    except Exception as e:  # openpyxl raises several unrelated types for a bad file
        raise InputError(f"cannot read as .xlsx: {e}", path=str(p)) from e
    ws = wb.worksheets[0]
    rows = ws.iter_rows(values_only=True)
    header = next(rows, None)
    if header is None:
        return
    names = [str(h) if h is not None else "" for h in header]
    for n, values in enumerate(rows, start=2):
        if values is None or all(v is None for v in values):
            continue
        yield n, {k: v for k, v in zip(names, values) if k}


def read_records(path: str | os.PathLike[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Read ``.jsonl``, ``.json`` (a list of objects), ``.tsv``, ``.csv`` or ``.xlsx``.

    The number yielded with each record is its line (JSONL, TSV, CSV), its row in the
    sheet (XLSX, header = row 1) or its position in the list (JSON, 1-based).
    """
    p = Path(path)
    if not p.exists():
        raise InputError("no such file", path=str(p))
    suffix = p.suffix.lower()
    if suffix == ".jsonl":
        yield from read_jsonl(p)
    elif suffix == ".json":
        _, data = read_json(p)
        if isinstance(data, dict):
            data = list(data.values())
        if not isinstance(data, list):
            raise InputError("expected a list of objects", path=str(p))
        for n, obj in enumerate(data, start=1):
            if not isinstance(obj, dict):
                raise InputError(f"record {n}: expected an object", path=str(p))
            yield n, obj
    elif suffix == ".tsv":
        yield from _read_delimited(p, "\t")
    elif suffix == ".csv":
        yield from _read_delimited(p, ",")
    elif suffix == ".xlsx":
        yield from _read_xlsx(p)
    else:
        raise InputError(f"unsupported file type '{suffix}' (use .jsonl, .json, .tsv, .csv or .xlsx)", path=str(p))


def _read_umask() -> int:
    umask = os.umask(0)  # the only way to read it is to set it; done once, at import
    os.umask(umask)
    return umask


_UMASK = _read_umask()


def _mode_for(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o777  # keep the mode of the file being replaced
    except FileNotFoundError:
        return 0o666 & ~_UMASK


def _atomic_write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        # mkstemp creates the file 0600; give it the mode an ordinary open() would have.
        os.chmod(tmp, _mode_for(path))
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def dumps_row(row: Any) -> str:
    """One JSON line: UTF-8 kept readable, no NaN (JSON has none: it becomes null)."""
    return json.dumps(_no_nan(row), ensure_ascii=False, allow_nan=False)


def _no_nan(obj: Any) -> Any:
    if isinstance(obj, float) and obj != obj:
        return None
    if isinstance(obj, dict):
        return {k: _no_nan(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_no_nan(v) for v in obj]
    return obj


def write_json_atomic(path: str | os.PathLike[str], obj: Any) -> None:
    """Write ``obj`` as indented JSON, atomically."""
    _atomic_write_text(Path(path), json.dumps(_no_nan(obj), ensure_ascii=False, indent=2, allow_nan=False) + "\n")


def write_jsonl_atomic(path: str | os.PathLike[str], rows: Iterable[Any]) -> None:
    """Write rows as JSONL, atomically."""
    _atomic_write_text(Path(path), "".join(dumps_row(r) + "\n" for r in rows))


class ResultsLog:
    """An append-only JSONL results file keyed by a row field (default ``id``).

    Opening it reads the rows already there (a torn last line from a killed run is cut
    off), so ``done`` tells which keys are finished and a rerun skips them.
    """

    def __init__(self, path: str | os.PathLike[str], *, key: str = "id") -> None:
        self.path = Path(path)
        self.key = key
        self.rows: dict[str, dict[str, Any]] = {}
        self._fh = None
        if self.path.exists():
            self._load()

    def _load(self) -> None:
        data = self.path.read_bytes()
        good_end = 0
        pos = 0
        while pos < len(data):
            nl = data.find(b"\n", pos)
            if nl == -1:
                break  # torn last line: no newline, written by a killed run
            line = data[pos:nl]
            pos = nl + 1
            if line.strip():
                try:
                    row = json.loads(line)
                except json.JSONDecodeError:
                    break  # torn inside; everything after it is discarded
                self.rows[str(row[self.key])] = row
            good_end = pos
        if good_end < len(data):
            with self.path.open("r+b") as fh:
                fh.truncate(good_end)

    @property
    def done(self) -> KeysView[str]:
        """The keys already written (a live view: ``key in log.done`` costs O(1), no copy)."""
        return self.rows.keys()

    def append(self, row: dict[str, Any]) -> None:
        if self._fh is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fh = self.path.open("a", encoding="utf-8")
        self._fh.write(dumps_row(row) + "\n")
        self._fh.flush()  # survives SIGKILL of this process; fsync only at close
        self.rows[str(row[self.key])] = row

    def close(self) -> None:
        if self._fh is not None:
            self._fh.flush()
            os.fsync(self._fh.fileno())
            self._fh.close()
            self._fh = None

    def __enter__(self) -> ResultsLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
