"""Lets `python -m wh40k_calc` work like `calc`."""

from .cli import main

if __name__ == "__main__":
    main()
