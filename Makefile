# Two commands for a newcomer: `make run` and `make test`. Everything else is for developers.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1:8000

.PHONY: run test lint bench install migrate demo worker clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# Reinstall only when the declared or pinned dependencies change.
$(STAMP): $(BIN)/python pyproject.toml constraints.txt
	$(BIN)/pip install --quiet -c constraints.txt -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	$(BIN)/python manage.py seed_demo

run: demo
	@echo "Serving on http://$(HOST)/  (admin: http://$(HOST)/admin/, user 'organiser', password 'organiser')"
	$(BIN)/python manage.py runserver $(HOST)

test: install
	$(BIN)/python -m pytest $(PYTEST_ARGS)

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
