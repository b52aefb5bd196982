# Everything a newcomer needs: `make demo` and `make test` set up .venv themselves.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev
# The package is installed editable in "compat" mode: a path entry (.pth) to this checkout
# instead of setuptools' import finder, which every Python start here would import (~3-7 ms; the
# shipped datasheets are found next to the package either way). setuptools' notices about
# editable and compat installs are not news.
PIP_INSTALL := PYTHONWARNINGS="ignore:Editable installation,ignore:Compat editable installs" \
	$(BIN)/python -m pip install --quiet --config-settings editable_mode=compat
# Byte-compile the package as `pip install` does for an installed copy: with
# PYTHONDONTWRITEBYTECODE set, Python would otherwise compile every module at every start.
COMPILE := $(BIN)/python -m compileall -q wh40k_calc

.PHONY: demo test test-slow lint bench install install-dev clean datasheets datasheets-11 \
	effects-coverage

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(PIP_INSTALL) -e .
	$(COMPILE)
	touch $(STAMP)

$(DEVSTAMP): $(BIN)/python pyproject.toml
	$(PIP_INSTALL) -e '.[dev]'
	$(COMPILE)
	touch $(STAMP) $(DEVSTAMP)

install: $(STAMP)

install-dev: $(DEVSTAMP)

demo: $(STAMP)
	@$(COMPILE)
	$(BIN)/calc shoot lootas --target boyz

# pytest runs with bytecode writing on even where the environment turns it off
# (PYTHONDONTWRITEBYTECODE): each worker and each `calc` a test starts would otherwise compile
# every test module and helper again (__pycache__ is git-ignored).
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest

# the fast suite: a fixed sample of each sweep over the whole data set (tests/helpers.py, SWEEP)
test: $(DEVSTAMP)
	@$(COMPILE)
	$(PYTEST) -n auto

# the long sweeps over the whole data set (@pytest.mark.slow), which make test leaves out, and
# every sampled sweep of make test over the whole set (WH40K_CALC_SWEEP=all)
test-slow: $(DEVSTAMP)
	@$(COMPILE)
	WH40K_CALC_SWEEP=all $(PYTEST) -n auto -m 'slow or sweep'

lint: $(DEVSTAMP)
	$(BIN)/ruff check wh40k_calc tests benchmarks
	$(BIN)/ruff format --check wh40k_calc tests benchmarks
	$(BIN)/mypy

bench: $(DEVSTAMP)
	$(BIN)/python -m pytest benchmarks --benchmark-enable --benchmark-only --benchmark-columns=min,mean,max,rounds -p no:cacheprovider

# Regenerate datasheets-generated/ from the datasheet CSV export: CSV=DIR or $WH40K_CALC_CSV.
CSV ?= $(WH40K_CALC_CSV)
datasheets: $(STAMP)
	@test -n "$(CSV)" || { echo "make datasheets: give the export folder: make datasheets CSV=DIR (or set WH40K_CALC_CSV)"; exit 2; }
	$(BIN)/python -m wh40k_calc.importers.generate --csv "$(CSV)" --out datasheets-generated

# Regenerate datasheets-generated-11/ from a folder of edition-11 faction files (game-datacards):
# GDC=DIR or $WH40K_CALC_GDC.
GDC ?= $(WH40K_CALC_GDC)
datasheets-11: $(STAMP)
	@test -n "$(GDC)" || { echo "make datasheets-11: give the folder of faction files: make datasheets-11 GDC=DIR (or set WH40K_CALC_GDC)"; exit 2; }
	$(BIN)/python -m wh40k_calc.importers.generate_gdc --gdc "$(GDC)" --out datasheets-generated-11

# Regenerate effects/coverage-11.csv, effects/coverage-10.csv and the README's coverage tables
# from the data: GDC=DIR (game-datacards faction files, edition 11, or $WH40K_CALC_GDC) and
# CSV=DIR (the 10th-edition export, or $WH40K_CALC_CSV); each defaults to the shared data
# folder next to the checkout.
effects-coverage: $(STAMP)
	$(BIN)/python -m wh40k_calc.effect_coverage \
		--gdc "$(or $(GDC),../shared/data/game-datacards-11e-912)" \
		--csv "$(or $(CSV),../shared/data/wahapedia-10e-2025-07)" --readme README.md

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .benchmarks
