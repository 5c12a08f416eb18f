# The two commands of README.md: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: demo test check lint format typecheck imports pytest system browser venv clean

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

# Chromium for the browser tests (tests/browser), from Debian's packages: never a download of
# Playwright's own browser. Only `make test` needs it, so `make demo` does not wait for it.
browser:
	@if [ ! -x /usr/bin/chromium ] && [ "$$(id -u)" = 0 ]; then \
		echo "installing Chromium for the browser tests"; \
		apt-get update -qq && apt-get install -y -qq chromium >/dev/null || echo "Chromium could not be installed: the browser tests will say so"; \
	elif [ ! -x /usr/bin/chromium ]; then echo "not root: 'sudo apt-get install chromium' for the browser tests"; fi

# The embedded mode: SQLite in var/, tasks in-process, bots sandboxed when this machine can.
demo: export DEBUG = true
demo: export SANDBOX_MODE ?= auto
demo: venv system
	mkdir -p var
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo_seed
	@echo ""
	@echo "Pinochle Arena is starting on http://$(HOST):$(PORT)/"
	@echo "  Leaderboard:        http://$(HOST):$(PORT)/api/ratings/?variant=auction4"
	@echo "  Matches:            http://$(HOST):$(PORT)/api/matches/"
	@echo "  Leagues:            http://$(HOST):$(PORT)/api/leagues/"
	@echo "  Tournaments:        http://$(HOST):$(PORT)/api/tournaments/"
	@echo "  API documentation:  http://$(HOST):$(PORT)/api/docs/"
	@echo "  Administration:     http://$(HOST):$(PORT)/admin/  (user admin, password arena-admin)"
	@echo "  Players alice, bob, carol have the password demo-password-2026."
	@echo ""
	$(PY) manage.py runserver --noreload $(HOST):$(PORT)

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

# Exit status 5 (no tests collected) fails like any other non-zero status.
pytest: venv system browser
	SECRET_KEY=$${SECRET_KEY:-test-only-secret-key} CELERY_QUEUE=arena-test-$$$$ \
		$(PY) -m pytest $(PYTEST_ARGS)

test: check pytest

clean:
	rm -rf $(VENV) var .mypy_cache .ruff_cache .pytest_cache .hypothesis
