"""`python -m vcfg` is `vcfg`."""

from vcfg.cli import program

program()
