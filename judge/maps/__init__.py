"""Map questions end to end, and OmniMapBench's Visual Dependency Index protocol.

- ``breakdown``: strict exact match by level, category, question type and language;
- ``images``: images as data URLs under a recorded resolution policy;
- ``prompts`` (+ ``prompts/*.txt``): the full, describer, text-only and blind prompts;
- ``run``: the standard run (image + question, chain of thought, exact match);
- ``vdi``: the protocol (descriptions per budget, text-only and blind answers);
- ``indices``: VDI and DSI arithmetic and the report;
- ``tokens``: the tokenizer fallback for ``k_actual``;
- ``sample``: draws the bundled sample maps.

Nothing heavy is imported here: the modules import the LLM layer and Pillow lazily or
only when used.
"""
