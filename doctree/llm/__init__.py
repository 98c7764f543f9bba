"""The model floor: clients of the model APIs (Anthropic, OpenAI-compatible), the agent
definitions (`agents/*.md`) with the tool names they may use, and the loopback replay server
that serves recorded exchanges to the real SDKs."""
