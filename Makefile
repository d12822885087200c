# Two commands for a newcomer: `make run` and `make test`. Everything else is for developers.
# The newest supported Python on the machine (3.13, 3.12 or 3.11); `make test PYTHON=python3.12`
# picks one (with its own VENV=.venv-3.12, since a venv belongs to one Python).
PYTHON ?= $(firstword $(foreach p,python3.13 python3.12 python3.11,$(shell $(p) -c '' 2>/dev/null && echo $(p))) python3)
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1:8000

# The suite runs on every core (at most four): each pytest-xdist worker gets its own test
# database, and a module stays on one worker (its fixtures are built once there).
XDIST ?= -n auto --maxprocesses=4 --dist loadfile

.PHONY: run test test-fast lint bench install migrate demo worker clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# Reinstall only when the declared or pinned dependencies change.
$(STAMP): $(BIN)/python pyproject.toml constraints.txt
	$(BIN)/pip install --quiet -c constraints.txt -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

# migrate also creates the database cache table (the default cache; tournaments.apps).
migrate: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py createcachetable

demo: migrate
	$(BIN)/python manage.py seed_demo

run: demo
	@echo "Open http://$(HOST)/ and log in as organiser, password organiser (the demo events are under Organise, http://$(HOST)/manage/);"
	@echo "the referee logs in as referee, password referee-demo (http://$(HOST)/referee/)."
	$(BIN)/python manage.py runserver $(HOST)

test: install
	$(BIN)/python -m pytest $(XDIST) $(PYTEST_ARGS)

# What a developer runs between changes: no browser, no fuzzers, no slow walks.
test-fast: install
	$(BIN)/python -m pytest $(XDIST) -q -m "not browser and not worker and not fuzz and not slow" $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/python manage.py makemigrations --check --dry-run

bench: install
	@for f in bench/*.py; do echo "== $$f"; $(BIN)/python -P $$f || exit 1; done

worker: install
	$(BIN)/celery -A config worker --loglevel=info

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache
