"""`vcfg lsp`: a language server over stdio for launch scripts, serve-config YAML and
manifests (docs/editors.md).

- `server.py`: the pygls wiring: capabilities, handlers, debounce, and the guard that
  turns any failure into a log line and an empty answer;
- `documents.py`: the open documents: text, positions, the last lint result;
- `settings.py`: client settings, ``[tool.vcfg]`` per folder, the release per workspace
  or file, the cached `Target` of each (catalog + knowledge);
- `diagnostics.py`: lint findings as LSP diagnostics (positions in the client's
  encoding, rule page links);
- `context.py`: what the cursor is on: a flag, a value, a variable, a JSON key or value,
  a YAML key;
- `completion.py`, `hover.py`, `actions.py`: the answers.

Only `server.py` and `diagnostics.py`/`actions.py` (the LSP types) import pygls or
lsprotocol; the lint path never imports this package.
"""

from __future__ import annotations

from typing import Sequence


def run(argv: Sequence[str]) -> int:
    """``vcfg lsp ARGS``: the exit code; a clear message when pygls is missing."""
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError:
        from vcfg.errors import write

        write("vcfg lsp: the language server needs pygls: pip install 'vcfg[lsp]'", err=True)
        return 2
    from vcfg.lsp.server import main

    return main(argv)
