"""``python -m vcfg.dev COMMAND``; the one command is ``generate``."""

import sys

from vcfg.dev import generate

COMMANDS = {"generate": generate.main}

if __name__ == "__main__":
    argv = sys.argv[1:]
    if not argv or argv[0] not in COMMANDS:
        print(f"usage: python -m vcfg.dev {{{','.join(COMMANDS)}}} [ARGS]", file=sys.stderr)
        sys.exit(2)
    sys.exit(COMMANDS[argv[0]](argv[1:]))
