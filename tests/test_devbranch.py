"""Catalogs of vLLM's development branch: a git checkout or a source tarball, with the
commit recorded and named by the lint summary (docs/fidelity.md, "The development
branch")."""

import io
import json
import shutil
import subprocess
import tarfile

import pytest
from click.testing import CliRunner

from vcfg.catalog.extract import devtree, source
from vcfg.catalog.extract.build import build_catalog
from vcfg.cli.commands import main as cli
from vcfg.cli.lint import run as lint
from vcfg.errors import VcfgError

ENVS = """\
import os

environment_variables = {
    "VLLM_HOST_IP": lambda: os.getenv("VLLM_HOST_IP", ""),
    "VLLM_NIGHTLY_ONLY_TIMEOUT": lambda: int(os.getenv("VLLM_NIGHTLY_ONLY_TIMEOUT", "30")),
}
"""

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _tree(root):
    (root / "vllm" / "engine").mkdir(parents=True)
    (root / "vllm" / "envs.py").write_text(ENVS)
    (root / "vllm" / "engine" / "arg_utils.py").write_text("")
    return root


def _git(root, *args):
    return subprocess.run(
        ["git", "-C", str(root), "-c", "user.email=t@example.com", "-c", "user.name=t", *args],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


def _checkout(root, branch="main"):
    _tree(root)
    _git(root, "init", "-q", "-b", branch)
    _git(root, "add", ".")
    _git(root, "commit", "-q", "-m", "nightly")
    return _git(root, "rev-parse", "HEAD")


@needs_git
def test_checkout_records_the_commit_and_branch(tmp_path):
    sha = _checkout(tmp_path / "vllm-src")
    src = source.from_tree(tmp_path / "vllm-src")
    assert (src.commit, src.ref, src.version) == (sha, "main", None)
    cat = build_catalog(src)
    assert cat.commit == sha and cat.ref == "main" and cat.label == f"vLLM main@{sha[:7]}"
    # no version in the tree: after every bundled release, so rules for the newest hold
    assert cat.vllm_version == devtree.dev_version(__import__("vcfg.catalog.store").catalog.store.newest_bundled())
    assert cat.vllm_version.endswith(".0.dev0")
    assert [e.name for e in cat.env_vars] == ["VLLM_HOST_IP", "VLLM_NIGHTLY_ONLY_TIMEOUT"]


@needs_git
def test_packed_ref_detached_head_and_worktree(tmp_path):
    repo = tmp_path / "repo"
    sha = _checkout(repo, branch="dev")
    _git(repo, "pack-refs", "--all")
    assert not (repo / ".git" / "refs" / "heads" / "dev").exists()
    assert devtree.git_head(repo) == (sha, "dev")
    _git(repo, "worktree", "add", "-q", "--detach", str(tmp_path / "wt"), "HEAD")
    assert devtree.git_head(tmp_path / "wt") == (sha, None)  # detached: no branch
    assert devtree.git_head(tmp_path) == (None, None)  # not a checkout


def test_nightly_version_names_its_commit():
    assert devtree.commit_of_version("0.12.0rc2.dev56+g1a2b3c4d") == "1a2b3c4d"
    assert devtree.commit_of_version("0.11.1.dev3+gabcdef0.d20250101") == "abcdef0"
    assert devtree.commit_of_version("0.33.0+cu130") is None
    assert devtree.commit_of_version("0.33.0") is None


def _tarball(path, prefix, files, commit=None):
    with tarfile.open(
        path, "w:gz", format=tarfile.PAX_FORMAT, pax_headers={"comment": commit} if commit else None
    ) as tf:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(prefix + name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return path


def test_github_archive_of_main(tmp_path):
    sha = "0123456789abcdef0123456789abcdef01234567"
    tb = _tarball(
        tmp_path / "main.tar.gz",
        "vllm-main/",
        {"vllm/envs.py": ENVS, "vllm/engine/arg_utils.py": "", "README.md": "x", "tests/vllm/envs.py": "nope = 1\n"},
        commit=sha,
    )
    src = source.open_source(source=str(tb))
    assert (src.commit, src.ref, src.version) == (sha, "main", None)
    assert src.py_files("vllm") == ["vllm/engine/arg_utils.py", "vllm/envs.py"]
    assert src.read("README.md") is None  # only vllm/**.py is read
    assert build_catalog(src).label == "vLLM main@0123456"


def test_sdist_tarball_names_its_version(tmp_path):
    tb = _tarball(
        tmp_path / "vllm-0.33.0.tar.gz",
        "vllm-0.33.0/",
        {
            "PKG-INFO": "Metadata-Version: 2.1\nName: vllm\nVersion: 0.33.0\n",
            "vllm/envs.py": ENVS,
            "vllm/engine/arg_utils.py": "",
        },
    )
    src = source.from_tarball(tb)
    assert (src.version, src.commit, src.ref) == ("0.33.0", None, None)
    cat = build_catalog(src)
    assert cat.vllm_version == "0.33.0" and cat.label is None and cat.commit is None


def test_not_a_vllm_tarball(tmp_path):
    tb = _tarball(tmp_path / "x.tar.gz", "x/", {"setup.py": ""})
    with pytest.raises(VcfgError, match="not a vLLM source tarball"):
        source.from_tarball(tb)
    bad = tmp_path / "broken.tar.gz"
    bad.write_bytes(b"\x1f\x8b not gzip at all")
    with pytest.raises(VcfgError, match="not a readable source tarball"):
        source.from_tarball(bad)


SCRIPT = "export VLLM_NIGHTLY_ONLY_TIMEOUT=abc\nexport VLLM_HOST_IPP=10.0.0.1\nvllm serve\n"


@needs_git
def test_build_then_lint_names_the_commit(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("VCFG_CACHE_DIR", str(tmp_path / "cache"))
    sha = _checkout(tmp_path / "vllm")
    out = tmp_path / "vllm-main.json"
    r = CliRunner().invoke(cli, ["catalog", "build", "--source", str(tmp_path / "vllm"), "-o", str(out)])
    assert r.exit_code == 0, r.output
    err = r.stderr
    assert f"(vLLM main@{sha[:7]})" in err and "names no version" in err
    assert json.loads(out.read_text())["commit"] == sha
    script = tmp_path / "launch.sh"
    script.write_text(SCRIPT)
    rc = lint(["--vllm-version", str(out), "--format", "json", str(script)])
    report = json.loads(capsys.readouterr().out)
    assert rc == 1
    assert f"vLLM main@{sha[:7]}" in report["summary"]["version_note"]
    got = sorted((d["code"], d["line"], d["column"]) for d in report["diagnostics"])
    # the nightly's own variable is parsed (VC102) and a typo of another is found (VC101)
    assert got == [("VC101", 2, 8), ("VC102", 1, 34)]  # VC102 at the value `abc`

    # the same catalog through the cache and --vllm-version, and through the project config
    r = CliRunner().invoke(cli, ["catalog", "build", "--source", str(tmp_path / "vllm")])
    assert r.exit_code == 0 and str(tmp_path / "cache") in r.stderr
    version = json.loads(out.read_text())["vllm_version"]
    lint(["--vllm-version", version, "--format", "concise", str(script)])
    assert f"checked against vllm {version} (vLLM main@{sha[:7]}" in capsys.readouterr().out
    (tmp_path / ".vcfg.toml").write_text('vllm-version = "vllm-main.json"\n')
    monkeypatch.chdir(tmp_path)
    lint(["--format", "concise", "launch.sh"])
    assert f"(vLLM main@{sha[:7]}; from project config)" in capsys.readouterr().out


def test_missing_catalog_file_is_a_clear_error(tmp_path, capsys):
    script = tmp_path / "launch.sh"
    script.write_text("vllm serve m\n")
    assert lint(["--vllm-version", str(tmp_path / "nope.json"), str(script)]) == 2
    assert "no such catalog file" in capsys.readouterr().err


@pytest.mark.slow
def test_real_sdist_tarball_reproduces_the_bundled_catalog():
    """vLLM 0.33.0's source tarball from PyPI (47 MB, read in place, never built) gives
    the catalog bundled from its wheel, fact for fact."""
    from vcfg.catalog import store
    from vcfg.catalog.extract.pypi import download_sdist
    from vcfg.records import dump, replace

    tb = download_sdist("vllm", "0.33.0")
    try:
        src = source.open_source(source=str(tb))
        assert (src.version, src.commit) == ("0.33.0", None)
        cat = build_catalog(src)
    finally:
        shutil.rmtree(tb.parent, ignore_errors=True)
    bundled = store.load_exact("0.33.0")
    assert len(cat.flags) > 300 and len(cat.env_vars) > 300
    assert dump(replace(cat, generated_by="", source="")) == dump(replace(bundled, generated_by="", source=""))
