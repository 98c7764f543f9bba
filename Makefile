# Two commands do all set-up on a fresh machine:
#   make demo   the memory agent (offline, no API key) replays the fixture transcripts,
#               then shows the memory tree it wrote
#   make test   the test suite
VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin
DEMO_DB ?= .demo/doctree.db

.PHONY: demo test lint docs api clean browser serve mcp-inspector bench

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

demo: $(VENV)/.installed
	rm -f $(DEMO_DB) $(DEMO_DB)-wal $(DEMO_DB)-shm
	mkdir -p $(dir $(DEMO_DB))
	$(BIN)/doctree --db $(DEMO_DB) replay --backend offline tests/fixtures/transcripts/*.md
	$(BIN)/doctree --db $(DEMO_DB) show '~/memory'
	@echo
	@echo "The memory tree above is in $(DEMO_DB). Explore it:"
	@echo "  $(BIN)/doctree --db $(DEMO_DB) read '~/memory/projects/apollo'"
	@echo "  $(BIN)/doctree --db $(DEMO_DB) runs"
	@echo "  $(BIN)/doctree --db $(DEMO_DB) log '~/memory' --run 1"
	@echo "  make serve    # the web inspector on http://127.0.0.1:8765/"

test: $(VENV)/.installed mcp-inspector
	$(BIN)/pytest -q

# The official MCP Inspector CLI, for tests/test_mcp_inspector.py (which drives `doctree mcp`
# through it), installed locally into .node/ when npm is here; without it that test is
# skipped with this target's name.
MCP_INSPECTOR_VERSION ?= 2.12.0
mcp-inspector:
	@if [ -x .node/node_modules/.bin/mcp-inspector ]; then :; \
	elif command -v npm >/dev/null 2>&1; then \
	  npm install --prefix .node --no-save --no-audit --no-fund --loglevel=error \
	    @modelcontextprotocol/inspector@$(MCP_INSPECTOR_VERSION) || \
	    echo "npm install of the MCP Inspector failed: tests/test_mcp_inspector.py will skip"; \
	else echo "npm is not installed: tests/test_mcp_inspector.py will skip"; fi

# Every bench in bench/ in its quick form: one table, one JSON file under .bench/.
bench: $(VENV)/.installed
	$(BIN)/python bench/all.py

docs: $(VENV)/.installed
	$(BIN)/python -m doctree.cli.docs

# The API reference, generated from the docstrings by pdoc: open $(API_DIR)/index.html.
API_DIR ?= .api
api: $(VENV)/.installed
	$(BIN)/python -m doctree.cli.docs --api $(API_DIR)

clean:
	rm -rf $(VENV) .demo .node .api
