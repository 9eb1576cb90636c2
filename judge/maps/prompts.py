"""The prompts of the map runs, as template files in ``judge/maps/prompts/``.

Four calls, one template each (placeholders are ``${name}``; a missing one raises):

- ``full``: the map image, the question, the lettered options, a chain-of-thought
  instruction and the answer form (the standard run, ``Acc_full``);
- ``describe``: the image and the paper's Figure 5 prompt with the budget k, and nothing
  else: no question, no options, so the description cannot favour the answer;
- ``text_only``: the same question block plus the description, told to answer from it
  only, no image (Figure 6);
- ``blind``: the same question block, neither image nor description.

The question block (``question.txt``) is identical in the three answering prompts, so
that only the evidence differs between the paths. A prompt's version is its name plus a
hash of its template files: editing a template changes the version, and with it the
cache key of every call that used it.
"""

from __future__ import annotations

import hashlib
from functools import cache
from typing import Literal

from judge.items import BenchmarkItem
from judge.templates import fill_template, read_template

PromptName = Literal["full", "describe", "text_only", "blind"]
PROMPT_NAMES: tuple[PromptName, ...] = ("full", "describe", "text_only", "blind")

#: What each answer type asks for, and the form of the final line.
_FORMAT_RULES: dict[str, tuple[str, str]] = {
    "choice": ("Exactly one option is correct.", "Answer: X"),
    "multi_choice": ("One or more options may be correct; give every correct letter.", "Answer: A, C"),
    "ordering": ("Answer with the option letters as a sequence in the right order; a letter may appear "
                 "more than once.", "Answer: [B, D, A]"),
}
#: The answering prompts include the question block; ``describe`` must not.
_USES_QUESTION = {"full": True, "describe": False, "text_only": True, "blind": True}
DESCRIPTION_TAG = "image_description"


def template_text(name: str) -> str:
    """Return the text of ``prompts/<name>.txt`` (packaged with the code)."""
    return read_template("judge.maps", name)


def _fill(name: str, **values: object) -> str:
    return fill_template(template_text(name), name, **values).strip()


@cache
def prompt_version(name: PromptName) -> str:
    """Return ``map-<name>-<hash8>``: the template (and the question block it embeds) hashed."""
    parts = [template_text(name)] + ([template_text("question")] if _USES_QUESTION[name] else [])
    digest = hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()[:8]
    return f"map-{name}-{digest}"


def option_lines(choices: list[str] | None) -> str:
    """Letter the options: ``A. text`` one per line."""
    return "\n".join(f"{chr(ord('A') + i)}. {c}" for i, c in enumerate(choices or []))


def question_block(item: BenchmarkItem) -> str:
    """Return the question, its lettered options and the answer-form instruction."""
    rule, form = _FORMAT_RULES.get(item.answer_type, _FORMAT_RULES["choice"])
    return _fill("question", question=item.question, options=option_lines(item.choices),
                 format_rule=rule, answer_form=form)


def full_prompt(item: BenchmarkItem) -> str:
    """Return the text that goes with the image in the standard run."""
    return _fill("full", question_block=question_block(item))


def describe_prompt(budget: int) -> str:
    """Return the describer's text: it depends on the budget only, never on a question."""
    return _fill("describe", max_tokens=budget)


def text_only_prompt(item: BenchmarkItem, description: str) -> str:
    """Return the text-only answering prompt; the description is fenced and cannot close its fence."""
    fenced = description.replace(f"</{DESCRIPTION_TAG}>", f"</ {DESCRIPTION_TAG}>")
    return _fill("text_only", question_block=question_block(item), description=fenced)


def blind_prompt(item: BenchmarkItem) -> str:
    """Return the blind control's prompt: question and options only."""
    return _fill("blind", question_block=question_block(item))
