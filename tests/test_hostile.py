"""Hostile input (#18): each case runs vcfg in a subprocess with a memory limit and a
wall timeout and asserts the documented exit code (0 clean, 1 findings, 2 usage or
error), no "internal error" and no traceback; output cases assert that nothing
from the input steers the output (control characters, workflow commands)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

#: the generators and the way a case is run are shared with benchmarks/bench_hostile.py
from hostile_cases import CASES, CPU_SECONDS, NINES, build, run_vcfg  # noqa: E402,F401  (NINES: test_lsp_hostile)
from hostile_cases import laughs as _laughs  # noqa: E402
from hostile_cases import pods as _pods  # noqa: E402
from hostile_cases import services as _services  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


class Ran:
    """What a test reads of one run: exit code, output, CPU seconds."""

    def __init__(self, r) -> None:  # type: ignore[no-untyped-def]
        self.returncode, self.out, self.err, self.cpu = r.code, r.out, r.err, r.cpu
        self.stdout = r.out.encode("utf-8")


def vcfg(*args: str, cwd: Path, timeout: float = CPU_SECONDS, stdin: bytes = b"") -> Ran:
    """Run ``python -m vcfg ARGS`` under 500 MB of address space; fail on more than
    ``timeout`` CPU seconds (the child's own, from os.wait4: wall time on the loaded
    machine says little; a hang is killed after ten times as many wall seconds), a
    traceback or an internal error."""
    r = run_vcfg(list(args), cwd, timeout=max(120.0, 10 * timeout), stdin=stdin)
    if r.code == -9:
        pytest.fail(f"vcfg {' '.join(args)} did not finish in {max(120.0, 10 * timeout)} s")
    err, out = r.err, r.out
    assert "Traceback" not in err and "Traceback" not in out, err[-3000:]
    assert "internal error" not in err, err[-3000:]
    assert "MemoryError" not in err, err[-3000:]
    assert r.code in (0, 1, 2), (r.code, err[-3000:])
    assert r.cpu < timeout, f"vcfg {' '.join(args)}: {r.cpu:.2f} CPU seconds (bound {timeout})"
    return Ran(r)


# ------------------------------------------------------------------ output the input cannot steer

#: a JSON value in a script carries a workflow command, an ANSI escape, CR, bidi override
EVIL = "x\\n::error file=evil.py,line=1::owned\\r\\u001b[31mRED\\u202e"
EVIL_SCRIPT = (
    "#!/bin/bash\n"
    "vllm serve meta-llama/Llama-3.1-8B-Instruct \\\n"
    f'  --kv-transfer-config \'{{"kv_connector":"{EVIL}","kv_role":"kv_both"}}\' \\\n'
    "  --tensor-parallel-sise 2\n"
)


def _evil_tree(tmp_path: Path) -> Path:
    d = tmp_path / "dir with space é"
    d.mkdir()
    (d / "serve.sh").write_text(EVIL_SCRIPT)
    # a file name with a control character and a newline
    (d / "ev\x1bil\nname.sh").write_text(EVIL_SCRIPT)
    return d


@pytest.mark.parametrize("fmt", ["full", "concise", "github", "json", "sarif"])
def test_no_control_characters_reach_any_format(tmp_path: Path, fmt: str) -> None:
    d = _evil_tree(tmp_path)
    p = vcfg("lint", "--format", fmt, ".", cwd=d)
    assert p.returncode == 1, p.out
    raw = p.stdout.decode("utf-8")
    bad = [c for c in raw if (ord(c) < 32 and c != "\n") or 0x7F <= ord(c) < 0xA0 or c in "\u202e\u2028\u2029"]
    assert bad == [], (fmt, sorted(set(bad)))
    if fmt in ("json", "sarif"):
        json.loads(raw)
    if fmt == "github":
        # each line is one workflow command (or the summary); none from the input
        lines = raw.splitlines()
        commands = [ln for ln in lines if ln.startswith("::")]
        assert len(commands) == len(lines) - 1
        assert not any(ln.startswith("::error file=evil.py") for ln in lines)
        for ln in commands:
            props = ln.split(" ", 1)[1].split("::", 1)[0]
            # the properties are exactly the six vcfg writes: no forged ones
            assert [kv.split("=", 1)[0] for kv in props.split(",")] == [
                "file",
                "line",
                "col",
                "endLine",
                "endColumn",
                "title",
            ]
    if fmt == "concise":
        lines = raw.splitlines()
        # every finding line starts with a path of the tree: a newline in a message
        # or a file name cannot start a line of its own
        assert all(ln.startswith(("./", "serve.sh", "ev")) for ln in lines[:-1]), lines


def test_sarif_uris_are_percent_encoded(tmp_path: Path) -> None:
    d = _evil_tree(tmp_path)
    p = vcfg("lint", "--format", "sarif", f"{d.name}/serve.sh", f"{d.name}/ev\x1bil\nname.sh", cwd=tmp_path)
    doc = json.loads(p.stdout)
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in doc["runs"][0]["results"]]
    assert uris, doc
    assert "dir%20with%20space%20%C3%A9/serve.sh" in uris, uris
    assert "dir%20with%20space%20%C3%A9/ev%1Bil%0Aname.sh" in uris, uris
    for u in uris:
        assert " " not in u and all(ord(c) < 128 for c in u), u


def test_github_escapes_percent_and_property_separators(tmp_path: Path) -> None:
    d = tmp_path / "a,b:c%d"
    d.mkdir()
    (d / "serve.sh").write_text("vllm serve m --tensor-parallel-sise 2\n")
    p = vcfg("lint", "--format", "github", "serve.sh", cwd=d)
    line = p.out.splitlines()[0]
    assert "file=serve.sh," in line
    p = vcfg("lint", "--format", "github", str(d / "serve.sh"), cwd=tmp_path)
    line = p.out.splitlines()[0]
    assert "a%2Cb%3Ac%25d" in line, line


def test_launch_show_json_never_writes_nan(tmp_path: Path) -> None:
    (tmp_path / "serve.sh").write_text(
        "vllm serve m --gpu-memory-utilization nan --max-model-len 4096 --kv-cache-memory-bytes inf"
        " --swap-space 1e999\n"
    )
    p = vcfg("launch", "show", "--format", "json", "serve.sh", cwd=tmp_path)
    assert p.returncode == 0, p.err
    json.loads(p.stdout, parse_constant=lambda c: pytest.fail(f"{c} in JSON"))
    p = vcfg("lint", "--format", "json", "serve.sh", cwd=tmp_path)
    json.loads(p.stdout, parse_constant=lambda c: pytest.fail(f"{c} in JSON"))


# ------------------------------------------------------------------ regular files only


def _special(tmp_path: Path) -> dict[str, Path]:
    fifo = tmp_path / "fifo.sh"
    os.mkfifo(fifo)
    link = tmp_path / "zero.sh"
    link.symlink_to("/dev/zero")
    sock = tmp_path / "sock.sh"
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(sock))
    return {"fifo": fifo, "zero-link": link, "socket": sock, "dev-zero": Path("/dev/zero")}


@pytest.mark.parametrize("kind", ["fifo", "zero-link", "socket", "dev-zero"])
def test_lint_refuses_what_is_not_a_regular_file(tmp_path: Path, kind: str) -> None:
    path = _special(tmp_path)[kind]
    p = vcfg("lint", str(path), cwd=tmp_path)
    assert p.returncode == 2, (p.out, p.err)
    assert "not a regular file" in p.err, p.err


def test_config_file_naming_a_fifo_is_not_opened(tmp_path: Path) -> None:
    _special(tmp_path)
    os.mkfifo(tmp_path / "fifo.yaml")
    (tmp_path / "serve.sh").write_text("vllm serve m --config fifo.yaml\n")
    p = vcfg("lint", "--format", "concise", "serve.sh", cwd=tmp_path)
    assert "not a regular file" in p.out, p.out


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_lint_config_option_naming_a_fifo(tmp_path: Path, kind: str) -> None:
    path = _special(tmp_path)[kind]
    (tmp_path / "serve.sh").write_text("vllm serve m\n")
    p = vcfg("lint", "--config", str(path), "serve.sh", cwd=tmp_path)
    assert p.returncode == 2 and "not a regular file" in p.err, p.err


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_bench_analyze_refuses_devices(tmp_path: Path, kind: str) -> None:
    path = _special(tmp_path)[kind]
    p = vcfg("bench", "analyze", str(path), cwd=tmp_path)
    assert p.returncode == 2 and "not a regular file" in p.err, p.err


def test_launch_show_refuses_dev_zero(tmp_path: Path) -> None:
    p = vcfg("launch", "show", "/dev/zero", cwd=tmp_path)
    assert p.returncode == 2 and "not a regular file" in p.err, p.err


def test_bench_input_over_the_size_cap(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with open(big, "wb") as fh:
        fh.truncate(21 * 1024 * 1024)
    p = vcfg("bench", "analyze", str(big), cwd=tmp_path)
    assert p.returncode == 2 and "MiB" in p.err, p.err


def test_knowledge_root_is_a_bounded_walk(tmp_path: Path) -> None:
    (tmp_path / ".vcfg.toml").write_text('knowledge = ["/"]\n')
    (tmp_path / "serve.sh").write_text("vllm serve m\n")
    p = vcfg("lint", "serve.sh", cwd=tmp_path)
    assert p.returncode == 2 and "knowledge" in p.err, p.err


def test_array_of_tables_config_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[[tool.vcfg]]\nselect = ["VC1"]\n')
    (tmp_path / "serve.sh").write_text("vllm serve m\n")
    p = vcfg("lint", "serve.sh", cwd=tmp_path)
    assert p.returncode == 2 and "must be a table" in p.err, p.err


def test_deeply_nested_toml_config(tmp_path: Path) -> None:
    (tmp_path / ".vcfg.toml").write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n")
    (tmp_path / "serve.sh").write_text("vllm serve m\n")
    p = vcfg("lint", "serve.sh", cwd=tmp_path)
    assert p.returncode == 2 and "TOML" in p.err, p.err


# ------------------------------------------------------------------ bounded numbers


@pytest.mark.parametrize(
    "script",
    [
        f"vllm serve m --tensor-parallel-size {NINES}\n",
        "vllm serve m --tensor-parallel-size " + "9" * 40 + "\n",
        f"vllm serve m --max-num-batched-tokens {NINES}k --gpu-memory-utilization {NINES}.5\n",
        'vllm serve m --kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"kv_both",'
        f'"kv_port":{NINES}}}\'\n',
    ],
    ids=["flag-int", "tp-40-digits", "hri-and-float", "json-int"],
)
def test_long_numbers_are_refused_not_converted(tmp_path: Path, script: str) -> None:
    (tmp_path / "serve.sh").write_text(script)
    p = vcfg("lint", "--format", "concise", "serve.sh", cwd=tmp_path)
    if "40" not in script[:60] and len(script) > 1000:
        assert "more than 100 digits" in p.out, p.out[:2000]
        # the message quotes a short piece of the value, not all of it
        assert max(len(line) for line in p.out.splitlines()) < 1000


def test_bench_json_with_a_huge_integer(tmp_path: Path) -> None:
    (tmp_path / "r.json").write_text('{"completed": ' + "9" * 5000 + ', "duration": 1e999}')
    p = vcfg("bench", "analyze", "r.json", cwd=tmp_path)
    assert p.returncode == 2 and "more than 100 digits" in p.err, p.err


@pytest.mark.parametrize("value", ['"1e999 GiB"', '"' + "9" * 5000 + ' GiB"', "9" * 5000])
def test_odd_gpu_memory_values(tmp_path: Path, value: str) -> None:
    (tmp_path / ".vcfg.toml").write_text(f"gpu-memory = {value}\n")
    (tmp_path / "serve.sh").write_text("vllm serve m\n")
    p = vcfg("lint", "serve.sh", cwd=tmp_path)
    assert p.returncode == 2 and ".vcfg.toml" in p.err, p.err


def test_version_with_many_digits(tmp_path: Path) -> None:
    (tmp_path / "serve.sh").write_text("vllm serve m\n")
    p = vcfg("lint", "--vllm-version", "0." + "9" * 5000 + ".1", "serve.sh", cwd=tmp_path)
    assert p.returncode == 2 and "release" in p.err and len(p.err) < 500, p.err


def test_yaml_integer_of_thousands_of_digits(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text("model: m\nmax_model_len: " + "9" * 5000 + "\n")
    (tmp_path / "serve.sh").write_text("vllm serve --config config.yaml\n")
    p = vcfg("lint", "--format", "concise", "serve.sh", cwd=tmp_path)
    assert p.returncode == 1 and "config.yaml:2:" in p.out, p.out


# ------------------------------------------------------------------ YAML aliases and tags


def test_billion_laughs_as_a_launch_config(tmp_path: Path) -> None:
    (tmp_path / "lol.yaml").write_text("model: m\n" + _laughs())
    (tmp_path / "serve.sh").write_text("vllm serve --config lol.yaml\n")
    p = vcfg("lint", "--format", "concise", "serve.sh", cwd=tmp_path)
    assert p.returncode == 1 and "lol.yaml:3:" in p.out and "aliases expand" in p.out, p.out


def test_billion_laughs_as_a_serve_config_and_a_manifest(tmp_path: Path) -> None:
    laughs = _laughs().replace("\n", "\n  ")
    (tmp_path / "serve-config.yaml").write_text("model: m\nmax_model_len: 4096\nhf_overrides:\n  " + laughs + "\n")
    (tmp_path / "deploy.yaml").write_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\n  labels:\n    "
        + _laughs().replace("\n", "\n    ")
        + "\nspec:\n  template:\n    spec:\n      containers:\n      - name: v\n        image: vllm/vllm-openai\n"
        '        args: ["--model", "m"]\n'
    )
    for name, where in (("serve-config.yaml", ":5:10:"), ("deploy.yaml", ":7:12:")):
        p = vcfg("lint", "--format", "concise", name, cwd=tmp_path)
        assert p.returncode == 1 and f"{name}{where} VC000" in p.out and "aliases expand" in p.out, p.out
        p = vcfg("launch", "show", name, cwd=tmp_path)
        assert "aliases expand" in p.out, p.out
    p = vcfg("lint", "--format", "concise", ".", cwd=tmp_path)
    assert p.out.count("aliases expand") == 2, p.out


def test_recursive_alias(tmp_path: Path) -> None:
    (tmp_path / "cfg.yaml").write_text("model: m\nhf_overrides: &a\n  x: *a\n")
    (tmp_path / "serve.sh").write_text("vllm serve --config cfg.yaml\n")
    p = vcfg("lint", "--format", "concise", "serve.sh", cwd=tmp_path)
    assert p.returncode == 1 and "cfg.yaml:3:" in p.out, p.out


def test_unsafe_yaml_tag_in_a_config(tmp_path: Path) -> None:
    (tmp_path / "tags.yaml").write_text("model: !!python/object:os.system m\nmax_model_len: !custom 4096\n")
    (tmp_path / "serve.sh").write_text("vllm serve --config tags.yaml\n")
    p = vcfg("lint", "--format", "concise", "serve.sh", cwd=tmp_path)
    assert p.returncode == 1 and "tags.yaml:1:8:" in p.out and "python/object" in p.out, p.out


# ------------------------------------------------------------------ bounded work per file

#: The biggest of these inputs (each 1-4 s of CPU on this machine, a few hundred times the
#: work of a real file) run in the slow stage of .ci/run; the default suite keeps one
#: smaller case of each kind (10,000 and 2,000 launches; pods, services).
BIG = pytest.mark.slow


def _timed_lint(tmp_path: Path, name: str, text: str, limit: float = CPU_SECONDS) -> Ran:
    (tmp_path / name).write_text(text)
    p = vcfg("lint", "--format", "concise", name, cwd=tmp_path, timeout=limit)
    return p


@BIG
def test_nested_loops_are_not_unrolled_past_the_budget(tmp_path: Path) -> None:
    xs = " ".join(str(i) for i in range(64))
    p = _timed_lint(
        tmp_path,
        "loops.sh",
        f"for a in {xs}; do\n for b in {xs}; do\n  for c in {xs}; do\n"
        "   P=$((8000 + c))\n  done\n done\ndone\nvllm serve m --port $P\n",
    )
    assert "VC000 [info] this loop is read once" in p.out, p.out[-2000:]
    # a launch in the innermost body: reading stops at the 500th launch instead
    p = _timed_lint(
        tmp_path,
        "loops2.sh",
        f"for a in {xs}; do\n for b in {xs}; do\n  for c in {xs}; do\n"
        "   vllm serve m --port $((8000 + c))\n  done\n done\ndone\n",
    )
    assert "loops2.sh:4:4: VC000 [info] more than 500 launches in this script" in p.out, p.out[-2000:]


def test_ten_thousand_launches(tmp_path: Path) -> None:
    p = _timed_lint(tmp_path, "many.sh", "".join(f"vllm serve m --port {8000 + i} &\n" for i in range(10_000)))
    assert "many.sh:501:1: VC000 [info] more than 500 launches" in p.out, p.out[-2000:]
    # messages do not grow with the number of launches
    assert max(len(line) for line in p.out.splitlines()) < 1000


@BIG
def test_many_launches_on_distinct_ports_lint_fast(tmp_path: Path) -> None:
    p = _timed_lint(
        tmp_path,
        "two.sh",
        "".join(f"CUDA_VISIBLE_DEVICES={i} vllm serve m --port {8000 + i} &\n" for i in range(500)),
        limit=6,
    )
    assert "VC302" not in p.out and "VC306" not in p.out, p.out[-2000:]


@BIG
def test_twenty_thousand_own_line_suppressions(tmp_path: Path) -> None:
    p = _timed_lint(
        tmp_path,
        "supp.sh",
        "vllm serve m --port 1 &\n" + "# vcfg: disable=VC302\n" * 20_000 + "vllm serve m --port 1 &\n",
    )
    # the VC302 on the second launch is suppressed (by each of the comments: none unused)
    assert "VC302" not in p.out and "VC306" in p.out and "warning" not in p.out, p.out[-2000:]


def test_nul_bytes_after_a_launch(tmp_path: Path) -> None:
    (tmp_path / "nul.sh").write_bytes(b"vllm serve m --tensor-parallel-sise 2\n" + b"\0" * 30_000)
    p = vcfg("lint", "--format", "concise", "nul.sh", cwd=tmp_path, timeout=6)
    assert "nul.sh:2:1: VC000" in p.out and "VC001" in p.out, p.out


# ------------------------------------------------------------------ file policy


def test_catalog_build_says_so_before_downloading(tmp_path: Path, monkeypatch, capsys) -> None:
    from vcfg.catalog.extract import source
    from vcfg.errors import VcfgError

    monkeypatch.setattr(source, "cache_dir", lambda: tmp_path)

    def no_network(version: str) -> Path:
        raise VcfgError("no network in this test")

    monkeypatch.setattr(source, "download_wheel", no_network)
    with pytest.raises(VcfgError):
        source.from_version("0.33.0")
    assert "downloading the vllm 0.33.0 wheel" in capsys.readouterr().err


def test_model_config_json_that_is_a_fifo(tmp_path: Path) -> None:
    model = tmp_path / "models" / "m"
    model.mkdir(parents=True)
    os.mkfifo(model / "config.json")
    (tmp_path / "serve.sh").write_text(f"vllm serve {model}\n")
    p = vcfg("lint", "--format", "concise", "serve.sh", cwd=tmp_path)
    assert p.returncode in (0, 1), p.err
    p = vcfg("plan", "--model", str(model), "--gpus", "8", cwd=tmp_path)
    assert p.returncode == 2 and "not a regular file" in p.err, p.err


# ------------------------------------------------------------------ clear findings


def test_bom_is_reported_and_the_launch_still_seen(tmp_path: Path) -> None:
    (tmp_path / "bom.sh").write_bytes(b"\xef\xbb\xbfvllm serve m --tensor-parallel-sise 2\n")
    p = vcfg("lint", "--format", "concise", "bom.sh", cwd=tmp_path)
    assert "bom.sh:1:1: VC000 [error] the file starts with a UTF-8 byte-order mark" in p.out, p.out
    assert "bom.sh:1:15: VC001" in p.out and "1 vLLM launch" in p.out, p.out


def test_en_dash_says_the_ascii_it_stands_for(tmp_path: Path) -> None:
    (tmp_path / "dash.sh").write_text("vllm serve m \u2013tensor-parallel-size 2\n")
    p = vcfg("lint", "--format", "concise", "dash.sh", cwd=tmp_path)
    assert "dash.sh:1:14: VC001" in p.out and "an en dash (U+2013) where `--` is meant" in p.out, p.out
    assert "`--tensor-parallel-size`" in p.out, p.out


# ------------------------------------------------------------------ many launches sharing a port or GPU


SHARED = {
    "sh-2000": ("same.sh", "".join("CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8000 &\n" for _ in range(2000))),
    "sh-10000": ("same.sh", "".join("CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8000 &\n" for _ in range(10_000))),
    # each launch in its own `if`: the branches of every pair were scanned (cubic: 86 s)
    "sh-ifs": (
        "ifs.sh",
        "".join(
            f'if [ "$X" = {i} ]; then\n  CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8000 &\nfi\n' for i in range(2000)
        ),
    ),
    # a `wait` after each: the stops between every pair were scanned
    "sh-waits": ("waits.sh", "".join("CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8000 &\nwait\n" for _ in range(2000))),
    "k8s-2000": ("pods.yaml", _pods(2000)),
    "compose-2000": ("docker-compose.yaml", _services(2000, ports=True)),
}


@pytest.mark.parametrize(
    "case", [pytest.param(c, marks=BIG) if c in ("sh-10000", "sh-ifs", "sh-waits") else c for c in SHARED]
)
def test_many_launches_sharing_one_port_and_gpu(tmp_path: Path, case: str) -> None:
    name, text = SHARED[case]
    p = _timed_lint(tmp_path, name, text)
    # findings (exit 1) where launches of one machine run at once, else the note only
    assert p.returncode == (1 if name in ("same.sh", "ifs.sh") else 0), p.err
    assert "VC000 [info] more than 500 launches in this " in p.out, p.out[-2000:]
    assert "500 vLLM launches" in p.out, p.out[-500:]
    if name.endswith(".sh") and "waits" not in name:
        # every launch after the first is told of the port and the GPU it shares
        assert p.out.count("VC302") == 499 and p.out.count("VC306") == 499, p.out[-2000:]
    assert max(len(line) for line in p.out.splitlines()) < 1000


# ------------------------------------------------------------------ YAML characters


@pytest.mark.parametrize(
    "bad, what", [(b"\xff", "not valid UTF-8 here (byte 0xFF)"), (b"\x07", "control character U+0007")]
)
def test_bad_characters_in_yaml_are_reported_at_their_place(tmp_path: Path, bad: bytes, what: str) -> None:
    (tmp_path / "cfg.yaml").write_bytes(b"model: m\nmax_model_len: 4096\nserved_model_name: \xc3\xa9x" + bad + b"y\n")
    (tmp_path / "serve.sh").write_text("vllm serve --config cfg.yaml\n")
    p = vcfg("lint", "--format", "concise", "serve.sh", cwd=tmp_path)
    # the --config file of a launch: VC004 at the character (columns in characters)
    assert p.returncode == 1 and "cfg.yaml:3:22: VC004 [error] invalid YAML: " in p.out and what in p.out, p.out
    (tmp_path / "pod.yaml").write_bytes(
        b"apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: v\n    image: vllm/vllm-openai\n"
        b'    args: ["m", "--port", "80' + bad + b'00"]\n'
    )
    p = vcfg("lint", "--format", "concise", "pod.yaml", cwd=tmp_path)
    assert p.returncode == 1 and "pod.yaml:7:30: VC000" in p.out and what in p.out, p.out


# ------------------------------------------------------------------ bash the parser cannot recover from


@pytest.mark.parametrize(
    "run",
    [b")" * 30_000, b"a)" * 15_000, b">|" * 15_000, b"\0" * 100 + b")" * 30_000],
    ids=["parens", "word-paren", "redirect-pipe", "nul-then-parens"],
)
def test_runs_tree_sitter_cannot_recover_from_are_bounded(tmp_path: Path, run: bytes) -> None:
    (tmp_path / "run.sh").write_bytes(b"vllm serve m --tensor-parallel-sise 2\n" + run + b"\nvllm serve x\n")
    p = vcfg("lint", "--format", "concise", "run.sh", cwd=tmp_path, timeout=6)
    assert p.returncode == 1, p.err
    if run.startswith(b"\0"):  # nothing after a NUL is read: the file is binary
        assert (
            "run.sh:2:1: VC000 [error] NUL byte: this looks like a binary file; vcfg does not read past it" in p.out
        ), p.out[:3000]
    else:
        assert "run.sh:2:1: VC000 [error] bash cannot parse the text from here on" in p.out, p.out[:3000]
    assert "run.sh:1:14: VC001" in p.out, p.out[:3000]  # the launch before it is still read
    assert max(len(line) for line in p.out.splitlines()) < 1000


STRAY = {
    "fi": "vllm serve m --port 8000\nfi\n",
    "done": "for i in 1 2; do\n  echo $i\ndone\ndone\n",
    "brace": "start() {\n  vllm serve m\n}\n}\nstart\n",
    "esac": "case $1 in\n  a) echo a ;;\nesac\nesac\n",
    "then": "echo a; then\n",
}
STRAY_AT = {"fi": (2, 1), "done": (4, 1), "brace": (4, 1), "esac": (4, 1), "then": (1, 9)}


@pytest.mark.parametrize("case", list(STRAY))
def test_a_stray_reserved_word_is_a_syntax_error(tmp_path: Path, case: str) -> None:
    (tmp_path / "s.sh").write_text(STRAY[case])
    p = vcfg("lint", "--format", "concise", "s.sh", cwd=tmp_path)
    line, col = STRAY_AT[case]
    word = {"brace": "}"}.get(case, case)
    assert (
        p.returncode == 1
        and f"s.sh:{line}:{col}: VC000 [error] bash stops here with a syntax error (unexpected token `{word}`)" in p.out
    ), p.out
    if shutil.which("bash"):  # bash agrees, at that line
        r = subprocess.run(["bash", "-n", str(tmp_path / "s.sh")], capture_output=True, text=True)
        assert r.returncode != 0 and f"line {line}: syntax error near unexpected token `{word}'" in r.stderr, r.stderr


def test_reserved_words_where_bash_accepts_them(tmp_path: Path) -> None:
    (tmp_path / "ok.sh").write_text(
        'echo fi done } esac\nA=1 fi_not\n"fi" 2>/dev/null || true\nx() { echo; }\n{ echo a; }\n'
        "for i in 1; do echo; done\ncase $x in\n  a) echo ;;\nesac\nif true; then echo; else echo; fi\n"
        "[[ -n $x ]] && echo\nvllm serve m\n"
    )
    p = vcfg("lint", "--format", "concise", "ok.sh", cwd=tmp_path)
    assert p.returncode == 0 and "VC000" not in p.out, p.out


# ------------------------------------------------------------------ reads beyond the project


def test_a_config_outside_the_repository_is_not_followed(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "scripts").mkdir()
    (tmp_path / "outside").mkdir()
    os.mkfifo(tmp_path / "outside" / "fifo.yaml")  # followed, the read would block
    (tmp_path / "outside" / "x.yaml").write_text("model: m\nmax_model_len: 4096\n")
    (repo / "in.yaml").write_text("model: m\ntensor_parallel_sise: 2\n")
    (repo / "scripts" / "s.sh").write_text(
        "vllm serve --config ../../outside/x.yaml\nvllm serve --config ../in.yaml\n"
        f"vllm serve --config {tmp_path}/outside/fifo.yaml\nvllm serve --config /etc/passwd.yaml\n"
    )
    p = vcfg("lint", "--format", "concise", "scripts/s.sh", cwd=repo)
    assert p.returncode == 1, p.err
    out = p.out
    root = os.path.realpath(repo)
    assert (
        f"scripts/s.sh:1:21: VC004 [warning] config file '../../outside/x.yaml' is outside the repository ({root})"
        in out
    ), out
    assert "scripts/s.sh:3:21: VC004 [warning]" in out and "scripts/s.sh:4:21: VC004 [warning]" in out, out
    assert "in.yaml:2:1: VC001" in out, out  # inside the repository: read


# ------------------------------------------------------------------ positions and look-alikes


def test_nbsp_glued_into_a_launch_says_the_ascii_it_stands_for(tmp_path: Path) -> None:
    (tmp_path / "a.sh").write_text("vllm serve\u00a0meta-llama/Llama-3.1-8B --port 8000\n")
    (tmp_path / "b.sh").write_text("vllm serve m\u00a0--port 8000\n")
    p = vcfg("lint", "--format", "concise", "a.sh", "b.sh", cwd=tmp_path)
    assert (
        "a.sh:1:6: VC013 [error] unknown subcommand `serve\u00a0meta-llama/Llama-3.1-8B` (it holds a no-break "
        "space (U+00A0) where ` ` is meant: `serve meta-llama/Llama-3.1-8B`)" in p.out
    ), p.out
    assert (
        "b.sh:1:21: VC001 [error] unrecognized argument '8000'; the model word before it is one word (it holds "
        "a no-break space (U+00A0) where ` ` is meant: `m --port`)" in p.out
    ), p.out


def test_cr_only_line_endings(tmp_path: Path) -> None:
    (tmp_path / "cr.sh").write_bytes(b"#!/bin/bash\rvllm serve m --tensor-parallel-sise 2\r")
    (tmp_path / "pod.yaml").write_bytes(
        b"apiVersion: v1\rkind: Pod\rspec:\r  containers:\r  - name: v\r    image: vllm/vllm-openai:v0.10.2\r"
        b'    args: ["m", "--tensor-parallel-sise", "2"]\r'
    )
    p = vcfg("lint", "--format", "concise", "cr.sh", "pod.yaml", cwd=tmp_path)
    # bash reads the CR-only script as one comment line: said, at the first CR
    assert (
        "cr.sh:1:12: VC000 [error] carriage returns end these lines (old Mac line endings), but not for bash" in p.out
    ), p.out
    # YAML ends lines at a CR, and so do editors: the finding is on line 7
    assert "pod.yaml:7:18: VC001" in p.out, p.out
    p = vcfg("lint", "pod.yaml", cwd=tmp_path)
    assert '7 |     args: ["m", "--tensor-parallel-sise", "2"]' in p.out, p.out


def test_form_feed_does_not_end_the_line_shown(tmp_path: Path) -> None:
    (tmp_path / "ff.sh").write_bytes(b"# page\x0cbreak\nvllm serve m \x0c --tensor-parallel-sise 2\n")
    p = vcfg("lint", "ff.sh", cwd=tmp_path)
    assert "--> ff.sh:2:16" in p.out and "2 | vllm serve m" in p.out, p.out


# ------------------------------------------------------------------ YAML documents composed as read


def test_yaml_documents_are_composed_only_as_far_as_read(monkeypatch) -> None:
    from vcfg.launch.readers import _yaml

    text = "---\n".join(f"a: {i}\n" for i in range(100)) + "---\nb: [\n"  # an error in the last
    docs = _yaml.Documents("x.yaml", text)
    assert docs.single() is None and len(docs._nodes) == 2 and docs.error is None
    values = [d.value[0][1].value for d in docs.stream()]
    assert values == [str(i) for i in range(100)] and len(docs._nodes) == 2  # streamed, not kept
    assert docs.error is not None and docs.error[1] == text.index("b: [") + 5  # met at the end
    # asked again after the stream: composed again from the start, in order
    assert [d.value[0][1].value for d in docs.head(50)] == [str(i) for i in range(50)]
    assert docs.error is None and docs.complete().error is not None and len(docs._nodes) == 100
    # the character cap: the document after it is not composed, and where is said
    monkeypatch.setattr(_yaml, "MAX_CHARS", 40)
    docs = _yaml.Documents("y.yaml", text)
    kept = list(docs.stream())
    assert kept[-2].end_mark.index <= 40 < kept[-1].end_mark.index and len(kept) == 5
    assert docs.stopped == kept[-1].end_mark.index == _yaml.STOPPED["y.yaml"]


# ------------------------------------------------------------------ the cases over the bounds until session 5

#: case of tests/hostile_cases.py -> (exit code, a line the report holds: where reading stopped)
BOUNDED = {
    "10,000 pods on one port (k8s)": (0, "pods.yaml:5009:5: VC000 [info] more than 500 launches in this file"),
    "100,000 launches": (1, "m.sh:501:1: VC000 [info] more than 500 launches in this script"),
    "100,000 commands, no launch": (0, "e.sh:50001:1: VC000 [info] more than 50,000 commands run in this script"),
}
#: the same for files near the 20 MiB cap (writing them is most of the test's time)
BOUNDED_BIG = {
    "20 MiB of bash launches": (1, "big.sh:501:1: VC000 [info] more than 500 launches in this script"),
    "20 MiB of Kubernetes pods (1 port)": (0, "pods.yaml:5009:5: VC000 [info] more than 500 launches in this file"),
    "20 MiB of ConfigMaps (no launch)": (
        0,
        "cm.yaml:200792:1: VC000 [info] only the YAML documents in the first 2 MiB of this file are read",
    ),
    "20 MiB of launches in one function": (
        0,
        "fn.sh:1:1: VC000 [info] a command of more than 2 MiB starts here (a function or block",
    ),
    "20 MiB of launches on one line": (1, "line.sh:1:13501: VC000 [info] more than 500 launches in this script"),
    # a MemoryError under the 500 MB address-space limit until the Go-template check stopped
    # lowering a copy of the whole text
    "20 MiB /dev/urandom as YAML": (0, "no problems in 1 file, 0 vLLM launches"),
}


def _bounded_case(tmp_path: Path, name: str, code: int, line: str) -> None:
    cwd = build(name, tmp_path)
    p = vcfg(*CASES[name][1], cwd=cwd)  # within 5 CPU seconds and 500 MB, no traceback
    assert p.returncode == code, (p.returncode, p.out[-2000:])
    assert line in p.out, p.out[-2000:]
    assert max(len(ln) for ln in p.out.splitlines()) < 1000


@pytest.mark.parametrize("name", [pytest.param(n, marks=BIG) for n in BOUNDED])
def test_many_launches_and_commands_are_bounded(tmp_path: Path, name: str) -> None:
    _bounded_case(tmp_path, name, *BOUNDED[name])


@pytest.mark.slow
@pytest.mark.parametrize("name", list(BOUNDED_BIG))
def test_files_near_the_size_cap_are_bounded(tmp_path: Path, name: str) -> None:
    _bounded_case(tmp_path, name, *BOUNDED_BIG[name])
    size = sum(f.stat().st_size for f in tmp_path.iterdir())
    assert 18 * 1024 * 1024 < size <= 20 * 1024 * 1024, size  # near the cap, not over it
