"""`python -m vcfg` is `vcfg`."""

from vcfg.entry import main

main()
