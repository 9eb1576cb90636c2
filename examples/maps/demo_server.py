"""A scripted stand-in for a vision model, to run the map commands offline (a demo, not a model).

It is the project's fake OpenAI-compatible server (``tests/fakes/openai_server.py``)
with a script that plays the three roles of the VDI protocol on the bundled sample
(``examples/maps``), so that the whole pipeline can be watched end to end without an
API key:

- **describer** (an image and the "Please provide a text description" prompt): it
  returns true facts about that map (``judge.maps.sample.map_facts``), most salient
  first, cut to the request's ``max_tokens`` (counted with tiktoken ``o200k_base``), and
  reports the tokens it used as ``usage.completion_tokens``;
- **answerer with the image**: right on every question except two multi-step ones
  (``metro-06``, ``evac-05``), answered wrongly on purpose;
- **answerer from a description / blind**: right only when the facts the question
  needs are in the description it was given; otherwise it guesses the first option, or
  (every other question) says it cannot tell, which the extractor reports as no answer.

The numbers it produces say nothing about any real model; they show the plumbing:
budgets, k_actual from usage, caching, the leak guarantees, and the tables.

Run it from the repository root::

    python examples/maps/demo_server.py --port 8765

then point a command at ``--model openai/demo --api-base http://127.0.0.1:8765/v1``.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import sys
import zlib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
if str(ROOT) not in sys.path:  # run as a script: make judge/ and tests/ importable
    sys.path.insert(0, str(ROOT))

from judge.maps.sample import map_facts  # noqa: E402
from judge.maps.tokens import count_tokens  # noqa: E402
from tests.fakes.openai_server import FakeOpenAIServer, Reply, message_text  # noqa: E402

#: The facts (substrings of ``map_facts``) each sample question needs; park-04 needs a
#: distance no description states, so only the image answers it.
NEEDS: dict[str, tuple[str, ...]] = {
    "metro-01": ("The Green line runs",),
    "metro-02": ("Interchange stations",),
    "metro-03": ("The Red line runs", "The Blue line runs"),
    "metro-04": ("The Red line runs", "The Green line runs"),
    "metro-05": ("The Red line runs", "The Blue line runs"),
    "metro-06": ("The Red line runs", "The Blue line runs"),
    "evac-01": ("first-aid box",),
    "evac-02": ("primary route",),
    "evac-03": ("secondary route",),
    "evac-04": ("Fire extinguishers",),
    "evac-05": ("Doors along the corridor",),
    "region-01": ("Top row",),
    "region-02": ("Middle row", "Bottom row"),
    "region-03": ("A river enters",),
    "region-04": ("Top row", "Middle row", "Bottom row"),
    "region-05": ("Top row", "Middle row", "Bottom row"),
    "park-01": ("The Fountain is at the centre",),
    "park-02": ("Walking the trail clockwise",),
    "park-03": ("The Fountain is at the centre",),
    "park-04": ("(no description states this)",),
}
#: Questions the "model" gets wrong even with the image.
WRONG_WITH_IMAGE: dict[str, Any] = {"metro-06": "B", "evac-05": ["C", "D", "B", "A"]}
DESCRIBE_OPENING = "Please provide a text description"


def _letters(answer: Any) -> list[str]:
    if isinstance(answer, list):
        return [str(a) for a in answer]
    return [p.strip() for p in str(answer).strip("[]").split(",") if p.strip()]


def _answer_line(qtype: str, letters: list[str]) -> str:
    if qtype == "single_choice":
        return f"Answer: {letters[0]}"
    if qtype == "multiple_choice":
        return "Answer: " + ", ".join(letters)
    return "Answer: [" + ", ".join(letters) + "]"


def describe(facts: list[str], budget: int | None) -> tuple[str, int, str]:
    """Return (description, tokens used, finish reason): whole facts while they fit, then a cut one."""
    out: list[str] = []
    for fact in facts:
        candidate = " ".join(out + [fact])
        if budget is None or count_tokens(candidate) <= budget:
            out.append(fact)
            continue
        words = fact.split()
        while words and count_tokens(" ".join(out + [" ".join(words)])) > budget:
            words.pop()
        if words:
            out.append(" ".join(words))
        text = " ".join(out)
        return text, count_tokens(text), "length"
    text = " ".join(out)
    return text, count_tokens(text), "stop"


def make_script(questions_path: Path = HERE / "questions.jsonl"):  # noqa: ANN201 - a Script for FakeOpenAIServer
    """Return the server script answering the sample in the three roles."""
    questions = [json.loads(line) for line in questions_path.read_text(encoding="utf-8").splitlines() if line.strip()]
    facts_by_file = map_facts()
    facts_by_hash = {hashlib.sha256((questions_path.parent / "images" / name).read_bytes()).hexdigest(): facts
                     for name, facts in facts_by_file.items()}

    def script(body: dict[str, Any]) -> Reply:
        messages = body.get("messages", [])
        images = [p["image_url"]["url"] for m in messages if isinstance(m.get("content"), list)
                  for p in m["content"] if isinstance(p, dict) and p.get("type") == "image_url"]
        text = "\n".join(message_text(m) for m in messages)
        if images and text.lstrip().startswith(DESCRIBE_OPENING):
            raw = base64.b64decode(images[0].split(",", 1)[1])
            facts = facts_by_hash.get(hashlib.sha256(raw).hexdigest(), ["A map image."])
            desc, used, finish = describe(facts, body.get("max_tokens"))
            return Reply(content=desc, completion_tokens=used, finish_reason=finish)
        q = next((q for q in questions if q["question"] in text), None)
        if q is None:
            return Reply(content="I cannot find a question in this request.")
        if images:
            source = "From the map image"
            letters = _letters(WRONG_WITH_IMAGE.get(q["id"], q["answer"]))
        else:
            evidence = text.split("<image_description>", 1)[1] if "<image_description>" in text else ""
            source = "From the description" if evidence else "Without the image"
            if evidence and all(n in evidence for n in NEEDS[q["id"]]):
                letters = _letters(q["answer"])
            elif zlib.crc32(q["id"].encode()) % 2 and evidence:
                return Reply(content=f"{source}, I cannot tell: it does not give the information needed "
                                     "to decide between the options.")
            else:
                letters = ["A"] if q["question_type"] != "ordering" else ["A", "B"]
        return Reply(content=f"{source}, I work through the options one by one.\n\n"
                             f"{_answer_line(q['question_type'], letters)}")

    return script


def main(argv: list[str] | None = None) -> int:
    """Serve the scripted demo model on 127.0.0.1 until interrupted."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--questions", type=Path, default=HERE / "questions.jsonl")
    args = parser.parse_args(argv)
    from aiohttp import web

    server = FakeOpenAIServer(script=make_script(args.questions), record=False)
    print(f"demo model at http://127.0.0.1:{args.port}/v1 (Ctrl-C to stop)", flush=True)
    web.run_app(server.build_app(), host="127.0.0.1", port=args.port, print=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
