"""Multi-node data/expert-parallel rules (VC209-VC225, VC307, VC308): each start-up
rejection is found with the releases that enforce it, and not in the releases that do
not; the DP layout derivation; cross-node comparisons."""

from __future__ import annotations

import pytest

from vcfg.catalog import store
from vcfg.catalog.versions import parse_range
from vcfg.lint.engine import lint_paths
from vcfg.lint.registry import all_rules

BUNDLED = store.bundled_versions()
DP_RULES = [r for r in all_rules() if r.sources]


def codes(tmp_path, text, version, name="run.sh"):
    f = tmp_path / name
    f.write_text(text)
    res = lint_paths([str(f)], version)
    assert not res.internal_errors, res.internal_errors
    return [(d.code, d.span.line, d.span.col) for d in res.diagnostics]


#: releases a rule cites for another form of its check than its example (tested in
#: BOUNDARIES below)
OTHER_FORM = {("VC215", "0.11.2")}


def _cited(rule):
    vs = sorted({s.split(":", 1)[0].removeprefix("vllm@") for s in rule.sources})
    rng = parse_range(rule.versions) if rule.versions else None
    return [v for v in vs if v in BUNDLED and (rng is None or rng.contains(v)) and (rule.code, v) not in OTHER_FORM]


@pytest.mark.parametrize("rule", DP_RULES, ids=lambda r: r.code)
def test_every_cited_release_finds_the_example(tmp_path, rule):
    """The example fails in each release whose source the rule cites."""
    cited = _cited(rule)
    assert cited, f"{rule.code} cites no bundled release"
    for rel, text in rule.example_files:  # a model's config.json the example names
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    for v in cited:
        assert rule.code in {c for c, _, _ in codes(tmp_path, rule.example, v)}, (rule.code, v)
        assert rule.code not in {c for c, _, _ in codes(tmp_path, rule.use_instead, v)}, (rule.code, v)


@pytest.mark.parametrize(
    "rule", [r for r in DP_RULES if r.versions and r.versions.startswith(">=")], ids=lambda r: r.code
)
def test_the_release_before_the_check_finds_nothing(tmp_path, rule):
    rng = parse_range(rule.versions)
    before = [v for v in BUNDLED if not rng.contains(v)]
    if not before:
        pytest.skip("no bundled release before the check")
    for rel, text in rule.example_files:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    assert rule.code not in {c for c, _, _ in codes(tmp_path, rule.example, before[-1])}


# (rule, launch, release where vLLM refuses it, release where it does not)
BOUNDARIES = [
    # --headless refused any --api-server-count only from 0.15.1 (before: above 1)
    (
        "VC214",
        "vllm serve m -dp 2 -dpl 1 --data-parallel-start-rank 1 --headless --api-server-count 1\n",
        "0.15.1",
        "0.14.1",
    ),
    # vllm serve counts implied modes (a rank and a start rank) from 0.22.0 (serve.py:91)
    ("VC215", "vllm serve m -dp 4 --data-parallel-rank 3 --data-parallel-start-rank 0\n", "0.22.0", "0.21.0"),
    # --nnodes counts prefill-context parallelism from 0.30.0
    ("VC211", "vllm serve m -pcp 2 --nnodes 2 --node-rank 0\n", "0.29.0", "0.30.0"),
    # EPLB counts prefill-context parallel ranks from 0.26.0
    ("VC221", "vllm serve m -pcp 2 --enable-expert-parallel --enable-eplb\n", "0.25.1", "0.26.0"),
    # pplx and naive were replaced in 0.17.1
    ("VC223", "vllm serve m -dp 2 --enable-expert-parallel --all2all-backend naive\n", "0.17.1", "0.16.0"),
    # the old flag for redundant experts (before 0.15)
    ("VC222", "vllm serve m -dp 2 --enable-expert-parallel --num-redundant-experts 4\n", "0.11.2", None),
    # assertions before 0.27 are still refusals
    ("VC212", "vllm serve m -tp 8 -dp 2 --nnodes 2 --node-rank 5\n", "0.11.2", None),
    ("VC210", "vllm serve m -dp 4 --data-parallel-hybrid-lb\n", "0.10.2", None),
    # 0.11.2 .. 0.21.0 refuse only the two switches together
    ("VC215", "vllm serve m -dp 4 -dpl 2 --data-parallel-hybrid-lb --data-parallel-external-lb\n", "0.11.2", "0.10.2"),
]


@pytest.mark.parametrize("code,text,fails,passes", BOUNDARIES, ids=[b[0] + "@" + b[2] for b in BOUNDARIES])
def test_release_boundaries(tmp_path, code, text, fails, passes):
    assert code in {c for c, _, _ in codes(tmp_path, text, fails)}
    if passes:
        assert code not in {c for c, _, _ in codes(tmp_path, text, passes)}


def test_issue_examples(tmp_path):
    # the issue's "passes today" list: DP 8 on 4 GPUs, local above size, two nodes that
    # disagree on the DP size and the address
    dp8 = "CUDA_VISIBLE_DEVICES=0,1,2,3 vllm serve m -dp 8\n"
    assert [x for x in codes(tmp_path, dp8, "0.33.0") if x[0] == "VC217"] == [("VC217", 1, dp8.index("-dp") + 1)]
    assert any(c == "VC216" for c, _, _ in codes(tmp_path, "vllm serve m -dp 4 -dpl 8\n", "0.33.0"))
    two = (
        'if [ "$N" = 0 ]; then\n'
        "  vllm serve m -dp 8 -dpl 4 --data-parallel-address 10.0.0.1\n"
        "else\n"
        "  vllm serve m -dp 16 -dpl 4 --data-parallel-start-rank 4 --data-parallel-address 10.0.0.9 --headless\n"
        "fi\n"
    )
    found = [(c, l, k) for c, l, k in codes(tmp_path, two, "0.33.0") if c == "VC307"]
    row = two.splitlines()[3]
    assert found == [("VC307", 4, row.index("16") + 1), ("VC307", 4, row.index("10.0.0.9") + 1)]


def test_an_unset_rpc_port_is_the_catalogs_default(tmp_path):
    """A node that leaves --data-parallel-rpc-port unset uses ParallelConfig's default
    (29550, read from the catalog): the same as a node that writes 29550, not 29551."""

    def script(port: str) -> str:
        return (
            'if [ "$N" = 0 ]; then\n'
            "  vllm serve m -dp 8 -dpl 4 --data-parallel-address 10.0.0.1\n"
            "else\n"
            f"  vllm serve m -dp 8 -dpl 4 --data-parallel-start-rank 4 --data-parallel-address 10.0.0.1 {port} --headless\n"
            "fi\n"
        )

    assert [c for c, _, _ in codes(tmp_path, script("--data-parallel-rpc-port 29550"), "0.33.0") if c == "VC307"] == []
    other = script("--data-parallel-rpc-port 29551")
    found = [(c, l, k) for c, l, k in codes(tmp_path, other, "0.33.0") if c == "VC307"]
    assert found == [("VC307", 4, other.splitlines()[3].index("29551") + 1)]


def test_unknown_values_are_never_compared(tmp_path):
    # the head's address and the start rank come from the caller: nothing to say
    text = (
        'if [ "$N" = 0 ]; then\n'
        "  vllm serve m -dp 16 -dpl 8 --data-parallel-address $HEAD\n"
        "else\n"
        "  vllm serve m -dp 16 -dpl 8 --data-parallel-start-rank $START --data-parallel-address $HEAD2 --headless\n"
        "fi\n"
    )
    assert [c for c, _, _ in codes(tmp_path, text, "0.33.0") if c in ("VC307", "VC308")] == []


def test_nodes_in_two_files_of_one_deployment(tmp_path):
    from vcfg.lint.config import load_config

    head = "vllm serve m -dp 16 -dpl 8 --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345\n"
    worker = (
        "vllm serve m -dp 16 -dpl 8 --data-parallel-start-rank 0 --data-parallel-address 10.0.0.1 "
        "--data-parallel-rpc-port 13345 --headless\n"
    )
    (tmp_path / "head.sh").write_text(head)
    (tmp_path / "worker.sh").write_text(worker)
    alone = lint_paths([str(tmp_path / "worker.sh")], "0.33.0")
    assert [d.code for d in alone.diagnostics if d.code.startswith("VC30")] == []
    (tmp_path / ".vcfg.toml").write_text('[deployments.dp]\nfiles = ["head.sh", "worker.sh"]\n')
    res = lint_paths([str(tmp_path / "worker.sh")], "0.33.0", config=load_config(tmp_path))
    got = [(d.code, d.span.line, d.span.col) for d in res.diagnostics if d.code.startswith("VC30")]
    assert got == [("VC308", 1, worker.index("0 --data") + 1)]


def test_pd_groups_are_separate(tmp_path):
    kv = '--kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"%s"}\''
    text = (
        'case "$ROLE" in\n'
        f"  p0) vllm serve m -dp 16 -dpl 8 --data-parallel-address 10.0.0.1 {kv % 'kv_producer'} ;;\n"
        f"  p1) vllm serve m -dp 16 -dpl 8 --data-parallel-start-rank 8 --data-parallel-address 10.0.0.1 --headless {kv % 'kv_producer'} ;;\n"
        f"  d0) vllm serve m -dp 8 -dpl 8 --data-parallel-address 10.0.0.5 {kv % 'kv_consumer'} ;;\n"
        "esac\n"
    )
    assert [c for c, _, _ in codes(tmp_path, text, "0.33.0") if c in ("VC307", "VC308")] == []


def test_markdown_blocks_are_separate_examples(tmp_path):
    md = (
        "# two examples\n\n```bash\nvllm serve m -dp 4 -dpl 2 --data-parallel-address 10.0.0.1\n"
        "vllm serve m -dp 4 -dpl 2 --data-parallel-start-rank 2 --data-parallel-address 10.0.0.1 --headless\n```\n\n"
        "```bash\nvllm serve m -dp 4 -dpl 0 --data-parallel-address 10.0.0.1\n"
        "vllm serve m -dp 4 -dpl 4 --data-parallel-address 10.0.0.1 --headless\n```\n"
    )
    assert [c for c, _, _ in codes(tmp_path, md, "0.33.0", "dp.md") if c in ("VC307", "VC308")] == []


def test_nodes_on_two_releases(tmp_path):
    compose = (
        "services:\n  head:\n    image: vllm/vllm-openai:v0.20.2\n"
        '    command: ["m", "-dp", "4", "-dpl", "2", "--data-parallel-address", "10.0.0.1"]\n'
        "  worker:\n    image: vllm/vllm-openai:v0.20.2\n"
        '    command: ["m", "-dp", "4", "-dpl", "2", "--data-parallel-start-rank", "2", '
        '"--data-parallel-address", "10.0.0.1", "--headless"]\n'
    )
    assert [c for c, _, _ in codes(tmp_path, compose, "0.20.2", "compose.yaml") if c == "VC307"] == []
    bumped = compose.replace("v0.20.2", "v0.23.0").replace("v0.23.0", "v0.20.2", 1)
    assert [(c, l, k) for c, l, k in codes(tmp_path, bumped, "0.23.0", "compose.yaml") if c == "VC307"] == [
        ("VC307", 6, 12)
    ]


def test_nodes_with_different_ep_kernels(tmp_path):
    text = (
        'if [ "$N" = 0 ]; then\n'
        "  vllm serve m -dp 16 -dpl 8 --data-parallel-address 10.0.0.1 -ep --all2all-backend deepep_low_latency\n"
        "else\n"
        "  vllm serve m -dp 16 -dpl 8 --data-parallel-start-rank 8 --data-parallel-address 10.0.0.1 -ep --headless\n"
        "fi\n"
    )
    got = [(c, l, k) for c, l, k in codes(tmp_path, text, "0.33.0") if c == "VC307"]
    assert got == [("VC307", 4, 8)]  # unset here (the default): the launch word `serve`


def test_two_dp_heads_on_one_host_share_the_rpc_port(tmp_path):
    # the prefill and decode heads of a P/D deployment on one node, each a DP group over
    # two nodes: both bind 29550 on the same address unless one moves
    kv = '--kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"%s"}\''
    text = (
        f"CUDA_VISIBLE_DEVICES=0,1,2,3 VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve m --port 8100 -dp 8 -dpl 4 "
        f"--data-parallel-address 10.0.0.1 {kv % 'kv_producer'} &\n"
        f"CUDA_VISIBLE_DEVICES=4,5,6,7 VLLM_NIXL_SIDE_CHANNEL_PORT=5700 vllm serve m --port 8200 -dp 8 -dpl 4 "
        f"--data-parallel-address 10.0.0.1 {kv % 'kv_consumer'} &\nwait\n"
    )
    line2 = text.splitlines()[1]
    assert [x for x in codes(tmp_path, text, "0.33.0") if x[0] == "VC302"] == [("VC302", 2, line2.index("serve") + 1)]
    moved = text.replace("--port 8200 -dp 8 -dpl 4", "--port 8200 -dp 8 -dpl 4 --data-parallel-rpc-port 13346")
    assert [x for x in codes(tmp_path, moved, "0.33.0") if x[0] == "VC302"] == []
    # a group on one node handshakes over IPC: nothing bound
    local = text.replace("-dpl 4 ", "")
    assert [x for x in codes(tmp_path, local, "0.33.0") if x[0] == "VC302"] == []


@pytest.mark.parametrize(
    ("text", "at"),
    [
        ("vllm serve m --data-parallel-size 2 \\\n  --data-parallel-rank 5\n", (2, 3)),
        ("vllm serve m --data-parallel-rank 5 \\\n  --data-parallel-size 2\n", (1, 14)),
        ("vllm serve m --data-parallel-start-rank 4 \\\n  --data-parallel-size 2 --nnodes 2\n", (1, 14)),
    ],
    ids=["size-first", "rank-first", "start-rank-first"],
)
@pytest.mark.parametrize("version", ["0.20.2", "0.33.0"])
def test_an_out_of_range_rank_is_reported_at_the_rank(tmp_path, text, at, version):
    """The rank is the mistake, wherever the size is written (VC209 once pointed at the
    option written last, the size in the last two cases)."""
    found = [(line, col) for code, line, col in codes(tmp_path, text, version) if code == "VC209"]
    assert found == [at]
