# The two commands of README.md: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: demo test check lint format typecheck imports pytest pytest-pure engine-kernel system browser compiler venv clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed (set PYTHON=...)")'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

# System pieces the sandbox needs (bubblewrap, the unprivileged bot user): installed when
# missing and when we are allowed to (root); otherwise the sandboxed tests say why they skip.
system:
	@if [ -f deploy/sandbox-setup.sh ] && [ "$$(id -u)" = 0 ]; then bash deploy/sandbox-setup.sh; \
	elif [ -f deploy/sandbox-setup.sh ]; then echo "not root: run 'sudo bash deploy/sandbox-setup.sh' for the bot sandbox"; fi

# gcc and the Python headers for the optional C kernel, from Debian's packages when this is
# root and they are missing (`make test` asks for them; `make demo` does not wait for an
# install); without them the build is skipped and the pure engine runs.
compiler:
	@if { ! command -v gcc >/dev/null || [ ! -f "$$($(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h" ]; } \
		&& [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "installing gcc and the Python headers for the C kernel"; \
		apt-get update -qq && apt-get install -y -qq gcc python3-dev >/dev/null \
			|| echo "gcc could not be installed: the pure engine runs"; fi

# Chromium for the browser tests (tests/browser), from Debian's packages: never a download of
# Playwright's own browser. Only `make test` needs it, so `make demo` does not wait for it.
browser:
	@if [ ! -x /usr/bin/chromium ] && [ "$$(id -u)" = 0 ]; then \
		echo "installing Chromium for the browser tests"; \
		apt-get update -qq && apt-get install -y -qq chromium >/dev/null || echo "Chromium could not be installed: the browser tests will say so"; \
	elif [ ! -x /usr/bin/chromium ]; then echo "not root: 'sudo apt-get install chromium' for the browser tests"; fi

# The embedded mode: SQLite and a broker of message files in var/, with a real Celery worker
# and beat beside the web server (manage.py demo: the page is served first, the demo content
# loads behind it; Ctrl-C stops every process), bots sandboxed when this machine can.
# It needs the project's own dependencies only: the test and lint tools wait for `make test`.
# uv (from the registry, through pip) fetches them in parallel: from a fresh clone that is
# what brings the first page under two minutes. pip installs them if uv cannot.
DEMO_STAMP := $(VENV)/.demo-stamp

$(DEMO_STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed (set PYTHON=...)")'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	($(PY) -m pip install --quiet 'uv>=0.4,<1' && $(VENV)/bin/uv pip install --quiet --python $(PY) -e .) \
		|| $(PY) -m pip install --quiet -e .
	touch $(DEMO_STAMP)

demo: export DEBUG = true
demo: export SANDBOX_MODE ?= auto
demo: export CELERY_BROKER_URL ?= filesystem://localhost/
demo: $(DEMO_STAMP) system engine-kernel
	mkdir -p var
	$(PY) manage.py demo $(HOST):$(PORT)

lint: venv
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

typecheck: venv
	$(PY) -m mypy

# The direction of dependencies, engine <- bots <- arena <- leagues ([tool.importlinter]).
imports: venv
	$(VENV)/bin/lint-imports

check: lint typecheck imports

format: venv
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

# Exit status 5 (no tests collected) fails like any other non-zero status. The tests run in
# PYTEST_WORKERS processes (pytest-xdist), each with its own database, task queue and cache
# keys (tests/README.md); PYTEST_WORKERS=0 runs them in this one process.
PYTEST_WORKERS ?= 2
pytest: venv system browser
	SECRET_KEY=$${SECRET_KEY:-test-only-secret-key} CELERY_QUEUE=arena-test-$$$$ \
		$(PY) -m pytest -n $(PYTEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

# The engine's optional C kernel (engine/_kernel.c with _handcore.c: the hand's core behind
# the public classes, _records.c: its result's records, and _enums.c: the phases' reads;
# whole random hands and trick playouts in batches; gcc and the Python
# headers, nothing else). A build that fails says why and
# `make` goes on: engine/kernel.py then runs the pure engine (and loads the kernel only
# while its source is the one built). Rebuilt when the source or the build script changed.
ENGINE_KERNEL := build/engine-kernel/manifest.json
$(ENGINE_KERNEL): engine/_kernel.c engine/_handcore.c engine/_records.c engine/_enums.c deploy/build_kernel.py
	@test -x $(PY) && $(PY) deploy/build_kernel.py || echo "the C kernel was not built: the pure engine runs"

engine-kernel: $(ENGINE_KERNEL)

# The engine's suite once more without the C kernel (the main run takes it where it is
# built, and test_handcore_differential and test_kernel_differential compare both).
PURE_TESTS := tests/engine
pytest-pure: venv
	ENGINE_KERNEL=off SECRET_KEY=$${SECRET_KEY:-test-only-secret-key} CELERY_QUEUE=arena-test-$$$$ \
		$(PY) -m pytest -n $(PYTEST_WORKERS) --dist loadgroup -q $(PURE_TESTS)

test: check compiler engine-kernel pytest pytest-pure

clean:
	rm -rf $(VENV) var .mypy_cache .ruff_cache .pytest_cache .hypothesis
