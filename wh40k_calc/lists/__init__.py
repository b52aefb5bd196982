"""Army lists: the exports of list builders read into one small immutable type
(:mod:`.model`), resolved to our datasheets (:mod:`.resolve`), and resolved against a target,
unit by unit and as the whole army in sequence (:mod:`.army`, for ``calc army`` and ``calc
compare --army``).

One module a format family reads each export from its structure: :mod:`.gwapp` (the official
40K app's text), :mod:`.newrecruit` (New Recruit's WTC compact, WTC full and GW-style text),
:mod:`.nrsimple` (New Recruit's "simple" text), :mod:`.listforge` (ListForge's text),
:mod:`.tree` (BattleScribe-style trees: New Recruit and ListForge JSON, ``.ros``, ``.rosz``)
and :mod:`.rosterizer` (Rosterizer JSON). :mod:`.source` reads the bytes (a file or standard
input, within a size cap) and :mod:`.detect` chooses the reader.
"""
