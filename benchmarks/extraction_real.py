"""Run the rule extractor over real model outputs and compare it with the official labels.

Sources (``../shared/data/extraction/``, see its README): MathVista GPT-4 and Claude dumps,
MMMU-Pro GPT-4o standard 10-option CoT, MATH-V (Qwen-VL-Max, Gemini-Pro,
InternLM-XComposer2-VL) with ``test_gold.jsonl``. For each source it writes, to ``--out``
(JSON), the agreement of our strict correctness with the official ``true_false`` /
``if_right`` / ``correct`` labels and every disagreement with a category, and prints:

- ``mathvista_nonanswers_scored_correct``: MathVista multiple-choice items whose official
  extraction is a refusal or not an option (not a letter, not an option text, not
  "(X) option text") yet were scored correct by the official normaliser, and that *we*
  score correct. Must be 0.
- ``mmmu_pro_stated_answer_agreement``: on MMMU-Pro responses that state one final letter
  (definition in :func:`stated_letter`, independent of our extractor), the share where our
  extracted letter equals it. VLMEvalKit's ``can_infer`` is scored the same way.
- ``rule_responses_per_s``: responses per second of ``extract_answer`` on one core (the
  process is pinned to one CPU), over all responses of all sources; and, measured in the
  same run on the MMMU-Pro responses, ours vs VLMEvalKit's ``can_infer`` (ported in
  ``extractors.official``), with their ratio.

Usage: ``python benchmarks/extraction_real.py [--data DIR] [--out runs/extraction_real.json]``.
The last line printed is ``name=value`` pairs.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from extractors import extract_answer, score_answer  # noqa: E402
from extractors.choice import LETTERS  # noqa: E402
from extractors.official import can_infer, letter_dict  # noqa: E402
from extractors.types import Extraction  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "data" / "extraction"


@dataclass
class Item:
    """One real response with its gold answer and the official pipeline's verdict."""

    source: str
    id: str
    response: str
    answer_type: str
    gold: Any
    choices: list[str] | None
    official_correct: bool
    official_answer: Any
    precision: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


# --------------------------------------------------------------------------- loaders

def load_mathvista(path: Path, source: str) -> list[Item]:
    """MathVista dump: dict keyed by pid; multi_choice golds are option texts."""
    data = json.loads(path.read_text(encoding="utf-8"))
    items = []
    for pid, v in data.items():
        gold = v["answer"]
        if v["question_type"] == "multi_choice":
            answer_type = "choice"
            # MathVista's gold is the option text; the letter is its position. Some option
            # texts are letters themselves (['(c)', '(a)', '(e)', '(d)', '(b)']), so map here.
            gold = LETTERS[v["choices"].index(gold)]
        else:
            answer_type = {"integer": "integer", "float": "float"}.get(v["answer_type"], "text")
        items.append(Item(
            source=source, id=str(pid), response=v.get("response") or "", answer_type=answer_type,
            gold=gold if not isinstance(gold, list) else json.dumps(gold),
            choices=v["choices"], official_correct=bool(v["true_false"]),
            official_answer=v.get("extraction"), precision=v.get("precision"),
            extra={"official_prediction": v.get("prediction")},
        ))
    return items


def load_mmmu_pro(path: Path) -> list[Item]:
    """MMMU-Pro standard (10 options) CoT: options are a Python-list string, parsed safely."""
    items = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            items.append(Item(
                source="mmmu_pro", id=r["id"], response=r["response"] or "", answer_type="choice",
                gold=r["answer"], choices=_mmmu_options(r["options"]),
                official_correct=bool(r["if_right"]), official_answer=r.get("pred_indexs"),
            ))
    return items


def _mmmu_options(raw: str) -> list[str]:
    options = ast.literal_eval(raw)
    if len(options) == 1 and isinstance(options[0], list):  # one record nests its list: [['A', 'B', ...]]
        options = options[0]
    return [str(o) for o in options]


def _math_v_type(gold: str, options: list[str]) -> str:
    if options:
        return "choice"
    if re.fullmatch(r"-?\d+", gold.strip()):
        return "integer"
    if re.fullmatch(r"-?\d*\.\d+", gold.strip()):
        return "float"
    return "text"


def load_math_v(folder: Path, model: str) -> list[Item]:
    """MATH-V CoT responses of one model, joined on ``id`` with ``test_gold.jsonl``."""
    gold = {}
    with (folder / "test_gold.jsonl").open(encoding="utf-8") as f:
        for line in f:
            g = json.loads(line)
            gold[g["id"]] = g
    items = []
    with (folder / f"{model}-CoT.jsonl").open(encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            g = gold[r["id"]]
            options = g["options"] or []
            items.append(Item(
                source=f"math_v/{model}", id=r["id"], response=r["response"] or "",
                answer_type=_math_v_type(g["answer"], options), gold=g["answer"],
                choices=options or None, official_correct=bool(r["correct"]),
                official_answer=r.get("model_answer"),
            ))
    return items


def load_all(data: Path) -> dict[str, list[Item]]:
    """Every source, keyed by name."""
    return {
        "mathvista/gpt4": load_mathvista(data / "mathvista" / "output_gpt4_2shot_solution.json", "mathvista/gpt4"),
        "mathvista/claude": load_mathvista(data / "mathvista" / "output_claude_2shot_solution.json", "mathvista/claude"),
        "mmmu_pro": load_mmmu_pro(data / "mmmu_pro" / "gpt-4o_standard10opts_cot.jsonl"),
        **{f"math_v/{m}": load_math_v(data / "math_v", m)
           for m in ("Qwen-VL-Max", "Gemini-Pro", "InternLM-XComposer2-VL")},
    }


# --------------------------------------------------------------------------- definitions

# "States one": the last non-empty line of the response reads "Answer" (any emphasis),
# a colon, then exactly one option letter A-J, possibly wrapped in markup ($, \(, \text{,
# \boxed{, **), and no second letter after it ("Answer: A, B" states two). Written without
# our extractor so that the comparison is not circular.
_STATED = re.compile(
    r"Answer[\s*_]*[:：][\s*_$\\(){}\[\]]*(?:text\{|boxed\{|mathrm\{)?\s*\{?\s*([A-J])(?![A-Za-z0-9_])"
    r"(?!\s*(?:,|and|or|&)\s*[A-J](?![A-Za-z]))"
)


def stated_letter(response: str) -> str | None:
    """Return the letter on a response's last non-empty line "Answer: X", or None."""
    lines = [ln for ln in response.strip().splitlines() if ln.strip()]
    if not lines:
        return None
    m = _STATED.search(lines[-1])
    return m.group(1) if m else None


# An official extraction "(B) option text", "B. option text" or "B".
_LETTER_THEN_TEXT = re.compile(r"\(?([A-Z])\)?[.:]?\s*(.*)", re.S)


def is_option_answer(extraction: Any, choices: list[str]) -> bool:
    """Whether a MathVista official extraction names an option: a letter, an option text, or "(X) text"."""
    e = str(extraction).strip()
    letters = LETTERS[:len(choices)]
    if e in letters or e in choices:
        return True
    m = _LETTER_THEN_TEXT.fullmatch(e)
    return bool(m and m.group(1) in letters and (not m.group(2) or m.group(2).strip() == choices[LETTERS.index(m.group(1))]))


# --------------------------------------------------------------------------- evaluation

def evaluate(item: Item) -> tuple[Extraction, bool | None]:
    """Extract and score one item (strict mode)."""
    ext = extract_answer(item.response, item.answer_type, choices=item.choices)  # type: ignore[arg-type]
    correct = score_answer(ext, item.gold, item.answer_type, choices=item.choices,  # type: ignore[arg-type]
                           precision=item.precision if item.answer_type == "float" else None)
    return ext, correct


def _official_value(item: Item) -> Any:
    """The official answer in our value space, for categorising disagreements."""
    a = item.official_answer
    if a is None:
        return None
    if item.answer_type == "choice" and item.choices:
        e = str(a).strip()
        if e.upper() in LETTERS[:len(item.choices)] and len(e) == 1:
            return e.upper()
        if e in item.choices:
            return LETTERS[item.choices.index(e)]
        m = _LETTER_THEN_TEXT.fullmatch(e)
        return m.group(1) if m else e
    return a


def categorise(item: Item, ext: Extraction, ours: bool | None) -> str:
    """Name why our verdict differs from the official one."""
    off = _official_value(item)
    if item.official_correct:
        if item.source.startswith("mathvista") and item.answer_type == "choice" and not is_option_answer(item.official_answer, item.choices or []):
            return "official_snapped_non_option_to_gold"
        if ours is None:
            return f"ours_no_answer:{ext.reason}"
        if str(off) == str(ext.value):
            return "same_answer_scored_differently"
        return "different_answer_extracted"
    # official wrong, ours right
    if off in (None, "", "None", "N/A") or (isinstance(off, str) and not off.strip()):
        return "official_found_no_answer"
    if str(off) == str(ext.value):
        return "same_answer_scored_differently"
    if item.source == "mmmu_pro" and stated_letter(item.response) == ext.value:
        return "official_missed_stated_answer"
    return "different_answer_extracted"


def run_source(items: list[Item]) -> dict[str, Any]:
    """Evaluate one source; return its summary and disagreements."""
    n = len(items)
    ours_correct = ours_unscorable = official_correct = agree = 0
    categories: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    methods: Counter[str] = Counter()
    disagreements = []
    for it in items:
        ext, ok = evaluate(it)
        methods[ext.method or "-"] += 1
        if ok is None:
            ours_unscorable += 1
            reasons[ext.reason or "-"] += 1
        ours_correct += ok is True
        official_correct += it.official_correct
        if bool(ok) == it.official_correct:
            agree += 1
            continue
        cat = categorise(it, ext, ok)
        categories[cat] += 1
        disagreements.append({
            "id": it.id, "category": cat, "answer_type": it.answer_type, "gold": it.gold,
            "choices": it.choices, "official_answer": it.official_answer, "official_correct": it.official_correct,
            "ours": ext.value, "ours_correct": ok, "reason": ext.reason, "method": ext.method,
            "evidence": ext.evidence, "response_tail": it.response[-400:],
        })
    return {
        "n": n,
        "official_accuracy": official_correct / n,
        "ours_accuracy": ours_correct / n,
        "ours_correct": ours_correct,
        "official_correct": official_correct,
        "ours_unscorable": ours_unscorable,
        "agreement_with_official": agree / n,
        "disagreements_n": n - agree,
        "categories": dict(categories.most_common()),
        "unscorable_reasons": dict(reasons.most_common()),
        "methods": dict(methods.most_common()),
        "disagreements": disagreements,
    }


# A model that keeps writing the two-shot pattern starts a new "Question:" of its own
# (frequent in the Claude dump); what follows answers a question nobody asked.
_CONTINUATION = re.compile(r"\n[ \t]*(?:Question|Human|User)\s*:")
# An explicit option statement, by a rule much simpler than ours: "answer/option/答案",
# within 20 characters "is" / ":" / 为 / 是, then an option letter.
_STATES_OPTION = re.compile(
    r"(?:answer|option|答案)[^\n]{0,20}?(?:\bis\b|[:：]|为|是)[\s*:：]*\(?((?-i:[A-Z]))\)?(?![A-Za-z])", re.I)


def stated_option(response: str, choices: list[str]) -> str | None:
    """The last option letter the response states explicitly before any few-shot continuation."""
    cut = _CONTINUATION.search(response, 20)
    text = response[:cut.start()] if cut else response
    letters = [m.group(1) for m in _STATES_OPTION.finditer(text) if m.group(1) in LETTERS[:len(choices)]]
    return letters[-1] if letters else None


def mathvista_nonanswers(items: list[Item]) -> dict[str, Any]:
    """Official non-options scored correct; split into real non-answers and stated options.

    The official extraction of an item can be a non-option although the response states an
    option (GPT-4 extracted "34" from "the answer is B (34m)"; Claude's dump has answers
    followed by made-up "Question:" turns, from which the extraction was taken). Those are
    answers, and scoring them is right. A *non-answer* is an official non-option whose
    response states no option (:func:`stated_option`): refusals, "none of the options",
    numbers that match no option. None of those may be scored correct.
    """
    snapped = [it for it in items if it.answer_type == "choice" and it.official_correct
               and not is_option_answer(it.official_answer, it.choices or [])]
    nonanswers, stated = [], []
    for it in snapped:
        (stated if stated_option(it.response, it.choices or []) else nonanswers).append(it)
    ours_correct = [it.id for it in nonanswers if evaluate(it)[1]]
    stated_agree = []
    for it in stated:
        ext, _ = evaluate(it)
        stated_agree.append(ext.value == stated_option(it.response, it.choices or []))
    return {
        "official_nonoptions_scored_correct": len(snapped),
        "nonanswers": len(nonanswers),
        "nonanswers_ours_scored_correct": len(ours_correct),
        "nonanswers_ours_scored_correct_ids": ours_correct,
        "stated_option_items": len(stated),
        "stated_option_ids": [it.id for it in stated],
        "stated_option_ours_agree": sum(stated_agree),
    }


def mmmu_stated(items: list[Item]) -> dict[str, Any]:
    """Agreement with the response's own stated letter, for us and for VLMEvalKit's can_infer."""
    stated = [(it, stated_letter(it.response)) for it in items]
    stated = [(it, s) for it, s in stated if s is not None]
    ours_agree = vlm_agree = 0
    misses = []
    for it, s in stated:
        ext = extract_answer(it.response, "choice", choices=it.choices)
        if ext.value == s:
            ours_agree += 1
        else:
            misses.append({"id": it.id, "stated": s, "ours": ext.value, "reason": ext.reason,
                           "method": ext.method, "tail": it.response[-300:]})
        if can_infer(it.response, letter_dict(it.choices or [])) == s:
            vlm_agree += 1
    return {"responses": len(items), "stating_one": len(stated), "ours_agree": ours_agree,
            "ours_agreement": ours_agree / len(stated), "can_infer_agree": vlm_agree,
            "can_infer_agreement": vlm_agree / len(stated), "ours_misses": misses}


# --------------------------------------------------------------------------- speed

def _pin_one_core() -> str:
    try:
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    except (AttributeError, OSError):  # not Linux: single-threaded anyway
        return "not pinned (no sched_setaffinity); single-threaded"


def _time(fn, rounds: int) -> float:
    return min(_once(fn) for _ in range(rounds))


def _once(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def measure_speed(all_items: list[Item], mmmu: list[Item], rounds: int = 5) -> dict[str, Any]:
    """Responses per second, one core: ours on everything; ours vs can_infer on MMMU-Pro, interleaved."""
    pin = _pin_one_core()
    args = [(it.response, it.answer_type, it.choices) for it in all_items]
    mm = [(it.response, it.choices, letter_dict(it.choices or [])) for it in mmmu]

    def ours_all() -> None:
        for r, t, c in args:
            extract_answer(r, t, choices=c)

    def ours_mmmu() -> None:
        for r, c, _ in mm:
            extract_answer(r, "choice", choices=c)

    def vlm_mmmu() -> None:
        for r, _, d in mm:
            can_infer(r, d)

    ours_all()  # warm up: imports, regex caches
    t_mm, t_vlm = [], []
    for _ in range(rounds):  # interleaved so that load from other processes hits both alike
        t_mm.append(_once(ours_mmmu))
        t_vlm.append(_once(vlm_mmmu))
    t_all = _time(ours_all, max(1, rounds // 2))
    ours_rate = len(mm) / statistics.median(t_mm)
    vlm_rate = len(mm) / statistics.median(t_vlm)
    return {
        "core": pin,
        "rule_responses_per_s": len(args) / t_all,
        "responses_timed": len(args),
        "mmmu_ours_per_s": ours_rate,
        "mmmu_can_infer_per_s": vlm_rate,
        "mmmu_ours_over_can_infer": ours_rate / vlm_rate,
    }


# --------------------------------------------------------------------------- main

def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", type=Path, default=DEFAULT_DATA, help=f"extraction data folder (default {DEFAULT_DATA})")
    p.add_argument("--out", type=Path, default=ROOT / "runs" / "extraction_real.json", help="report path (JSON)")
    p.add_argument("--rounds", type=int, default=5, help="timing rounds (default 5)")
    args = p.parse_args(argv)
    if not args.data.is_dir():
        print(f"error: data folder {args.data} not found", file=sys.stderr)
        return 2
    sources = load_all(args.data)
    report: dict[str, Any] = {"sources": {}}
    for name, items in sources.items():
        res = run_source(items)
        report["sources"][name] = res
        print(f"{name:34s} n={res['n']:5d} official_acc={res['official_accuracy']:.3f} "
              f"ours_acc={res['ours_accuracy']:.3f} unscorable={res['ours_unscorable']:4d} "
              f"agreement={res['agreement_with_official']:.3f} disagreements={res['disagreements_n']}")
        for cat, k in res["categories"].items():
            print(f"    {k:5d}  {cat}")
    nonans = {name: mathvista_nonanswers(sources[name]) for name in ("mathvista/gpt4", "mathvista/claude")}
    report["mathvista_nonanswers"] = nonans
    for name, r in nonans.items():
        print(f"{name}: official non-option extractions scored correct={r['official_nonoptions_scored_correct']}: "
              f"{r['nonanswers']} non-answers (we score {r['nonanswers_ours_scored_correct']} correct), "
              f"{r['stated_option_items']} responses that state an option (we extract that option in "
              f"{r['stated_option_ours_agree']})")
    stated = mmmu_stated(sources["mmmu_pro"])
    report["mmmu_pro_stated"] = stated
    print(f"mmmu_pro: {stated['stating_one']} of {stated['responses']} responses state one letter; "
          f"ours agrees on {stated['ours_agree']} ({stated['ours_agreement']:.4f}); "
          f"VLMEvalKit can_infer on {stated['can_infer_agree']} ({stated['can_infer_agreement']:.4f})")
    all_items = [it for items in sources.values() for it in items]
    speed = measure_speed(all_items, sources["mmmu_pro"], rounds=args.rounds)
    report["speed"] = speed
    print(f"speed ({speed['core']}): ours {speed['rule_responses_per_s']:.0f} responses/s over "
          f"{speed['responses_timed']} responses; on MMMU-Pro ours {speed['mmmu_ours_per_s']:.0f}/s vs "
          f"can_infer {speed['mmmu_can_infer_per_s']:.0f}/s (ratio {speed['mmmu_ours_over_can_infer']:.2f})")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.out.with_suffix(args.out.suffix + ".tmp")
    tmp.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    tmp.replace(args.out)
    print(f"report -> {args.out}")
    nonans_total = sum(r["nonanswers_ours_scored_correct"] for r in nonans.values())
    print(f"mathvista_nonanswers_scored_correct={nonans_total} "
          f"mmmu_pro_stated_answer_agreement={stated['ours_agreement']:.4f} "
          f"rule_responses_per_s={speed['rule_responses_per_s']:.0f} "
          f"mmmu_can_infer_stated_agreement={stated['can_infer_agreement']:.4f} "
          f"mmmu_ours_per_s={speed['mmmu_ours_per_s']:.0f} "
          f"mmmu_can_infer_per_s={speed['mmmu_can_infer_per_s']:.0f} "
          f"ours_over_can_infer={speed['mmmu_ours_over_can_infer']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
