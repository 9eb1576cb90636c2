"""Test doubles: a fake OpenAI-compatible server (``openai_server``) and its fixtures."""
