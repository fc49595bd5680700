import zipfile

import pytest

from vcfg.catalog.extract import source
from vcfg.errors import VcfgError


def _tree(root, version="1.2.3"):
    (root / "vllm" / "engine").mkdir(parents=True)
    (root / "vllm" / "envs.py").write_text("environment_variables = {}\n")
    (root / "vllm" / "engine" / "arg_utils.py").write_text("")
    (root / "vllm" / "_version.py").write_text(f"__version__ = version = '{version}'\n")
    return root


def test_tree_reads_files_and_version(tmp_path):
    src = source.from_tree(_tree(tmp_path))
    assert src.version == "1.2.3"
    assert src.read("vllm/envs.py").startswith("environment_variables")
    assert src.read("vllm/missing.py") is None
    assert src.py_files("vllm/engine") == ["vllm/engine/arg_utils.py"]


def test_tree_accepts_the_package_folder_itself(tmp_path):
    _tree(tmp_path)
    assert source.from_tree(tmp_path / "vllm").exists("vllm/envs.py")


def test_not_a_vllm_tree(tmp_path):
    with pytest.raises(VcfgError, match="not a vLLM source tree"):
        source.from_tree(tmp_path)


def test_missing_path(tmp_path):
    with pytest.raises(VcfgError, match="no such file"):
        source.from_tree(tmp_path / "nope")


def test_wheel(tmp_path):
    w = tmp_path / "vllm-1.2.3-py3-none-any.whl"
    with zipfile.ZipFile(w, "w") as z:
        z.writestr("vllm/envs.py", "x = 1\n")
        z.writestr("vllm/engine/arg_utils.py", "")
        z.writestr("vllm-1.2.3.dist-info/METADATA", "Name: vllm\n")
    src = source.from_wheel(w)
    assert src.version == "1.2.3" and src.read("vllm/envs.py") == "x = 1\n"
    assert src.py_files("vllm") == ["vllm/engine/arg_utils.py", "vllm/envs.py"]


def test_corrupt_wheel(tmp_path):
    w = tmp_path / "vllm-1.0.0-py3-none-any.whl"
    w.write_bytes(b"PK\x03\x04 this is not a zip")
    with pytest.raises(VcfgError, match="not a readable wheel"):
        source.from_wheel(w)


def test_bad_version_string():
    with pytest.raises(VcfgError, match="not a vLLM release"):
        source.from_version("latest; rm -rf /")


def test_no_network_is_a_clear_error(monkeypatch):
    # an index on a closed local port, no other place to look
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/simple")
    monkeypatch.setenv("PIP_FIND_LINKS", "")
    monkeypatch.setenv("PIP_RETRIES", "0")
    monkeypatch.setenv("PIP_TIMEOUT", "2")
    monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/null")
    with pytest.raises(VcfgError, match="could not download vllm 0.33.0|not a published"):
        source.from_version("0.33.0")


def test_cache_only_lookup_says_where(tmp_path):
    with pytest.raises(VcfgError, match="not in the cache"):
        source.from_version("0.33.0", download=False)


def test_extract_python_keeps_only_vllm_py(tmp_path):
    w = tmp_path / "vllm-1.0.0-cp38-abi3-linux_x86_64.whl"
    with zipfile.ZipFile(w, "w") as z:
        z.writestr("vllm/envs.py", "")
        z.writestr("vllm/engine/arg_utils.py", "")
        z.writestr("vllm/_C.abi3.so", b"\0" * 10)
        z.writestr("vllm-1.0.0.dist-info/METADATA", "Name: vllm\n")
    dest = tmp_path / "out"
    source.extract_python(w, dest)
    assert (dest / "vllm" / "envs.py").exists()
    assert not (dest / "vllm" / "_C.abi3.so").exists()
