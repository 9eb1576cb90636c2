"""reasonjudge: grade LLM outputs on reasoning benchmarks.

This package holds LLM access (``judge.llm``, the only code that imports litellm and
instructor, always lazily), the reasoning judge, the benchmark runners, I/O and the CLI.
Nothing heavy is imported here, so ``reasonjudge --help`` stays fast.
"""

__version__ = "0.1.0"
