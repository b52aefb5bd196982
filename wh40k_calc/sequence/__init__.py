"""``calc sequence``: several activations against one target, each resolved from the state the
earlier ones left (:mod:`.steps` parses them, :mod:`.run` resolves them, :mod:`.figures` gives
each step's own figures, :mod:`.output` the JSON, :mod:`.render` the tables, :mod:`.command`
the typer command)."""
