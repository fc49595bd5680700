"""The metadata is in pyproject.toml; this adds one build step: a wheel (``pip
install .``, ``pip wheel .``) also gets ``vcfg/bytecode.<tag>.bin``, vcfg's compiled
modules in one file, which a cold ``vcfg lint`` imports faster than ~180 ``.pyc``
files (vcfg/bytecode.py, docs/performance.md).  An editable install gets none."""

import importlib.util
import os

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPy(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False) or self.dry_run:
            return
        here = os.path.dirname(os.path.abspath(__file__))
        spec = importlib.util.spec_from_file_location("_vcfg_bytecode", os.path.join(here, "vcfg", "bytecode.py"))
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        package = os.path.join(self.build_lib, "vcfg")
        sources = [p for p in self.get_outputs(include_bytecode=False) if p.endswith(".py")]
        out = mod.build(package, sources)
        self.announce(f"wrote {out} ({len(sources)} modules)", level=2)


setup(cmdclass={"build_py": BuildPy})
