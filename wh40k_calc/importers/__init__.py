"""Importers: datasheets from outside sources (the 10th-edition CSV export)."""
