# The README's two commands are `make demo` and `make test`; both create and use .venv/.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test install browser

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/tableref demo

browser:
	bash scripts/ensure-chromium.sh

test: $(STAMP) browser
	$(PY) -m pytest -q -p no:cacheprovider
