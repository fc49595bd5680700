"""Bash and sh scripts: a thin wrapper around the shell front end
(`vcfg.launch.shell`, tree-sitter-bash), which reads a script the way bash runs it."""

from __future__ import annotations

import os
from typing import Optional

from vcfg.launch.model import LaunchPlan
from vcfg.launch.readers import Evidence, ReadContext, Reader, shebang_interpreter

READER = Reader(
    name="bash",
    # SLURM batch scripts are shell scripts with #SBATCH comments
    patterns=("*.sh", "*.bash", "*.zsh", "*.ksh", "*.sbatch", "*.slurm"),
    summary="shell scripts (bash, sh): every vllm serve, proxy and benchmark they start",
    shebang=("bash", "sh", "zsh", "ksh", "dash"),
)


def detect(path: str, text: str, ctx: ReadContext) -> Optional[Evidence]:
    prog = shebang_interpreter(text[:256].encode("utf-8", "surrogateescape"))
    if prog in READER.shebang:
        return Evidence("bash", 1.0, (f"its #! line runs {prog}",))
    suffix = os.path.splitext(path)[1].lower()
    if suffix and f"*{suffix}" in READER.patterns:
        if prog:
            return Evidence("bash", 0.3, (f"the name ends in {suffix}, but its #! line runs {prog}",))
        return Evidence("bash", 0.9, (f"the name ends in {suffix}",))
    return None


def read(path: str, data: bytes, evidence: Evidence, ctx: ReadContext) -> LaunchPlan:
    from vcfg.launch.shell import parse_script

    return parse_script(data, path, reuse=ctx.reuse)
