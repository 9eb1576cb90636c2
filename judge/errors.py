"""The exception family of reasonjudge.

Every error a user can cause names its cause and, for input, the place:
``preds.jsonl:17: field 'answer': required``. Library code always chains
(``raise ... from e``) so the original exception stays visible in tracebacks.
"""

from __future__ import annotations


class ReasonJudgeError(Exception):
    """Base class: anything reasonjudge raises on purpose."""


class InputError(ReasonJudgeError):
    """Bad input file or argument; raised before any work is done.

    Formats as ``path:line: field 'x': problem`` when the parts are known.
    """

    def __init__(self, problem: str, *, path: str | None = None, line: int | None = None,
                 field: str | None = None) -> None:
        self.problem = problem
        self.path = path
        self.line = line
        self.field = field
        super().__init__(self._format())

    def _format(self) -> str:
        where = ""
        if self.path is not None:
            where = str(self.path)
            if self.line is not None:
                where += f":{self.line}"
            where += ": "
        what = f"field '{self.field}': " if self.field else ""
        return f"{where}{what}{self.problem}"


def located(source: str | None, field: str | None, problem: str) -> InputError:
    """Make an ``InputError`` at an item's ``source`` (``"path:line"``, as the loaders record it)."""
    if source and ":" in source:
        path, _, line = source.rpartition(":")
        if line.isdigit():
            return InputError(problem, path=path, line=int(line), field=field)
    return InputError(problem, path=source, field=field)


class ConfigError(ReasonJudgeError):
    """Inconsistent options or a bad rubric/config file."""
