"""Folder lints read only what a reader claims, honour .gitignore and `exclude`."""

import os
import subprocess

from vcfg.launch.walk import _ignored, gitignore_rules, walk
from vcfg.lint.config import LintConfig, load_config
from vcfg.lint.engine import expand_paths, lint_paths


def _tree(root, files):
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def _rel(root, paths):
    return sorted(os.path.relpath(p, root) for p in paths)


def test_only_what_a_reader_may_take_and_shell_shebangs(tmp_path):
    _tree(
        tmp_path,
        {
            "run.sh": "vllm serve m\n",
            "start": "#!/usr/bin/env bash\nvllm serve m\n",
            "tool": "#!/usr/bin/env python3\nprint(1)\n",
            "LICENSE": "MIT\n",
            "notes.txt": "x\n",
            "k8s/deploy.yaml": "kind: Pod\n",
            "README.md": "# x\n",
            "data.json": "{}\n",
        },
    )
    assert _rel(tmp_path, walk(str(tmp_path))) == ["README.md", "k8s/deploy.yaml", "run.sh", "start"]


def test_gitignore_rules_like_git(tmp_path):
    _tree(
        tmp_path,
        {
            ".gitignore": "build/\n*.log.sh\n/top.sh\n!keep.log.sh\n",
            "build/run.sh": "x\n",
            "a/build/run.sh": "x\n",
            "a.log.sh": "x\n",
            "keep.log.sh": "x\n",
            "top.sh": "x\n",
            "sub/top.sh": "x\n",
            "sub/.gitignore": "local.sh\n",
            "sub/local.sh": "x\n",
            "local.sh": "x\n",
            "ok.sh": "x\n",
        },
    )
    got = _rel(tmp_path, walk(str(tmp_path)))
    assert got == ["keep.log.sh", "local.sh", "ok.sh", "sub/top.sh"]
    # git agrees (when git is there)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    out = subprocess.run(
        ["git", "ls-files", "--others", "--exclude-standard", "*.sh"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert sorted(out) == got
    # walking a subfolder still honours the parents' .gitignore up to the repository
    assert _rel(tmp_path, walk(str(tmp_path / "a"))) == []


def test_gitignore_globs():
    rules = gitignore_rules("**/gen/*.sh\ndocs/**\n[ab].sh\n", "")
    assert _ignored("x/y/gen/a.sh", False, rules) and _ignored("gen/a.sh", False, rules)
    assert _ignored("docs/x/y.sh", False, rules) and not _ignored("mydocs/y.sh", False, rules)
    assert _ignored("q/a.sh", False, rules) and not _ignored("c.sh", False, rules)


def test_exclude_setting(tmp_path):
    _tree(
        tmp_path,
        {
            ".vcfg.toml": 'vllm-version = "0.33.0"\nexclude = ["vendor", "scripts/old-*.sh", "*.md"]\n',
            "vendor/run.sh": "vllm serve m --max-num-seqz 1\n",
            "scripts/old-a.sh": "vllm serve m --max-num-seqz 1\n",
            "scripts/new.sh": "vllm serve m\n",
            "README.md": "```bash\nvllm serve m --max-num-seqz 1\n```\n",
        },
    )
    cfg = load_config(tmp_path)
    assert cfg.exclude == ["vendor", "scripts/old-*.sh", "*.md"]
    assert _rel(tmp_path, expand_paths([str(tmp_path)], cfg)) == ["scripts/new.sh"]
    res = lint_paths([str(tmp_path)], config=cfg)
    assert res.diagnostics == [] and res.summary.files == 1
    # a file named on the command line is read even when excluded
    assert _rel(tmp_path, expand_paths([str(tmp_path / "vendor" / "run.sh")], cfg)) == ["vendor/run.sh"]
    assert expand_paths([str(tmp_path)], LintConfig()) != expand_paths([str(tmp_path)], cfg)
