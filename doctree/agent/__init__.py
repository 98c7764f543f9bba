"""The memory agent: its runtime, definitions, and model backends (anthropic, replay, offline)."""
