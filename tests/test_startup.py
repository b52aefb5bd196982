"""Start-up stays cheap (issue 12): what ``calc`` imports before it knows the command, and
what ``calc shoot`` imports. Times are measured in ``make bench``, not here; these tests pin
the module set, which is what makes the time."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import requires

import pytest

PROBE = """
import sys
sys.argv = {argv!r}
from wh40k_calc.cli import main
try:
    main()
except SystemExit:
    pass
print(" ".join(sorted(sys.modules)), file=sys.stderr)
"""


def modules_after(*argv: str) -> set[str]:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE.format(argv=["calc", *argv])],
        capture_output=True,
        text=True,
        check=True,
    )
    return set(proc.stderr.split())


def test_version_imports_no_engine_no_data_no_compare() -> None:
    loaded = modules_after("--version")
    # msgspec is loaded: the option groups are its records (wh40k_calc/records.py), cheaper to
    # make than dataclasses; the datasheet schema (wh40k_calc.datasheet) is not
    for heavy in (
        "numpy",
        "yaml",
        "pydantic",
        "wh40k_calc.compare.jobs",
        "wh40k_calc.batch",
        "wh40k_calc.datasheet",
        "wh40k_calc.importers.wahapedia",
    ):
        assert heavy not in loaded, heavy


def test_help_lists_the_commands_without_building_them() -> None:
    """calc --help lists the commands registered with their help from that help: their
    modules are not imported (the others' still are, for their docstrings)."""
    loaded = modules_after("--help")
    for lazy in ("wh40k_calc.sequence.command", "wh40k_calc.exchange.command"):
        assert lazy not in loaded, lazy
    assert "wh40k_calc.lists.command" not in loaded


def test_the_listed_short_help_is_the_built_commands() -> None:
    """What the list shows of a command not built is what the built command would show, at
    every width."""
    import inspect

    from typer.core import TyperCommand

    from wh40k_calc.cli import _COMMANDS, click_command

    for name, (_, text) in _COMMANDS.items():
        if not text:
            continue
        built = click_command(name)
        listed = TyperCommand(name, help=inspect.cleandoc(text))
        for limit in (10, 30, 45, 60, 90, 200):
            assert listed.get_short_help_str(limit) == built.get_short_help_str(limit), name


def test_shoot_does_not_load_the_other_commands() -> None:
    loaded = modules_after("shoot", "lootas", "--target", "boyz", "--json")
    assert "wh40k_calc.resolve" in loaded  # the probe really ran the command
    for other in (
        "wh40k_calc.compare.command",
        "wh40k_calc.compare.jobs",
        "wh40k_calc.batch",
        "wh40k_calc.importers.cli",
        "wh40k_calc.engine.sample",
        "wh40k_calc.updates",
        "urllib.request",  # the HTTP client of `calc data update` (about 30 ms with TLS)
        "http.client",
        "ssl",
        "pydantic",
    ):
        assert other not in loaded, other


def test_data_status_does_not_load_the_http_client() -> None:
    loaded = modules_after("data", "status", "--json")
    assert "wh40k_calc.updates.status" in loaded  # the probe really ran the command
    for other in ("urllib.request", "http.client", "wh40k_calc.updates.fetch"):
        assert other not in loaded, other


@pytest.mark.parametrize("requirement", [r for r in requires("wh40k-calc") or [] if "typer" in r])
def test_typer_kept_below_the_pydantic_versions(requirement: str) -> None:
    """typer 0.29 converts every option value through pydantic (about 40% more start-up)."""
    assert "<0.29" in requirement


def test_unknown_command_suggests_the_lazy_ones() -> None:
    from typer.testing import CliRunner

    from wh40k_calc.cli import app

    result = CliRunner().invoke(app, ["shot", "lootas"])
    assert result.exit_code == 2
    assert "No such command 'shot'. Did you mean 'shoot', 'show'?" in result.output
    result = CliRunner().invoke(app, ["comprae"])
    assert "Did you mean 'compare'?" in result.output


@pytest.mark.parametrize(
    "argv", [("units",), ("units", "intercessor"), ("units", "--json"), ("show", "boyz")]
)
def test_listings_import_no_numpy(argv: tuple[str, ...]) -> None:
    """A listing or one datasheet shown needs no distribution: numpy (about a third of the
    floor's start-up) is not imported; a listing does not import the datasheet schema either."""
    loaded = modules_after(*argv)
    assert "wh40k_calc.catalog" in loaded  # the probe really ran the command
    assert "numpy" not in loaded
    if argv[0] == "units":
        assert "wh40k_calc.datasheet" not in loaded


def test_shoot_parses_no_yaml_once_its_datasheets_are_kept(tmp_path, monkeypatch) -> None:
    """The parsed datasheets are kept between runs (wh40k_calc/filecache.py) and a plain
    ``edition:`` line is read without YAML: a second run imports no PyYAML (about a tenth of
    the start-up). The first run parses (and imports it)."""
    monkeypatch.setenv("WH40K_CALC_CACHE", str(tmp_path / "cache"))
    argv = ("shoot", "lootas", "--target", "boyz")
    assert "yaml" in modules_after(*argv)  # nothing kept yet: parsed
    loaded = modules_after(*argv)
    assert "wh40k_calc.resolve" in loaded  # the probe really ran the command
    for lazy in ("yaml", "wh40k_calc.yamlio"):
        assert lazy not in loaded, lazy
