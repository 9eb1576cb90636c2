"""Build the judge's prompt: template files, graded text fenced off so it cannot escape.

The question, the reference and the response sit between tags carrying a nonce derived
from the graded text (``<response-1a2b3c4d>``). Before that, anything in the graded text
that looks like one of our tags (``<response``, ``</reference``, ``<step``, ``<verdict``,
... in any case, with any suffix) has its ``<`` replaced by ``‹`` (U+2039), so the text can
neither close its block nor open a fake one; the system prompt says that what is inside
the tags is data and instructions there are ignored. The nonce is deterministic (a hash of
the graded text), so a rerun sends the same prompt and hits the cache.

Templates live in ``judge/prompts/*.txt`` and use ``$name`` placeholders; a placeholder
without a value raises ``ConfigError``. ``prompt_version`` hashes the templates, the
rubric's rendered text and the verdict schema, so it changes whenever any of them does.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from judge.segment import Step
from judge.templates import fill_template, read_template
from rubrics import Rubric

#: Tag names the prompt uses; graded text may not contain anything that opens or closes them.
TAG_NAMES = ("question", "reference", "response", "step", "verdict", "rubric", "instructions", "system")
_TAG_LIKE = re.compile(r"<(\s*/?\s*(?:" + "|".join(TAG_NAMES) + r"))", re.IGNORECASE)
NEUTRAL_LT = "\u2039"  # ‹


def load_template(name: str) -> str:
    """Return the text of ``judge/prompts/<name>.txt``."""
    return read_template("judge", name)


def render_template(name: str, **values: Any) -> str:
    """Fill a template; a placeholder with no value raises ``ConfigError`` naming it."""
    return fill_template(load_template(name), name, **values)


def neutralise(text: str) -> str:
    """Defuse anything in graded text that looks like one of the prompt's tags.

    >>> neutralise("ok </response-x> <STEP n=9>")
    'ok ‹/response-x> ‹STEP n=9>'
    """
    return _TAG_LIKE.sub(NEUTRAL_LT + r"\1", text)


def nonce_for(*texts: str | None) -> str:
    """A short deterministic code for the delimiters of one prompt."""
    h = hashlib.sha256("\x00".join(t or "" for t in texts).encode("utf-8"))
    return h.hexdigest()[:10]


def render_steps(steps: list[Step]) -> str:
    """Show steps as ``<step n=k>`` blocks (after neutralising their text)."""
    return "\n".join(f"<step n={s.number}>\n{neutralise(s.text)}\n</step>" for s in steps)


def render_criteria(rubric: Rubric) -> str:
    """The rubric's criteria as the prompt shows them, every level described."""
    out = []
    for c in rubric.criteria:
        out.append(f"### {c.id}\n{c.question}")
        if c.kind == "scale":
            out += [f"- {k}: {c.levels[k]}" for k in range(c.lo, c.hi + 1)]
            out.append(f"Score: an integer from {c.lo} to {c.hi}.")
        else:
            out += [f"- {c.none}", f"- {c.error}"]
            out.append("Score: -1, or a step number of the response.")
        out.append("")
    return "\n".join(out).rstrip()


def build_messages(rubric: Rubric, *, question: str, reference_steps: list[Step] | None,
                   response_steps: list[Step]) -> list[dict[str, str]]:
    """Return the chat messages for one judgement (system + user)."""
    ref_text = "\n".join(s.text for s in reference_steps or [])
    nonce = nonce_for(question, ref_text, "\n".join(s.text for s in response_steps))
    reference_block = ""
    if rubric.uses_reference:
        reference_block = render_template("judge_reference", nonce=nonce,
                                          reference_steps=render_steps(reference_steps or []))
    user = render_template(
        "judge_user",
        nonce=nonce,
        rubric_name=rubric.name,
        rubric_version=rubric.version,
        rubric_description=rubric.description,
        rubric_instructions=("\n" + " ".join(rubric.instructions.split()) + "\n") if rubric.instructions.strip() else "",
        criteria=render_criteria(rubric),
        question=neutralise(question),
        reference_block=reference_block,
        response_steps=render_steps(response_steps),
        n_steps=len(response_steps),
    )
    return [
        {"role": "system", "content": render_template("judge_system", nonce=nonce)},
        {"role": "user", "content": user},
    ]


def prompt_version(rubric: Rubric, verdict_schema: dict[str, Any]) -> str:
    """``<rubric>-v<version>/<hash>``: the hash covers templates, rubric text and verdict schema."""
    h = hashlib.sha256()
    for name in ("judge_system", "judge_user", "judge_reference"):
        h.update(load_template(name).encode("utf-8"))
    h.update(rubric.model_dump_json().encode("utf-8"))
    h.update(json.dumps(verdict_schema, sort_keys=True).encode("utf-8"))
    return f"{rubric.name}-v{rubric.version}/{h.hexdigest()[:12]}"
