"""``calc exchange``: two units, each activation made by the survivors of its unit against the
other unit's current state, both units' states carried as one joint distribution."""
