"""Army lists: the exports of list builders read into one small immutable type
(:mod:`.model`), resolved to our datasheets (:mod:`.resolve`), and resolved against a target,
unit by unit and as the whole army in sequence (:mod:`.army`, for ``calc army``; :mod:`.jobs`
for ``calc compare --army``).

Reading: :mod:`.source` reads the bytes (a file or standard input, within a size cap) and
:mod:`.detect` chooses the reader; one module a format family reads each export from its
structure, on the shared pieces of :mod:`.text`: :mod:`.gwapp` (the official 40K app's text),
:mod:`.newrecruit` (New Recruit's WTC compact, WTC full and GW-style text), :mod:`.nrsimple`
(New Recruit's "simple" text), :mod:`.listforge` (ListForge's text), :mod:`.tree`
(BattleScribe-style trees: New Recruit and ListForge JSON, ``.ros``, ``.rosz``) and
:mod:`.rosterizer` (Rosterizer JSON); :mod:`.attach` pairs Leaders with their Bodyguards as
the text exports say.

Resolving: :mod:`.factions` (a list's faction as ours), :mod:`.allies` (the factions an army
may take allies from, as data), :mod:`.names` (the name forms lists use), :mod:`.equip` (a
unit equipped as listed), :mod:`.stand_in` (default weapons in the place of listed ones we
lack), :mod:`.bounds` (the most copies of a weapon a model could carry: impossible counts),
:mod:`.effects_for` (detachments and enhancements as effects). Output: :mod:`.render`
(tables), :mod:`.output` (JSON), :mod:`.command` (the typer command).
"""
