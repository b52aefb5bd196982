"""Refusals of named weapons give the reason one model cannot carry them together (a
fresh-user trial: "can carry only 1 ... at once" and nothing more): a Sergeant's footnote
(at most one Pistol and one other ranged weapon: the 10th-edition Tactical Squad's Sergeant
choice), or loadouts that each give one of them and none both (edition 11's Boss Nob of
Boyz: big-choppa-kustom-shoota, kombi-weapon-close-combat-weapon and power-klaw, read from
its datasheet file)."""

from __future__ import annotations

from helpers import cli


def _refusal(*args: str) -> str:
    result = cli(*args, "--target", "boyz")
    assert result.exit_code != 0, result.output
    return " ".join(result.stderr.split())


def test_the_one_pistol_footnote_is_named() -> None:
    text = _refusal(
        "shoot", "tactical-squad", "--weapon", "combi-weapon x1", "--weapon", "storm bolter x1"
    )
    assert (
        "can carry only 1 of Combi-weapon and Storm bolter at once (Tactical Sergeant ×1)" in text
    )
    assert text.endswith(
        "(Tactical Sergeant: at most one Pistol and one other ranged weapon, and Combi-weapon "
        "and Storm bolter are both other ranged weapons)"
    )


def test_loadouts_giving_one_weapon_each_are_named() -> None:
    base = ("shoot", "boyz", "--edition", "11", "--weapon")
    text = _refusal(*base, "kustom shoota x1", "--weapon", "power klaw x1")
    assert text.endswith(
        "(Boss Nob: Kustom shoota comes only with loadout big-choppa-kustom-shoota, Power klaw "
        "only with power-klaw; no loadout gives both)"
    )
    text = _refusal(*base, "kombi-weapon x1", "--weapon", "kustom shoota x1")
    assert text.endswith(
        "(Boss Nob: Kombi-weapon comes only with loadout kombi-weapon-close-combat-weapon, "
        "Kustom shoota only with big-choppa-kustom-shoota; no loadout gives both)"
    )
