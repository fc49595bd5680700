"""Real public multi-node launch files lint clean (issue 15): the corpus engineer's
`multinode = true` files in tests/corpus/real/ and tests/corpus/multinode/, each at the
release it targets."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from vcfg.lint.engine import lint_paths

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

HERE = Path(__file__).parent / "corpus"

#: the release each real file is linted against, where its annotations name none (or one
#: older than the oldest bundled catalog); why, when it is not the newest
RELEASES = {
    # the llm-d wide-EP manifests set VLLM_ALL2ALL_BACKEND, which 0.16.0 removed: they
    # target a release before it (an image tag of the era, not named in the file)
    "kubernetes/llm-d/wide-ep-lws-decode.yaml": "0.15.1",
    "kubernetes/llm-d/wide-ep-lws-prefill.yaml": "0.15.1",
    # a Ray Serve LLM config (read since the ray_serve reader) that sets VLLM_USE_V1,
    # which 0.11.2 removed: its rayproject/ray-llm image names no vLLM release
    "ray-serve/kuberay/ray-service.deepseek.yaml": "0.10.2",
    # its image nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.8.0 is Dynamo 0.8.0, which pins
    # vLLM 0.12.0 (what vcfg picks itself); its workers' PassConfig keys went in 0.13.0
    "srt-slurm/deepseek-r1-disagg-h100-16gpu.yaml": "0.12.0",
}
#: real multi-node files that do not lint clean, and why (not a deployment-rule finding)
NOT_CLEAN = {
    "markdown/vllm-ascend/DeepSeek-R1.md": "VC000: `<node_ip>` placeholders in curl blocks (shell)",
    # removed variables and PassConfig keys, expandable segments with a connector, at the
    # default release (true findings, pinned in annotations.toml); not a deployment rule
    "bash/vllm/wide_ep_launch_server.sh": "VC103, VC108, VC023 on the default release",
    "bash/open-r1/serve_r1_vllm.slurm": "VC002, VC009: options removed by the default release",
    # session 9's sample: removed variables at the default release and the plugin's
    # connectors (true findings, pinned in annotations.toml); no deployment-rule finding
    "markdown/vllm-ascend/Kimi-K2.5.md": "VC103 (VLLM_RPC_TIMEOUT), VC027 (vllm-ascend connector)",
    "markdown/vllm-ascend/pd_disaggregation_mooncake_multi_node.md": "VC103 (VLLM_USE_V1), VC027 (vllm-ascend connectors)",
    # session 10: production-stack raySpec values; the chart itself sets VLLM_USE_V1=0 on
    # the Ray head (true, pinned in annotations.toml); no deployment-rule finding
    "helm-values/production-stack/values-15-a-minimal-pipeline-parallel-example-raycluster.yaml": "VC103 (VLLM_USE_V1)",
    "markdown/production-stack/15-basic-pipeline-parallel.md": "VC103 (VLLM_USE_V1)",
}


def _files() -> list[tuple[str, Path, str]]:
    from vcfg.catalog import store
    from vcfg.catalog.versions import parse_version

    bundled = store.bundled_versions()
    out = []
    real = tomllib.loads((HERE / "real" / "annotations.toml").read_text(encoding="utf-8"))
    for f in real["file"]:
        if not f.get("multinode") or f["path"] in NOT_CLEAN:
            continue
        rels = [x["release"] for x in f.get("launch", []) if x.get("release")]
        v = RELEASES.get(f["path"])
        if v is None and rels:
            v = next((b for b in bundled if parse_version(b) >= parse_version(rels[0])), bundled[-1])
        out.append((f["path"], HERE / "real" / f["path"], v or bundled[-1]))
    mine = tomllib.loads((HERE / "multinode" / "sources.toml").read_text(encoding="utf-8"))
    for f in mine["file"]:
        out.append((f["path"], HERE / "multinode" / f["path"], f["release"]))
    return out


FILES = _files()


def test_at_least_ten_real_multinode_files():
    assert len(FILES) >= 10, [p for p, _, _ in FILES]


@pytest.mark.parametrize("name,path,version", FILES, ids=[f[0] for f in FILES])
def test_real_multinode_file_lints_clean(name, path, version):
    res = lint_paths([str(path)], version)
    assert not res.internal_errors, res.internal_errors
    bad = [(d.code, d.span.line, d.span.col, d.message) for d in res.diagnostics if d.severity in ("error", "warning")]
    assert bad == [], f"{name} @ {version}"


def test_the_vllm_guide_exercises_the_rules(tmp_path):
    """The guide's 10 launches are read. Its `$MODEL` may split into options, so the
    rules stay silent on the file itself; with a model named, every DP rule judges the
    guide's layouts and finds nothing, and a copy whose second node repeats the head's
    ranks is caught."""
    guide = HERE / "multinode" / "vllm" / "data_parallel_deployment.md"
    assert lint_paths([str(guide)], "0.33.0").summary.launches == 10
    named = guide.read_text(encoding="utf-8").replace("$MODEL", "deepseek-ai/DeepSeek-V3")
    copy = tmp_path / "guide.md"
    copy.write_text(named, encoding="utf-8")
    res = lint_paths([str(copy)], "0.33.0")
    assert [d.code for d in res.diagnostics if d.severity in ("error", "warning")] == []
    copy.write_text(named.replace("--data-parallel-start-rank 2", "--data-parallel-start-rank 1"), encoding="utf-8")
    found = [(d.code, d.span.line) for d in lint_paths([str(copy)], "0.33.0").diagnostics]
    assert found == [("VC308", 45)]
