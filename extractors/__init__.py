"""Final answers out of verbose text: extract, normalise, match against gold.

Pure functions, no network. The LLM fallback receives its LLM as an argument, so this
package never imports ``judge``.
"""

from extractors.types import ANSWER_TYPES, AnswerType, AnswerValue, Extraction

__all__ = ["ANSWER_TYPES", "AnswerType", "AnswerValue", "Extraction"]
