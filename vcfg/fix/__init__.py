"""Applying fixes (`vcfg.edits`): choosing non-overlapping ones, checking that the file
still holds what was linted, re-linting after each pass (``vcfg lint --fix``,
``--diff``), and the unified diff.  Loaded only when a fix is asked for."""
