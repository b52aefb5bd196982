"""Notes that carry what they are about (``wh40k_calc.notes``): a note about one option is an
OptionNote (its option and the words after it), a sequence step's a StepNote (the step and
its own note), each equal to its text; ``calc compare`` names a batch file's field in place
of the option by that structure, never by the note's text (``Job.field_notes``). The texts
expected below are written out by hand."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path
from typing import Any

import msgspec
import pytest

from wh40k_calc.batch import load_batch
from wh40k_calc.catalog import Catalog
from wh40k_calc.compare import jobs_from_batch
from wh40k_calc.compare.jobs import Job, job_outcome
from wh40k_calc.compare.runner import run_jobs
from wh40k_calc.notes import OptionNote, StepNote, options_note


def test_an_option_note_is_its_text_with_its_option_and_detail() -> None:
    note = OptionNote("--weapon", "Deffgun is named 2 times")
    assert note == "--weapon: Deffgun is named 2 times"
    assert str(note) == "--weapon: Deffgun is named 2 times"
    assert (note.option, note.detail) == ("--weapon", "Deffgun is named 2 times")
    assert note.named("attacker.weapons") == "attacker.weapons: Deffgun is named 2 times"
    valued = OptionNote("--precision-target", "bodyguard: no effect", " ")
    assert valued == "--precision-target bodyguard: no effect"
    assert valued.detail == "bodyguard: no effect"
    assert valued.named("precision_target") == "precision_target: bodyguard: no effect"
    assert hash(valued) == hash("--precision-target bodyguard: no effect")  # dedupes as text
    with pytest.raises(AttributeError):
        note.option = "--order"  # type: ignore[misc]


def test_a_step_note_is_its_text_with_its_step_and_own_note() -> None:
    own = OptionNote("--weapon", "x")
    note = StepNote(2, own)
    assert note == "step 2: --weapon: x"
    assert (note.step, note.label) == (2, "2")
    assert note.note is own
    some = StepNote(2, own, "1.2, 3.2")  # only some repeats of step 2 have it
    assert some == "step 1.2, 3.2: --weapon: x" and some.step == 2
    assert some.with_note("plain") == "step 1.2, 3.2: plain"
    with pytest.raises(AttributeError):
        note.step = 3  # type: ignore[misc]


def test_options_note_is_an_option_note_only_for_one_option() -> None:
    one = options_note(["--cover"], "no effect in this phase")
    assert isinstance(one, OptionNote) and one == "--cover: no effect in this phase"
    two = options_note(["--stationary", "--cover"], "no effect in this phase")
    assert type(two) is str and two == "--stationary, --cover: no effect in this phase"


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_notes_pickle_as_themselves(protocol: int) -> None:
    """Batch outcomes cross processes pickled: the type and the structure survive."""
    inner = OptionNote("--precision-target", "bodyguard: no effect", " ")
    notes = [inner, StepNote(3, inner, "1.3"), StepNote(1, "plain")]
    back = pickle.loads(pickle.dumps(notes, protocol=protocol))
    assert back == notes
    assert type(back[0]) is OptionNote
    assert (back[0].option, back[0].detail, back[0].sep) == (
        "--precision-target",
        "bodyguard: no effect",
        " ",
    )
    assert type(back[1]) is StepNote and (back[1].step, back[1].label) == (3, "1.3")
    assert type(back[1].note) is OptionNote and back[1].note.option == "--precision-target"
    assert type(back[2].note) is str
    assert copy.deepcopy(notes) == notes and type(copy.copy(inner)) is OptionNote


def test_notes_encode_as_their_text() -> None:
    notes = [OptionNote("--weapon", "x"), StepNote(2, OptionNote("--order", "y"))]
    assert json.dumps(notes) == '["--weapon: x", "step 2: --order: y"]'
    assert msgspec.json.encode(notes, enc_hook=str) == b'["--weapon: x","step 2: --order: y"]'


def _job(**fields: Any) -> Job:
    """A job with only the fields ``field_notes`` reads (no Selection is needed)."""
    return Job("run", None, **fields)  # type: ignore[arg-type]


def test_only_option_notes_are_named_by_the_field_not_text_that_looks_like_one() -> None:
    """The old renaming read the text: a note merely opening with ``--weapon:`` (a datasheet's
    words, say) was renamed too. Now only an OptionNote is, and a StepNote's own note by its
    step's fields."""
    job = _job(
        option_fields=(("--weapon", "attacker.weapons", None), ("--order", "order", 4)),
        step_weapons=(1,),
        step_fields=((2, "--precision-target", "sequence[1].precision_target"),),
    )
    notes = [
        "--weapon: Deffgun is named 2 times",  # text only
        OptionNote("--weapon", "Deffgun is named 2 times"),
        OptionNote("--order", "best: no effect", " "),
        OptionNote("--cover", "no effect"),  # no field stands for it
        "step 1: --weapon: x",  # text only
        StepNote(1, "--weapon: x"),  # a step's note whose own note is text only
        StepNote(1, OptionNote("--weapon", "x")),
        StepNote(2, OptionNote("--precision-target", "bodyguard: no effect", " ")),
        StepNote(2, OptionNote("--weapon", "x")),  # step 2 names no weapons
        StepNote(2, OptionNote("--precision-target", "bodyguard: no effect", " "), "1.2"),
    ]
    named = job.field_notes({"notes": notes})["notes"]
    assert named == [
        "--weapon: Deffgun is named 2 times",
        "attacker.weapons: Deffgun is named 2 times",
        "order: best: no effect",
        "--cover: no effect",
        "step 1: --weapon: x",
        "step 1: --weapon: x",
        "step 1: attacker.weapons: x",
        "step 2: precision_target: bodyguard: no effect",  # STEP_OPTIONS: the step's own field
        "step 2: --weapon: x",
        "step 1.2: precision_target: bodyguard: no effect",  # some repeats of step 2 only
    ]
    plain = {"notes": ["--weapon: text", StepNote(1, "--weapon: text")]}
    assert job.field_notes(plain) is plain  # nothing renamed: the object as it was


NOTES_BATCH = """\
targets: [boyz, {name: boyz, models: 20}, intercessor-squad, {name: intercessor-squad, models: 10}]
runs:
  - name: twice
    attacker: {name: lootas, weapons: ["Deffgun x2", "Deffgun x2"]}
  - name: once more
    attacker: {name: lootas, weapons: ["Deffgun x1", "Deffgun x3"]}
  - name: and again
    attacker: {name: lootas, weapons: ["Deffgun x3", "Deffgun x1", "Deffgun x1"]}
  - name: in a step
    sequence:
      - {attacker: {name: lootas, weapons: ["Deffgun x1", "Deffgun x1"]}}
"""
# hand-counted: 2 + 2, 1 + 3 and 3 + 1 + 1 Deffguns (the runs' weapons)
NAMED = {
    "twice": "attacker.weapons: Deffgun is named 2 times (Deffgun x2, Deffgun x2): they "
    "count together, Deffgun x4",
    "once more": "attacker.weapons: Deffgun is named 2 times (Deffgun x1, Deffgun x3): they "
    "count together, Deffgun x4",
    "and again": "attacker.weapons: Deffgun is named 3 times (Deffgun x3, Deffgun x1, Deffgun "
    "x1): they count together, Deffgun x5",
    "in a step": "step 1: attacker.weapons: Deffgun is named 2 times (Deffgun x1, Deffgun x1): "
    "they count together, Deffgun x2",
}


def _jobs(tmp_path: Path) -> list:
    path = tmp_path / "notes.yaml"
    path.write_text(NOTES_BATCH, encoding="utf-8")
    return jobs_from_batch(load_batch(path), Catalog([], use_env=False))


def test_an_outcome_pickled_across_processes_still_names_its_fields(tmp_path: Path) -> None:
    """A worker process sends its outcomes pickled; this process names the fields."""
    items = _jobs(tmp_path)
    assert len(items) == 16 and all(isinstance(j, Job) for j in items)
    for job in items:
        obj, _ = job_outcome(job)
        back = pickle.loads(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))
        notes = job.field_notes(back)["notes"]
        assert NAMED[job.run] in notes, notes
        assert not any("--weapon" in n for n in notes), notes


def test_worker_processes_give_the_same_named_notes(tmp_path: Path) -> None:
    """``--jobs 2``: the rows (notes named by their fields) are those of one process."""
    items = _jobs(tmp_path)
    one, errors = run_jobs(items, workers=1)
    two, _ = run_jobs(items, workers=2)
    assert not errors and len(one) == len(two) == 16
    for a, b in zip(one, two, strict=True):
        assert NAMED[a.job.run] in a.result["notes"]
        assert a.result == b.result
