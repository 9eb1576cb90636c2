"""Loaders: native OCR-Reasoning files (.jsonl/.tsv/.xlsx), map questions, generic rows, and bad input."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from judge.errors import InputError
from judge.loaders import load_items, load_predicted_items, load_rows
from judge.ocr_reasoning import ability_of_task, answer_type_from_format, parse_choices

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "ocr_reasoning" / "sample.jsonl"

OCR_ROWS = [
    {"index": 1, "question": "How much cheaper is Package One?", "answer": "3.24", "answer_option": None,
     "choices": None, "question_type": "free_form", "answer_type": "float", "task": "Financial Analysis",
     "reasoning": "step1: 17.99 - 14.75 = 3.24\nThe final answer is: 3.24", "language": "English",
     "format": "$ + Float", "prediction": "The final answer is: $3.24"},
    {"index": 2, "question": "Which graph?", "answer": "Graph A", "answer_option": "A",
     "choices": "['Graph A', 'Graph B', 'Graph C', 'Graph D']", "question_type": "multi_choice",
     "answer_type": "other", "task": "Function Problems", "reasoning": "step1: odd.\nThe final answer is: A",
     "language": "English", "format": "Option letter", "prediction": "Therefore the answer is A."},
]


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def write_tsv(path: Path, rows: list[dict]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]), delimiter="\t")
        w.writeheader()
        for r in rows:
            w.writerow({k: ("" if v is None else v) for k, v in r.items()})
    return path


def write_xlsx(path: Path, rows: list[dict]) -> Path:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(list(rows[0]))
    for r in rows:
        ws.append([r[k] for k in rows[0]])
    wb.save(path)
    return path


@pytest.mark.parametrize("writer,suffix", [(write_jsonl, ".jsonl"), (write_tsv, ".tsv"), (write_xlsx, ".xlsx")],
                         ids=["jsonl", "tsv", "xlsx"])
def test_ocr_native_formats_load_the_same(tmp_path, writer, suffix):
    items = load_predicted_items(writer(tmp_path / f"preds{suffix}", OCR_ROWS), "ocr-reasoning")
    assert [p.item.id for p in items] == ["1", "2"]
    free, mc = items[0].item, items[1].item
    assert free.answer_type == "currency"  # the "$ + Float" format hint says what the number is
    assert free.gold == "3.24" and free.format_hint == "$ + Float"
    assert free.ability == "Numerical Analysis Reasoning" and free.task == "Financial Analysis"
    assert free.reference.startswith("step1:")
    assert mc.answer_type == "choice" and mc.gold == "A"
    assert mc.choices == ["Graph A", "Graph B", "Graph C", "Graph D"]
    assert mc.ability == "Mathematical Reasoning"
    assert items[1].response == "Therefore the answer is A."


def test_bundled_ocr_sample_loads():
    items = load_predicted_items(SAMPLE, "ocr-reasoning")
    assert len(items) == 18
    types = {p.item.answer_type for p in items}
    assert {"choice", "integer", "currency", "time", "duration", "percent", "yes_no", "text"} <= types
    assert all(p.item.ability for p in items)
    assert {p.item.language for p in items} == {"English", "Chinese"}


def test_choices_are_parsed_never_evaluated(tmp_path):
    row = dict(OCR_ROWS[1], choices="__import__('os').system('echo pwned')")
    with pytest.raises(InputError) as e:
        load_items(write_jsonl(tmp_path / "p.jsonl", [row]), "ocr-reasoning")
    assert "p.jsonl:1: field 'choices'" in str(e.value)


@pytest.mark.parametrize("raw,expected", [
    ("['3/11', '8/11', \"6/11\"]", ["3/11", "8/11", "6/11"]),
    ('["A road", "B road"]', ["A road", "B road"]),
    (["x", "y"], ["x", "y"]),
    ("{'A': 'north', 'B': 'south'}", ["north", "south"]),
    ("", None),
    (None, None),
    (float("nan"), None),
], ids=["python-literal", "json", "list", "dict", "empty", "none", "nan"])
def test_parse_choices(raw, expected):
    assert parse_choices(raw) == expected


@pytest.mark.parametrize("fmt,native,qtype,answer,expected", [
    ("$ + Integer", "integer", "free_form", "15", "currency"),
    ("Integer + %", "integer", "free_form", "25", "percent"),
    ("HH:MM", "other", "free_form", "19:00", "time"),
    ("Integer + days", "integer", "free_form", "20", "duration"),
    ("Integer", "integer", "free_form", "20", "integer"),
    ("Float", "float", "free_form", "0.7", "float"),
    ("Yes or No", "other", "free_form", "No", "yes_no"),
    ("Text", "other", "free_form", "great-grandson", "text"),
    ("Option letter", "other", "multi_choice", "A", "choice"),
    ("整数 + 亿元", "other", "free_form", "400亿元", "currency"),
], ids=["currency", "percent", "time", "duration", "integer", "float", "yes-no", "text", "choice", "yuan"])
def test_answer_type_from_format(fmt, native, qtype, answer, expected):
    assert answer_type_from_format(fmt, native, question_type=qtype, answer=answer) == expected


def test_task_maps_to_ability():
    assert ability_of_task("Candlestick Analysis") == "Numerical Analysis Reasoning"
    assert ability_of_task("Spatial Reasoning") == "Spatial Reasoning"  # a task column that holds abilities
    assert ability_of_task("numerical analysis") == "Numerical Analysis Reasoning"
    assert ability_of_task("Astrology") is None


MAP_ROW = {"id": "metro-01", "image": "images/metro.png", "question": "Order the stations from west to east.",
           "choices": ["Harbour", "Museum", "Park Street", "Market"], "answer": "[C,B,D,A]",
           "question_type": "ordering", "level": "L3", "category": "transportation", "language": "en",
           "response": "... so the order is C, B, D, A."}


def test_map_question_loads(tmp_path):
    rows = [MAP_ROW,
            dict(MAP_ROW, id="metro-02", question_type="multiple_choice", answer="A,C", level="2"),
            dict(MAP_ROW, id="metro-03", question_type="single_choice", answer="B", level="L1"),
            dict(MAP_ROW, id="metro-04", question_type="ordering", answer=["A", "D", "A", "D"])]
    items = load_items(write_jsonl(tmp_path / "maps.jsonl", rows), "map")
    assert [i.answer_type for i in items] == ["ordering", "multi_choice", "choice", "ordering"]
    assert items[0].gold == ["C", "B", "D", "A"]
    assert items[1].gold == ["A", "C"] and items[1].level == "L2"
    assert items[2].gold == "B"
    assert items[3].gold == ["A", "D", "A", "D"]  # orderings may repeat letters
    assert items[0].category == "Transportation"
    assert Path(items[0].image).is_absolute() and items[0].image.endswith("images/metro.png")


@pytest.mark.parametrize("change,field,problem", [
    ({"level": "L4"}, "level", "must be L1, L2 or L3"),
    ({"category": "Weather"}, "category", "not one of the nine"),
    ({"question_type": "essay"}, "question_type", "must be single_choice"),
    ({"question_type": "single_choice", "answer": "A,B"}, "answer", "one letter"),
    ({"answer": "[C,B,X1]"}, "answer", "not an option letter"),
    ({"choices": None}, "choices", "required"),
], ids=["level", "category", "qtype", "single-with-two", "bad-letter", "no-choices"])
def test_map_bad_input_names_file_line_field(tmp_path, change, field, problem):
    path = write_jsonl(tmp_path / "maps.jsonl", [dict(MAP_ROW, id="ok"), dict(MAP_ROW, **change)])
    with pytest.raises(InputError) as e:
        load_items(path, "map")
    msg = str(e.value)
    assert msg.startswith(f"{path}:2: field '{field}'"), msg
    assert problem in msg


def test_gold_letter_outside_options_is_an_input_error(tmp_path):
    path = write_jsonl(tmp_path / "maps.jsonl", [dict(MAP_ROW, answer="[C,B,D,F]")])
    with pytest.raises(InputError) as e:
        load_items(path, "map")
    assert f"{path}:1: field 'answer'" in str(e.value)


@pytest.mark.parametrize("rows,where", [
    ([{"id": "a", "response": "x", "answer_type": "numbr"}], ":1: field 'answer_type'"),
    ([{"response": "x"}], ":1: field 'id': required"),
    ([{"id": "a", "response": "x"}, {"id": "a", "response": "y"}], ":2: field 'id': duplicate id 'a'"),
    ([{"id": "a", "answer_type": "choice", "response": "B"}], ":1: field 'choices': required"),
    ([{"id": "a", "answer_type": "integer"}], ":1: field 'response': required"),
], ids=["bad-type", "no-id", "duplicate", "choice-without-choices", "no-response"])
def test_generic_bad_input(tmp_path, rows, where):
    path = write_jsonl(tmp_path / "rows.jsonl", rows)
    with pytest.raises(InputError) as e:
        load_rows(path, "generic")
    assert where in str(e.value)


def test_invalid_json_line_is_located(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_text('{"id": "a", "response": "x"}\n{"id": "b", "response": \n', encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_rows(path, "generic")
    assert f"{path}:2: not valid JSON" in str(e.value)


def test_ocr_missing_prediction_is_located(tmp_path):
    row = {k: v for k, v in OCR_ROWS[0].items() if k != "prediction"}
    with pytest.raises(InputError) as e:
        load_predicted_items(write_jsonl(tmp_path / "p.jsonl", [row]), "ocr-reasoning")
    assert "p.jsonl:1: field 'prediction': required" in str(e.value)
