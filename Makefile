# Two commands do all set-up on a fresh machine:
#   make demo   the memory agent (offline, no API key) replays the fixture transcripts,
#               then shows the memory tree it wrote
#   make test   the test suite
VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin
DEMO_DB ?= .demo/doctree.db

.PHONY: demo test lint docs clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

demo: $(VENV)/.installed
	rm -f $(DEMO_DB) $(DEMO_DB)-wal $(DEMO_DB)-shm
	mkdir -p $(dir $(DEMO_DB))
	printf '# Alice\n\nAlice leads [[~/memory/projects/apollo]] and prefers tea.\n' \
	  | $(BIN)/doctree --db $(DEMO_DB) write '~/memory/people/alice'
	printf '# Apollo\n\nLaunch planned for 2026-12-01.\n' \
	  | $(BIN)/doctree --db $(DEMO_DB) write '~/memory/projects/apollo'
	$(BIN)/doctree --db $(DEMO_DB) edit '~/memory/people/alice' 'tea' 'green tea'
	$(BIN)/doctree --db $(DEMO_DB) show '~/memory'
	$(BIN)/doctree --db $(DEMO_DB) links '~/memory/projects/apollo'
	$(BIN)/doctree --db $(DEMO_DB) history '~/memory/people/alice'

test: $(VENV)/.installed
	$(BIN)/pytest -q

lint: $(VENV)/.installed
	$(BIN)/ruff check doctree tests bench
	$(BIN)/ruff format --check doctree tests bench

clean:
	rm -rf $(VENV) .demo
