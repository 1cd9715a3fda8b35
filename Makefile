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

system-deps:
	bash scripts/system-deps.sh

test: $(STAMP) system-deps
	$(PY) -m pytest -q -p no:cacheprovider
