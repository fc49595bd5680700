"""The lint context of one launch, built the way the engine builds it: for tests of
what rules read (`vcfg.lint.options`, the constraint engine)."""

from __future__ import annotations

from typing import Any


def launch_context(tmp_path: Any, text: str, version: str = "0.33.0") -> Any:
    """The `LaunchContext` of the first launch of script ``text`` (written to
    ``tmp_path/run.sh``) against ``version``, its argv resolved."""
    from vcfg.launch.args import parse_invocation
    from vcfg.launch.read import read_plan
    from vcfg.lint.config import LintConfig
    from vcfg.lint.context import FileContext, LaunchContext
    from vcfg.lint.engine import make_target

    p = tmp_path / "run.sh"
    p.write_text(text)
    target = make_target(version, LintConfig())
    plan = read_plan(str(p), text.encode())
    fc = FileContext(str(p), text, plan, target)
    lc = LaunchContext(fc, plan.invocations[0])
    lc.args = parse_invocation(lc.inv, target.catalog, plan)
    return lc
