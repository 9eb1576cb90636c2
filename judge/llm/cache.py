"""The on-disk call cache: one sqlite row per finished call, keyed by what was asked.

The key is a SHA-256 of the model name, the messages, the sampling parameters, the
prompt version, the sample index and the output schema. It leaves out the API base (the
same model behind another URL gives the same answer) and everything secret: no header
or API key is ever hashed or stored. The value is the raw reply (text, finish reason,
usage, cost, logprobs), so a structured value is re-validated on read, with the current
response model and validation context.

Writes from the event loop (``aput``) go to one writer thread that commits whatever
has queued up in a single transaction (group commit) and only then wakes the callers:
a call's result is returned after its row is durable, so a killed run never repeats a
finished call, and the loop never blocks on disk (a commit took 0.2-0.6 ms of wall
time here, which at hundreds of calls per second delays every call in flight).
One connection guarded by a lock serves all tasks and threads of a process.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import queue
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from judge.llm.types import CallSpec, Usage

#: Bump when the key recipe or the stored reply changes shape: old rows are then ignored.
CACHE_FORMAT = 1


class CachedReply(BaseModel):
    """The raw reply of a finished call, as stored."""

    model_config = ConfigDict(extra="ignore")

    text: str | None
    finish_reason: str | None = None
    usage: Usage = Field(default_factory=Usage)
    logprobs: list[dict[str, Any]] | None = None


def logprob_rows(content: list[Any] | None) -> list[dict[str, Any]] | None:
    """Return OpenAI's ``logprobs.content`` as stored: ``[{token, logprob, top: [{token, logprob}]}]``.

    Entries may be dicts (the light path's JSON) or pydantic objects (litellm's); None
    when there are none.
    """
    if not content:
        return None
    rows = []
    for t in content:
        t = t if isinstance(t, dict) else t.model_dump()
        rows.append({"token": t.get("token"), "logprob": t.get("logprob"),
                     "top": [{"token": a.get("token"), "logprob": a.get("logprob")} for a in t.get("top_logprobs") or []]})
    return rows


def cache_key(model: str, spec: CallSpec, schema: str | None) -> str:
    """Return the hex SHA-256 that identifies a call (see the module docstring)."""
    payload = {
        "format": CACHE_FORMAT,
        "model": model,
        "messages": spec.messages,
        "temperature": spec.temperature,
        "max_tokens": spec.max_tokens,
        "top_logprobs": spec.top_logprobs,
        "seed": spec.seed,
        "sample_index": spec.sample_index,
        "prompt_version": spec.prompt_version,
        "schema": schema,
    }
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class CallCache:
    """A sqlite table of finished calls; ``get``/``put`` by key."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode: a committed row survives a killed process (not a power cut).
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS calls (key TEXT PRIMARY KEY, model TEXT NOT NULL, "
            "tag TEXT, created REAL NOT NULL, reply TEXT NOT NULL)"
        )

        self._queue: queue.SimpleQueue[tuple[tuple[str, str, str, float, str], asyncio.AbstractEventLoop,
                                             asyncio.Future[None]] | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None

    def get(self, key: str) -> CachedReply | None:
        with self._lock:
            row = self._db.execute("SELECT reply FROM calls WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        return CachedReply.model_validate_json(row[0])

    def put(self, key: str, reply: CachedReply, *, model: str, tag: str) -> None:
        blob = reply.model_dump_json()
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO calls (key, model, tag, created, reply) VALUES (?, ?, ?, ?, ?)",
                             (key, model, tag, time.time(), blob))

    async def aput(self, key: str, reply: CachedReply, *, model: str, tag: str) -> None:
        """Store a reply from the event loop; return once it is committed."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        if self._writer is None:
            self._writer = threading.Thread(target=self._write_loop, name="llm-cache-writer", daemon=True)
            self._writer.start()
        self._queue.put(((key, model, tag, time.time(), reply.model_dump_json()), loop, done))
        await done

    def _write_loop(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            batch = [item]
            while len(batch) < 512:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    self._queue.put(None)  # finish this batch, then stop
                    break
                batch.append(nxt)
            error: BaseException | None = None
            try:
                with self._lock:
                    self._db.execute("BEGIN")
                    self._db.executemany("INSERT OR REPLACE INTO calls (key, model, tag, created, reply) "
                                         "VALUES (?, ?, ?, ?, ?)", [row for row, _, _ in batch])
                    self._db.execute("COMMIT")
            except BaseException as e:  # handed to every waiting caller
                error = e
                with self._lock:
                    if self._db.in_transaction:
                        self._db.execute("ROLLBACK")
            by_loop: dict[asyncio.AbstractEventLoop, list[asyncio.Future[None]]] = {}
            for _, loop, fut in batch:
                by_loop.setdefault(loop, []).append(fut)
            for loop, futs in by_loop.items():
                try:
                    loop.call_soon_threadsafe(_resolve, futs, error)
                except RuntimeError:
                    pass  # that loop is closed: nobody waits any more

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM calls").fetchone()[0])

    def close(self) -> None:
        if self._writer is not None:
            self._queue.put(None)
            self._writer.join()
            self._writer = None
        with self._lock:
            self._db.close()


def _resolve(futs: list[asyncio.Future[None]], error: BaseException | None) -> None:
    for f in futs:
        if not f.done():
            if error is None:
                f.set_result(None)
            else:
                f.set_exception(error)
