"""VDI / DSI arithmetic against hand-computed cases, and the paired-item rules."""

from __future__ import annotations

import pytest

from judge.maps.indices import UNDEFINED_ACC_FULL_ZERO, compute_indices, dsi_score, format_report, vdi_score


@pytest.mark.parametrize(
    "acc_full,acc_text,expected",
    [
        pytest.param(0.8, 0.4, 0.5, id="half-lost"),
        pytest.param(0.6, 0.6, 0.0, id="nothing-lost"),
        pytest.param(0.5, 0.0, 1.0, id="all-lost"),
        pytest.param(0.4, 0.6, -0.5, id="description-beats-image-negative"),
        # The paper's Table 2 row at k=1024 (VDI 0.338) with GPT-4.1's final score 42.88 %:
        # Acc_text = 0.4288 * (1 - 0.338) = 0.2838656 must give back 0.338.
        pytest.param(0.4288, 0.4288 * (1 - 0.338), 0.338, id="paper-k1024"),
    ],
)
def test_vdi_score(acc_full, acc_text, expected):
    assert vdi_score(acc_full, acc_text) == pytest.approx(expected, abs=1e-12)


def test_vdi_undefined_when_full_accuracy_is_zero():
    assert vdi_score(0.0, 0.0) is None
    assert vdi_score(0.0, 0.25) is None


def test_dsi_score():
    assert dsi_score([64, 32, 16], 64) == pytest.approx((1 + 0.5 + 0.25) / 3)
    assert dsi_score([], 64) is None
    with pytest.raises(ValueError):
        dsi_score([1], 0)


def _full(i, correct, *, level="L1", category="Transportation", error=None):
    return {"id": i, "correct": correct, "level": level, "category": category, "error": error}


def _text(i, correct, k_actual, *, source="usage", error=None):
    return {"id": i, "correct": correct, "k_actual": k_actual, "k_actual_source": source, "error": error}


def test_compute_indices_hand_case_with_levels_categories_and_blind():
    # Four items. Full: a, b, c right, d wrong -> 3/4.
    full = [_full("a", True), _full("b", True, level="L2"), _full("c", True, level="L2", category="Tourism"),
            _full("d", False, level="L3", category="Tourism")]
    # k=64: only a right, c unparseable -> 1/4; VDI = (0.75 - 0.25)/0.75 = 2/3.
    # k=128: a, b, d right -> 3/4; VDI = 0.
    text = {
        64: [_text("a", True, 64), _text("b", False, 60), _text("c", None, 40), _text("d", False, 64)],
        128: [_text("a", True, 100), _text("b", True, 128), _text("c", False, 50), _text("d", True, 90)],
    }
    blind = [{"id": x, "correct": x == "d"} for x in "abcd"]
    rep = compute_indices(full, text, blind_rows=blind, reference_model="m")
    o = rep.overall
    assert rep.n_items == 4 and rep.excluded == {}
    assert o.acc_full == 0.75 and o.acc_blind == 0.25
    b64, b128 = o.budgets
    assert b64.acc_text == 0.25 and b64.unparseable == 1
    assert b64.vdi == pytest.approx(2 / 3)
    assert b64.dsi == pytest.approx((64 + 60 + 40 + 64) / 4 / 64)
    assert b128.vdi == pytest.approx(0.0)
    assert b128.dsi == pytest.approx((100 + 128 + 50 + 90) / 4 / 128)
    levels = {g.group: g for g in rep.by_level}
    assert list(levels) == ["L1", "L2", "L3"]
    # L3 is item d alone: full wrong -> Acc_full 0 -> VDI undefined, with the reason.
    l3 = levels["L3"]
    assert l3.acc_full == 0.0
    assert all(b.vdi is None and b.vdi_undefined == UNDEFINED_ACC_FULL_ZERO for b in l3.budgets)
    # L2 (b, c): full 1.0; k=128 text 0.5 -> VDI 0.5.
    assert levels["L2"].budgets[1].vdi == pytest.approx(0.5)
    cats = {g.group: g for g in rep.by_category}
    assert list(cats) == ["Transportation", "Tourism"]  # the paper's category order
    # Tourism (c, d): full 0.5; k=128: c wrong, d right -> 0.5 -> VDI 0. k=64: 0 -> VDI 1.
    assert cats["Tourism"].budgets[0].vdi == pytest.approx(1.0)
    table = format_report(rep)
    assert "undef" in table and "0.667" in table and "k=64: usage" in table


def test_negative_vdi_reported_unclipped():
    full = [_full("a", True), _full("b", False)]
    text = {256: [_text("a", True, 200), _text("b", True, 256)]}
    rep = compute_indices(full, text)
    assert rep.overall.budgets[0].vdi == pytest.approx(-1.0)  # (0.5 - 1.0) / 0.5
    assert "-1.000" in format_report(rep)


def test_overall_acc_full_zero_gives_null_vdi_and_says_why():
    full = [_full("a", False), _full("b", None)]
    text = {64: [_text("a", True, 10), _text("b", False, 12)]}
    rep = compute_indices(full, text)
    b = rep.overall.budgets[0]
    assert rep.overall.acc_full == 0.0 and b.acc_text == 0.5
    assert b.vdi is None and b.vdi_undefined == UNDEFINED_ACC_FULL_ZERO
    assert rep.model_dump()["overall"]["budgets"][0]["vdi"] is None
    assert "VDI undefined" in format_report(rep)


def test_failed_items_are_excluded_from_every_path_and_counted():
    full = [_full("a", True), _full("b", True), _full("c", None, error="transport: 500"), _full("d", False)]
    text = {
        64: [_text("a", True, 30), _text("b", False, 64, error="description failed: x"), _text("c", True, 5),
             _text("d", False, 64)],
        128: [_text("a", True, 30), _text("b", True, 64), _text("c", True, 5)],  # d missing
    }
    rep = compute_indices(full, text)
    assert rep.n_items == 1  # only a is graded everywhere
    assert rep.excluded == {"full: error": 1, "text k=64: error": 1, "text k=128: missing": 1}
    assert rep.overall.acc_full == 1.0


def test_tokenizer_fallback_is_named_per_budget():
    full = [_full("a", True), _full("b", True)]
    text = {64: [_text("a", True, 30), _text("b", True, 31, source="tiktoken:o200k_base")]}
    rep = compute_indices(full, text)
    assert rep.k_actual_source == {"64": "tiktoken:o200k_base+usage"}


def test_duplicate_ids_are_refused():
    with pytest.raises(ValueError, match="twice"):
        compute_indices([_full("a", True), _full("a", False)], {64: [_text("a", True, 1)]})
