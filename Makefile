# The README's two commands are `make demo` and `make test`; both create and use .venv/.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test install system-deps

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/tableref demo
	@echo "To watch the demo on the referee's page: $(VENV)/bin/tableref serve   (then open http://127.0.0.1:8000/)"

system-deps:
	bash scripts/system-deps.sh

test: $(STAMP) system-deps
	$(PY) -m pytest -q -p no:cacheprovider
