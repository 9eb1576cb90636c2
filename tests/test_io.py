"""judge.io: located read errors, atomic writes, and the resumable results log."""

from __future__ import annotations

import json
import os
import stat

import pytest

from judge.errors import InputError
from judge.io import ResultsLog, read_records, write_json_atomic, write_jsonl_atomic


def test_atomic_write_replaces_whole_file_with_normal_mode(tmp_path):
    p = tmp_path / "summary.json"
    write_json_atomic(p, {"a": 1, "nan": float("nan")})
    assert json.loads(p.read_text()) == {"a": 1, "nan": None}  # JSON has no NaN
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(p.stat().st_mode) == 0o666 & ~umask
    assert [f.name for f in tmp_path.iterdir()] == ["summary.json"]  # no temporary left behind


def test_failed_write_leaves_the_old_file(tmp_path):
    p = tmp_path / "rows.jsonl"
    write_jsonl_atomic(p, [{"id": 1}])

    def rows():
        yield {"id": 2}
        raise RuntimeError("crash while producing rows")

    with pytest.raises(RuntimeError):
        write_jsonl_atomic(p, rows())
    assert p.read_text() == '{"id": 1}\n'
    assert len(list(tmp_path.iterdir())) == 1


def test_results_log_drops_a_torn_last_line(tmp_path):
    p = tmp_path / "results.jsonl"
    p.write_text('{"id": "a", "x": 1}\n{"id": "b", "x": 2}\n{"id": "c", "x"', encoding="utf-8")
    log = ResultsLog(p)
    assert log.done == {"a", "b"}
    log.append({"id": "c", "x": 3})
    log.close()
    assert [json.loads(l)["id"] for l in p.read_text().splitlines()] == ["a", "b", "c"]


def test_unsupported_suffix_is_named(tmp_path):
    p = tmp_path / "preds.parquet"
    p.write_bytes(b"PAR1")
    with pytest.raises(InputError) as e:
        list(read_records(p))
    assert "unsupported file type '.parquet'" in str(e.value)
