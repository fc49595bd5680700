"""The bash oracle over the corpus (slow): every vLLM launch real bash runs from a
corpus script, with its argv and the environment vLLM reads, is the launch vcfg reads
(tests/bash_oracle.py says how it runs and compares).  ``python tests/bash_oracle.py``
prints the agreement numbers."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import bash_oracle as oracle
import pytest

pytestmark = pytest.mark.slow

WHY_NOT = oracle.sandbox_available()
needs_sandbox = pytest.mark.skipif(WHY_NOT is not None, reason=f"no sandbox: {WHY_NOT}")

#: scripts bash cannot run to their end, and why (each one's launches before that
#: point are still compared; vcfg's later ones are not counted against it)
CANNOT_RUN = {
    # a seeded syntax error: bash runs nothing
    "seeded/s10-typographic-closing-quote-0.33.0.sh": "unexpected EOF while looking for matching",
    # it greps the benchmark's output, which a stub does not print (after its launches)
    "real/bash/tpu-inference/run_disagg_single_host.sh": "Could not find 'Failed requests:'",
    # it exits before its launches: the npu-smi stub reports no NPUs (its launches are
    # built from JSON files by jq, which vcfg does not follow either)
    "real/bash/vllm-ascend/run-performance-benchmarks.sh": "bash exited 1",
    # it exits before its launches: mooncake_connector_proxy.py is not beside it, and the
    # nvidia-smi stub reports no GPUs (vcfg's launches are not counted against it)
    "real/bash/vllm/run_mooncake_connector.sh": "bash exited 1",
    # its wait_for_server greps what docker exec prints, which the stub does not (after the
    # two serve launches; the proxy and the benchmark are not reached)
    "real/bash/tpu-inference/run_disagg_multi_host.sh": "bash exited 1",
    # after its launch: the pipeline's tee cannot open logs/ (the container has it)
    "real/bash/vllm-gaudi/template_vllm_server.sh": "tee: logs/vllm_server.log",
    # it exits before its launches: the nvidia-smi stub lists no GPUs
    "real/bash/vllm-multi-gpu-launcher/launch_vllm.sh": "No GPUs detected by nvidia-smi",
    # it exits before its launches: no AWS EFA library (/opt/amazon/ofi-nccl) here
    "real/bash/uccl/launch_vllm.sh": "bash exited 1",
}


def _id(p: Path) -> str:
    return str(p.relative_to(oracle.CORPUS))


@functools.lru_cache(maxsize=None)
def _checked(path: Path) -> list:
    return oracle.check_script(path)


@needs_sandbox
def test_canary_nothing_outside_the_temporary_folder_is_written_and_no_network(tmp_path):
    """The sandbox holds: a script that tries to write outside its folder and to reach
    the network fails to, while its own folder stays writable and stubs record."""
    outside = tmp_path / "outside.txt"  # under the real /tmp: not the sandbox's /tmp
    repo_file = Path(__file__).with_name("vcfg-oracle-canary.txt")
    folder = tmp_path / "repo"
    folder.mkdir()
    script = folder / "canary.sh"
    script.write_text(
        f"echo leaked > {outside}\n"
        f"echo leaked > {repo_file}\n"
        "echo leaked > /etc/vcfg-oracle-canary\n"
        "echo inside > ./inside.txt && cat ./inside.txt > /dev/null && echo WROTE-INSIDE\n"
        "if (exec 3<>/dev/tcp/1.1.1.1/53) 2>/dev/null; then echo NET-TCP; fi\n"
        "if (exec 3<>/dev/tcp/127.0.0.1/22) 2>/dev/null; then echo NET-LOCAL; fi\n"
        "/usr/bin/python3 -c 'import socket; socket.create_connection((\"1.1.1.1\", 53), 3)' 2>/dev/null && echo NET-PY\n"
        "vllm serve m --port 8000\n"
        'echo "$PATH" "$HOME"\n'
    )
    run = oracle.run_bash(script, args=())
    assert not outside.exists()
    assert not repo_file.exists()
    assert not Path("/etc/vcfg-oracle-canary").exists()
    assert "Read-only file system" in run.stderr or "Permission denied" in run.stderr
    # the network is another namespace: nothing answers, not even loopback
    assert [r["argv"] for r in run.records] == [["vllm", "serve", "m", "--port", "8000"]]
    assert run.records[0]["cwd"] == "."
    # the stub saw only what the sandbox gives: PATH (the stubs), HOME, the locale
    assert set(run.records[0]["env"]) <= {"PATH", "HOME", "LANG", "LC_ALL"}


@needs_sandbox
def test_canary_output_and_network_probe(tmp_path):
    """The same probes, their output read: the write inside works, the others do not."""
    folder = tmp_path / "repo"
    folder.mkdir()
    script = folder / "probe.sh"
    script.write_text(
        "echo inside > ./inside.txt && /usr/bin/cat ./inside.txt >&2\n"
        "(exec 3<>/dev/tcp/1.1.1.1/53) 2>/dev/null && echo NET-TCP >&2\n"
        "/usr/bin/python3 -c 'import socket; socket.create_connection((\"1.1.1.1\", 53), 3)' 2>/dev/null "
        "&& echo NET-PY >&2\n"
        "true\n"
    )
    run = oracle.run_bash(script)
    assert "inside" in run.stderr
    # the sandbox has its own network namespace: no interface but a loopback that is down
    assert "NET-" not in run.stderr


def test_the_corpus_has_scripts():
    assert len(oracle.corpus_scripts()) >= 90


@needs_sandbox
@pytest.mark.parametrize("path", oracle.corpus_scripts(), ids=_id)
def test_bash_and_vcfg_agree_on_every_launch(path):
    results = _checked(path)
    label = _id(path)
    for run, cmp in results:
        assert cmp.disagreements == [], "\n".join(cmp.disagreements)
        reason = run.reason
        if label in CANNOT_RUN:
            assert reason is not None and CANNOT_RUN[label] in reason, reason
        else:
            assert reason is None, f"bash did not run {label} to its end: {reason}"


@needs_sandbox
def test_words_unknown_to_vcfg_are_few():
    """Wildcards make agreement easy: count them.  Unknown words are allowed only for
    what the stubs cannot give (a command's output such as ``date`` or ``hostname``)."""
    totals = {"launches": 0, "words": 0, "unknown": 0}
    for path in oracle.corpus_scripts():
        for _, cmp in _checked(path):
            totals["launches"] += cmp.agreed
            totals["words"] += cmp.words
            totals["unknown"] += cmp.unknown_words
    print(json.dumps(totals))
    assert totals["launches"] >= 200
    assert totals["unknown"] <= 0.03 * totals["words"]
