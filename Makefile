# The project's commands; `make help` lists them. Every target installs what it needs first.
VENV ?= .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
RUNTIME := $(VENV)/.installed-runtime
TEST_TOOLS := $(VENV)/.test-tools
# openapi-python-client pins typer below the siege command line's, so it gets a venv of its own
GENERATOR_VENV := $(VENV)/generator
GENERATOR_SPEC := openapi-python-client>=0.29,<1
# npm's packages (where npm is): TypeScript checks the JSDoc types of clients/js/siege.js (tests/clients),
# axe-core checks the pages' accessibility in tests/browser
NODE_DIR ?= $(VENV)/node
NPM := $(shell command -v npm)
TYPESCRIPT_SPEC := typescript@~5.9
TSC := $(if $(NPM),$(NODE_DIR)/node_modules/.bin/tsc)
AXE_SPEC := axe-core@4.14.1
AXE := $(if $(NPM),$(NODE_DIR)/node_modules/axe-core/axe.min.js)
# the Foundry VTT module (clients/foundry): its zip and manifest, and foundry-vtt-types to type-check it with,
# installed from its package-lock.json wherever npm is (tests/clients, tests/browser)
FOUNDRY := clients/foundry
FOUNDRY_OUT ?= build/foundry
FOUNDRY_URL ?= https://siege.example.org/foundry
FOUNDRY_TYPES := $(if $(NPM),$(FOUNDRY)/node_modules/.installed)
FOUNDRY_SOURCES := $(FOUNDRY)/module.json $(FOUNDRY)/README.md $(FOUNDRY)/build.py clients/js/siege.js \
	service/viewer_files/terms.js $(filter-out $(FOUNDRY)/scripts/siege.js $(FOUNDRY)/scripts/terms.js, \
	$(shell find $(FOUNDRY)/scripts $(FOUNDRY)/lang $(FOUNDRY)/styles -type f))
PYTEST_ARGS ?= -n 2 --dist loadgroup
CATALOGS := $(patsubst %.po,%.mo,$(wildcard summaries/locales/*/LC_MESSAGES/siege.po))
# rules/ compiled with mypyc, out of the tree (workers/rules_build.py): an opt-in build (SIEGE_COMPILED_RULES=1)
# that `make test` holds to the pure Python byte for byte (tests/referee); `make run` never waits for it
COMPILED_RULES := build/mypyc/rules.sha256
RULES_SOURCES := $(shell find rules -name '*.py' -o -name '*.json')
# mutation testing of rules/ (docs/mutation.md): its own pin in a venv of its own, kept off `install` (CI never
# runs it): mutmut brings setproctitle, with which RQ retitles its workers and `make test` no longer finds them
MUTMUT_SPEC := mutmut==3.8.1
MUTATION_VENV := $(VENV)/mutation
MUTMUT := $(MUTATION_VENV)/.mutmut-3.8.1
CHILDREN ?= 2
# the in-browser verifier (GET /verify): the zip of the Python it runs, built from these sources, and the
# pinned Pyodide runtime it runs on, fetched once with npm and checked against service/verify_files/pyodide.json
VERIFIER_DIR := build/verifier
VERIFIER_ZIP := $(VERIFIER_DIR)/siege-verifier.zip
VERIFIER_SOURCES := $(RULES_SOURCES) $(wildcard eventstore/*.py replay/*.py replay/in_browser/*.py replay/in_browser/warm_up/*.jsonl) constraints.txt
PYODIDE := $(if $(NPM),$(VERIFIER_DIR)/pyodide/.checked)

.DEFAULT_GOAL := help
.PHONY: help install compiled-rules browser-verifier foundry-module run test test-faults lint openapi bench mutation clean

help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  make %-11s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# what `make run` needs: the project and its runtime dependencies alone (the dev tools come with `install`)
$(RUNTIME): pyproject.toml constraints.txt
	@test -x $(PY) || python3 -m venv $(VENV)
	@test $(INSTALLED) -nt pyproject.toml -a $(INSTALLED) -nt constraints.txt || \
		$(PY) -m pip install --quiet -c constraints.txt -e .
	@touch $@

$(INSTALLED): pyproject.toml constraints.txt
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e '.[dev]'
	@touch $@

# what only the tests need, kept off `make run`'s way: the client generator's venv, and Chromium
$(TEST_TOOLS): $(INSTALLED)
	@test -x $(GENERATOR_VENV)/bin/python || $(PY) -m venv $(GENERATOR_VENV)
	$(GENERATOR_VENV)/bin/python -m pip install --quiet '$(GENERATOR_SPEC)'
	@# Chromium for tests/browser and nginx for the exposed deployment's front (tests/faults), where root can
	@# apt-get them (as in CI); elsewhere those tests skip and say why
	@{ command -v chromium && { command -v nginx || test -x /usr/sbin/nginx; }; } >/dev/null || \
		[ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null || \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium nginx-light >/dev/null; }
	@touch $@

install: $(INSTALLED) $(TEST_TOOLS) $(CATALOGS) $(TSC) $(AXE) $(FOUNDRY_TYPES) browser-verifier ## create .venv and install the project with its dev tools; compile the catalogs; build the in-browser verifier

$(TSC): | $(INSTALLED)
	npm install --silent --no-audit --no-fund --prefix $(NODE_DIR) '$(TYPESCRIPT_SPEC)' >/dev/null

$(AXE): | $(INSTALLED)
	npm install --silent --no-audit --no-fund --save-exact --prefix $(NODE_DIR) '$(AXE_SPEC)' >/dev/null

$(VERIFIER_ZIP): $(VERIFIER_SOURCES) | $(RUNTIME)
	$(PY) -m replay.in_browser.bundle $(VERIFIER_DIR)

$(PYODIDE): service/verify_files/pyodide.json | $(RUNTIME)
	$(PY) -m service.pyodide_runtime $(NODE_DIR) $(VERIFIER_DIR)
	@touch $@

browser-verifier: $(VERIFIER_ZIP) $(PYODIDE) ## build the in-browser verifier: the zip of rules/ and the verifier, and Pyodide (npm)
	@$(if $(NPM),:,echo "browser-verifier: no npm here, so no Pyodide runtime: /verify says how to get it")

$(FOUNDRY_TYPES): $(FOUNDRY)/package.json $(FOUNDRY)/package-lock.json
	npm ci --silent --no-audit --no-fund --prefix $(FOUNDRY) >/dev/null
	@touch $@

foundry-module: $(FOUNDRY_OUT)/siege-foundry.zip ## build the Foundry VTT module's zip and manifest into build/foundry (FOUNDRY_URL: where both are served)

$(FOUNDRY_OUT)/siege-foundry.zip: $(FOUNDRY_SOURCES)
	python3 $(FOUNDRY)/build.py --out $(FOUNDRY_OUT) --url $(FOUNDRY_URL)

$(COMPILED_RULES): $(RULES_SOURCES) workers/rules_build.py | $(INSTALLED)
	$(PY) -m workers.rules_build

compiled-rules: $(COMPILED_RULES) ## compile rules/ with mypyc into build/mypyc (run it with SIEGE_COMPILED_RULES=1)

%.mo: %.po $(RUNTIME)
	$(VENV)/bin/pybabel compile --statistics -i $< -o $@

run: $(RUNTIME) $(CATALOGS) browser-verifier ## start store, workers, webhook worker, reconciler and API; honours HOST, PORT, REDIS_URL, SIEGE_API_KEY
	$(PY) -m launcher

test: $(INSTALLED) $(TEST_TOOLS) $(CATALOGS) $(TSC) $(AXE) $(FOUNDRY_TYPES) browser-verifier $(COMPILED_RULES) ## run the whole suite against a real embedded server, both builds of rules/ (PYTEST_ARGS to narrow it)
	$(PY) -m pytest $(PYTEST_ARGS)

test-faults: $(INSTALLED) ## fault injection on real processes (SIGKILLs, store outages); prints what it counted
	$(PY) -m pytest -m faults -p no:xdist -s -rA tests/faults

lint: $(INSTALLED) ## ruff check, ruff format --check, mypy --strict, import contracts
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

openapi: $(INSTALLED) ## regenerate openapi.yaml from the marshmallow schemas
	$(PY) -m service.openapi > openapi.yaml.new && mv openapi.yaml.new openapi.yaml

bench: $(INSTALLED) $(CATALOGS) $(COMPILED_RULES) browser-verifier ## bounded benchmarks; writes bench/results/report.md (QUICK=1: a smoke run; BENCH_ARGS)
	@command -v wrk >/dev/null || apt-get install -y -qq wrk >/dev/null 2>&1 || \
		echo "bench: no wrk (apt-get install wrk); falling back to the Python load generator"
	$(PY) -m bench $(if $(QUICK),--quick) $(BENCH_ARGS)

$(MUTMUT): pyproject.toml constraints.txt
	@test -x $(MUTATION_VENV)/bin/python || python3 -m venv $(MUTATION_VENV)
	$(MUTATION_VENV)/bin/python -m pip install --quiet -c constraints.txt -e '.[dev]' '$(MUTMUT_SPEC)'
	@touch $@

mutation: $(MUTMUT) $(CATALOGS) ## mutmut over rules/ with the rules tests (hours; MODULE=rules/pathfinder/blast.py, CHILDREN=2); writes docs/mutation.md
	SIEGE_COMPILED_RULES=0 $(MUTATION_VENV)/bin/python -m tests.mutation $(if $(MODULE),--module $(MODULE)) --children $(CHILDREN)

clean: ## drop the virtual environment, the compiled rules, the in-browser verifier and caches (keeps ./var, the embedded server's data)
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache build/mypyc build/mypyc.partial $(VERIFIER_DIR)
