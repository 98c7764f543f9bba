"""Where agents already are: the memory tools, MCP, the Anthropic memory tool, export/import."""
