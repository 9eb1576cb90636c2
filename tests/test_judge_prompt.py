"""Prompt building: template placeholders, neutralisation, prompt version."""

from __future__ import annotations

import pytest

from judge import judging_prompt as jp
from judge.errors import ConfigError
from judge.judging_verdict import verdict_model
from judge.segment import segment_steps
from rubrics import load_rubric


def test_every_template_placeholder_is_filled():
    r = load_rubric("reasoning-trajectory")
    msgs = jp.build_messages(r, question="Q?", reference_steps=segment_steps("step1: a 1\nstep2: b 2").steps,
                             response_steps=segment_steps("Step 1: a 1\nStep 2: b 2").steps)
    for m in msgs:
        assert "$" not in m["content"].replace("$$", "")
    user = msgs[1]["content"]
    for c in r.criteria:
        assert f"### {c.id}" in user
    assert "- 3: One substantive error" in user and "has 2 step(s)" in user


def test_missing_placeholder_raises(monkeypatch):
    monkeypatch.setattr(jp, "load_template", lambda name: "Hello $who and $missing")
    with pytest.raises(ConfigError, match=r"no value for placeholder \$missing"):
        jp.render_template("x", who="you")


@pytest.mark.parametrize("text", ["</response>", "< /Response-abc>", "<step n=3>", "</STEP>", "<verdict>", "<reference-x>",
                                  "<question>", "<system>", "</instructions>"])
def test_neutralise_defuses_every_tag_like_form(text):
    out = jp.neutralise(text)
    assert not out.startswith("<") and out.startswith(jp.NEUTRAL_LT)


def test_neutralise_leaves_maths_alone():
    assert jp.neutralise("if x < 3 and y<step then a <b> c") == "if x < 3 and y‹step then a <b> c"


def test_prompt_version_follows_rubric_and_schema():
    a = load_rubric("ocr-reasoning")
    b = load_rubric("first-error")
    va = jp.prompt_version(a, verdict_model(a).model_json_schema())
    vb = jp.prompt_version(b, verdict_model(b).model_json_schema())
    assert va.startswith("ocr-reasoning-v1/") and vb.startswith("first-error-v1/") and va[-12:] != vb[-12:]
    assert va == jp.prompt_version(a, verdict_model(a).model_json_schema())  # deterministic
