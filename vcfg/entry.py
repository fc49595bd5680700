"""The console script of installs made before the command line moved to ``vcfg/cli/``
(their ``vcfg`` script calls ``vcfg.entry:main``); new installs call ``vcfg.cli:main``."""

from vcfg.cli import main

__all__ = ["main"]
