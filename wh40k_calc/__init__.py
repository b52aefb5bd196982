"""wh40k-calc: exact and Monte Carlo mathhammer for Warhammer 40,000."""

__version__ = "0.1.0"
