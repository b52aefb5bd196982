"""Shared test set-up: every test runs without the player's own data folder, faction
preferences or export location (they would change which datasheets a name finds), and keeps
compiled effect files in the session's own cache folder."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _isolated_user_data(tmp_path_factory: pytest.TempPathFactory, monkeypatch) -> None:
    monkeypatch.setenv("WH40K_CALC_HOME", str(tmp_path_factory.mktemp("calc-home")))
    monkeypatch.setenv("WH40K_CALC_CACHE", str(tmp_path_factory.getbasetemp() / "calc-cache"))
    monkeypatch.delenv("WH40K_CALC_FACTIONS", raising=False)
    monkeypatch.delenv("WH40K_CALC_CSV", raising=False)
