"""Run-level rules VC301-VC306: every launch of every file linted together.
Positions are asserted as line:column."""

from __future__ import annotations

import pytest

from vcfg.lint.engine import lint_paths

CODES = {"VC301", "VC302", "VC303", "VC304", "VC305", "VC306"}


def run(tmp_path, files, version="0.33.0", codes=CODES, together=False, hosts=None):
    """Lint {name: text} on one command line; [(file, code, line, col, message)].
    ``together``: the project config makes them one deployment (``hosts``: glob ->
    host name); otherwise each file is its own deployment."""
    from vcfg.lint.config import load_config

    paths = []
    for name, text in files.items():
        p = tmp_path / name
        p.write_text(text)
        paths.append(str(p))
    config = None
    if together:
        cfg = tmp_path / ".vcfg.toml"
        names = ", ".join(f'"{n}"' for n in files)
        table = ", ".join(f'"{g}" = "{h}"' for g, h in (hosts or {}).items())
        cfg.write_text(f"[deployments.all]\nfiles = [{names}]\nhosts = {{ {table} }}\n")
        config = load_config(explicit=cfg)
    res = lint_paths(paths, version, config=config)
    assert not res.internal_errors, res.internal_errors
    return [
        (d.span.file.rsplit("/", 1)[-1], d.code, d.span.line, d.span.col, d.message)
        for d in res.diagnostics
        if codes is None or d.code in codes
    ]


def lint(tmp_path, text, version="0.33.0", codes=CODES):
    return [(c, l, k) for _, c, l, k, _ in run(tmp_path, {"run.sh": text}, version, codes)]


def col(text, line, needle, nth=1):
    """The 1-based column of the ``nth`` ``needle`` on ``line`` of ``text``."""
    row = text.splitlines()[line - 1]
    i = -1
    for _ in range(nth):
        i = row.index(needle, i + 1)
    return i + 1


def nixl(role):
    return f'\'{{"kv_connector":"NixlConnector","kv_role":"{role}"}}\''


# --------------------------------------------------------------------------- clean runs

CLEAN_1P1D = f"""\
#!/bin/bash
MODEL=Qwen/Qwen3-8B
CUDA_VISIBLE_DEVICES=0 VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve $MODEL \\
  --port 8100 --gpu-memory-utilization 0.9 --block-size 16 \\
  --kv-transfer-config {nixl("kv_producer")} > prefill.log 2>&1 &
CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve $MODEL \\
  --port 8200 --gpu-memory-utilization 0.9 --block-size 16 \\
  --kv-transfer-config {nixl("kv_consumer")} > decode.log 2>&1 &
python3 toy_proxy_server.py --port 8000 \\
  --prefiller-hosts localhost --prefiller-ports 8100 \\
  --decoder-hosts localhost --decoder-ports 8200
"""

CLEAN_2P2D = f"""\
#!/bin/bash
MODEL=Qwen/Qwen3-8B
for i in 0 1; do
  CUDA_VISIBLE_DEVICES=$((2 * i)),$((2 * i + 1)) VLLM_NIXL_SIDE_CHANNEL_PORT=$((5600 + i)) \\
    vllm serve $MODEL --port $((8100 + i)) -tp 2 --gpu-memory-utilization 0.9 \\
    --kv-transfer-config {nixl("kv_producer")} > prefill_$i.log 2>&1 &
done
for i in 0 1; do
  CUDA_VISIBLE_DEVICES=$((4 + 2 * i)),$((5 + 2 * i)) VLLM_NIXL_SIDE_CHANNEL_PORT=$((5700 + i)) \\
    vllm serve $MODEL --port $((8200 + i)) -tp 2 --gpu-memory-utilization 0.9 \\
    --kv-transfer-config {nixl("kv_consumer")} > decode_$i.log 2>&1 &
done
python3 toy_proxy_server.py --port 8000 \\
  --prefiller-hosts localhost localhost --prefiller-ports 8100 8101 \\
  --decoder-hosts localhost localhost --decoder-ports 8200 8201
wait
"""

P2P = (
    '\'{{"kv_connector":"P2pNcclConnector","kv_role":"{role}","kv_port":"{kv}",'
    '"kv_connector_extra_config":{{"proxy_ip":"127.0.0.1","proxy_port":"30001",'
    '"http_port":"{http}"}}}}\''
)

CLEAN_P2P_1P1D = f"""\
python3 disagg_proxy_p2p_nccl_xpyd.py > proxy.log 2>&1 &
CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-8B --port 20001 \\
  --kv-transfer-config {P2P.format(role="kv_producer", kv=21001, http=20001)} &
CUDA_VISIBLE_DEVICES=1 vllm serve Qwen/Qwen3-8B --port 20002 \\
  --kv-transfer-config {P2P.format(role="kv_consumer", kv=22001, http=20002)} &
wait
"""


@pytest.mark.parametrize(
    "text,version",
    [
        (CLEAN_1P1D, "0.33.0"),
        (CLEAN_2P2D, "0.33.0"),
        (CLEAN_2P2D, "0.11.2"),
        (CLEAN_1P1D, "0.23.0"),
        (CLEAN_P2P_1P1D, "0.20.2"),
    ],
)
def test_clean_pd_scripts_produce_nothing(tmp_path, text, version):
    assert run(tmp_path, {"pd.sh": text}, version, codes=None) == []


# --------------------------------------------------------------------------- VC302


def test_vc302_two_serves_on_the_default_port(tmp_path):
    text = "CUDA_VISIBLE_DEVICES=0 vllm serve m &\nCUDA_VISIBLE_DEVICES=1 vllm serve m &\nwait\n"
    ((f, code, line, k, msg),) = run(tmp_path, {"run.sh": text})
    assert (code, line, k) == ("VC302", 2, col(text, 2, "serve"))
    assert msg == "HTTP port 8000 is already used by the launch at line 1"


def test_vc302_nixl_side_channel_default(tmp_path):
    text = (
        f"CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8100 --kv-transfer-config {nixl('kv_producer')} &\n"
        f"CUDA_VISIBLE_DEVICES=1 vllm serve m --port 8200 --kv-transfer-config {nixl('kv_consumer')} &\n"
    )
    found = run(tmp_path, {"run.sh": text})
    assert [(c, l, k) for _, c, l, k, _ in found] == [("VC302", 2, col(text, 2, '"NixlConnector"'))]
    assert "NixlConnector handshake side channel port 5600" in found[0][4]


def test_vc302_nixl_side_channel_set_equal(tmp_path):
    text = (
        f"export VLLM_NIXL_SIDE_CHANNEL_PORT=5557\n"
        f"CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8100 --kv-transfer-config {nixl('kv_both')} &\n"
        f"CUDA_VISIBLE_DEVICES=1 vllm serve m --port 8200 --kv-transfer-config {nixl('kv_both')} &\n"
    )
    # one export for both: the finding sits at the later launch's connector
    assert lint(tmp_path, text, "0.10.2") == [("VC302", 3, col(text, 3, '"NixlConnector"'))]


def test_vc302_nixl_side_channel_hosts_apart(tmp_path):
    text = (
        f"VLLM_NIXL_SIDE_CHANNEL_HOST=10.0.0.1 vllm serve m --port 8100 --kv-transfer-config {nixl('kv_producer')} &\n"
        f"VLLM_NIXL_SIDE_CHANNEL_HOST=10.0.0.2 vllm serve m --port 8200 --kv-transfer-config {nixl('kv_consumer')} &\n"
    )
    assert lint(tmp_path, text, codes={"VC302"}) == []


def test_vc302_p2p_kv_port_ranges(tmp_path):
    text = (
        f"vllm serve m --port 20001 -tp 2 --kv-transfer-config {P2P.format(role='kv_producer', kv=21001, http=20001)} &\n"
        f"vllm serve m --port 20002 --kv-transfer-config {P2P.format(role='kv_consumer', kv=21002, http=20002)} &\n"
    )
    found = run(tmp_path, {"run.sh": text}, "0.20.2", {"VC302"})
    assert [(c, l, k) for _, c, l, k, _ in found] == [("VC302", 2, col(text, 2, '"21002"'))]
    assert "port 21002" in found[0][4]


def test_vc302_kv_port_equal_to_own_http_port(tmp_path):
    text = f"vllm serve m --port 24050 --kv-transfer-config {P2P.format(role='kv_producer', kv=24050, http=24050)}\n"
    found = run(tmp_path, {"run.sh": text}, "0.20.2", {"VC302"})
    assert [(c, l, k) for _, c, l, k, _ in found] == [("VC302", 1, col(text, 1, '"24050"'))]
    assert "is also this instance's HTTP port" in found[0][4]


def test_vc302_mooncake_bootstrap_only_on_producers(tmp_path):
    def mc(role):
        return f'\'{{"kv_connector":"MooncakeConnector","kv_role":"{role}"}}\''

    pd = (
        f"vllm serve m --port 8100 --kv-transfer-config {mc('kv_producer')} &\n"
        f"vllm serve m --port 8200 --kv-transfer-config {mc('kv_consumer')} &\n"
    )
    assert lint(tmp_path, pd, codes={"VC302"}) == []
    pp = pd.replace("kv_consumer", "kv_producer")
    assert lint(tmp_path, pp, codes={"VC302"}) == [("VC302", 2, col(pp, 2, '"MooncakeConnector"'))]


def test_vc302_proxy_on_a_server_port(tmp_path):
    text = "CUDA_VISIBLE_DEVICES=0 vllm serve m &\npython3 toy_proxy_server.py --port 8000\n"
    assert lint(tmp_path, text) == [("VC302", 2, col(text, 2, "8000"))]


def test_vc302_same_port_in_a_loop(tmp_path):
    text = "for g in 0 1; do\n  CUDA_VISIBLE_DEVICES=$g vllm serve m --port 9000 &\ndone\n"
    assert lint(tmp_path, text) == [("VC302", 2, col(text, 2, "9000"))]


@pytest.mark.parametrize(
    "text",
    [
        # foreground: the first exits before the second starts
        "vllm serve m\nvllm serve m\n",
        # the same launch unrolled with distinct values
        "for i in 0 1; do\n  CUDA_VISIBLE_DEVICES=$i vllm serve m --port $((8100 + i)) &\ndone\n",
        # a sweep that stops each server before the next
        "for c in 1 2; do\n  vllm serve m --max-num-seqs $c &\n  sleep 60\n  kill $!\ndone\n",
        "vllm serve m &\nPID=$!\nsleep 60\nkill $PID\nwait\nvllm serve m &\n",
        # two branches of one if: one instance per run of the script
        'if [ "$1" = p ]; then\n  vllm serve m &\nelse\n  vllm serve m &\nfi\n',
        "case $1 in\n  p) vllm serve m & ;;\n  d) vllm serve m & ;;\nesac\n",
        # two interfaces
        "vllm serve m --host 10.0.0.1 &\nvllm serve m --host 10.0.0.2 &\n",
        # unknown port
        "vllm serve m &\nvllm serve m --port $PORT &\n",
        "vllm serve m &\nvllm serve m $EXTRA_ARGS &\n",
        # headless launches run no API server
        "vllm serve m -dp 2 --headless &\nvllm serve m &\n",
    ],
)
def test_vc302_silent(tmp_path, text):
    assert lint(tmp_path, text, codes={"VC302"}) == []


def test_vc302_files_are_hosts(tmp_path):
    a, b = "vllm serve m\n", "vllm serve m\n"
    assert run(tmp_path, {"prefill.sh": a, "decode.sh": b}, codes={"VC302"}) == []
    a, b = "vllm serve m --host 10.0.0.5\n", "vllm serve m --host 10.0.0.5\n"
    assert run(tmp_path, {"a.sh": a, "b.sh": b}, codes={"VC302"}) == []  # two deployments
    found = run(tmp_path, {"a.sh": a, "b.sh": b}, codes={"VC302"}, together=True)
    assert [(f, c, l, k) for f, c, l, k, _ in found] == [("b.sh", "VC302", 1, 6)]
    assert "a.sh:1" in found[0][4]


# --------------------------------------------------------------------------- VC306


def test_vc306_two_instances_on_gpu0_default_utilization(tmp_path):
    text = "CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8100 &\nCUDA_VISIBLE_DEVICES=0 vllm serve m --port 8200 &\n"
    found = run(tmp_path, {"run.sh": text})
    assert [(c, l, k) for _, c, l, k, _ in found] == [("VC306", 2, 22)]
    assert found[0][4] == (
        "GPU 0 is shared with the launch at line 1: `--gpu-memory-utilization` 0.92 + 0.92 = 1.84 > 1"
    )


def test_vc306_older_default_and_explicit_shares(tmp_path):
    text = (
        "CUDA_VISIBLE_DEVICES=0,1 vllm serve m -tp 2 --port 8100 --gpu-memory-utilization 0.5 &\n"
        "CUDA_VISIBLE_DEVICES=1 vllm serve m --port 8200 --gpu-memory-utilization 0.6 &\n"
    )
    found = run(tmp_path, {"run.sh": text}, "0.10.2")
    assert [(c, l, k) for _, c, l, k, _ in found] == [("VC306", 2, col(text, 2, "0.6"))]
    assert "GPU 1" in found[0][4] and "0.5 + 0.6 = 1.1" in found[0][4]
    # 0.10.2's default share is 0.9
    text = "vllm serve m --port 8100 &\nvllm serve m --port 8200 &\n"
    found = run(tmp_path, {"run.sh": text}, "0.10.2")
    assert [(c, l, k) for _, c, l, k, _ in found] == [("VC306", 2, 6)]
    assert "the caller's GPU #0" in found[0][4] and "0.9 + 0.9 = 1.8" in found[0][4]


@pytest.mark.parametrize(
    "text",
    [
        "CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8100 --gpu-memory-utilization 0.45 &\n"
        "CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8200 --gpu-memory-utilization 0.45 &\n",
        "CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8100 &\nCUDA_VISIBLE_DEVICES=1 vllm serve m --port 8200 &\n",
        "CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8100\nCUDA_VISIBLE_DEVICES=0 vllm serve m --port 8200\n",
        "CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8100 --kv-cache-memory-bytes 8G &\n"
        "CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8200 &\n",
        # one inherits the caller's devices, the other names GPU 0: not comparable
        "vllm serve m --port 8100 &\nCUDA_VISIBLE_DEVICES=0 vllm serve m --port 8200 &\n",
    ],
)
def test_vc306_silent(tmp_path, text):
    assert lint(tmp_path, text, codes={"VC306"}) == []


# --------------------------------------------------------------------------- VC305


def test_vc305_identical_prefiller_and_decoder(tmp_path):
    text = (
        "CUDA_VISIBLE_DEVICES=0 vllm serve m --port 20002 &\n"
        "python3 toy_proxy_server.py --prefiller-hosts 127.0.0.1 --prefiller-port 20002 "
        "--decoder-hosts 127.0.0.1 --decoder-ports 20002\n"
    )
    found = run(tmp_path, {"run.sh": text})
    assert [(c, l, k) for _, c, l, k, _ in found] == [("VC305", 2, col(text, 2, "20002", 2))]
    assert found[0][4] == "the decoder upstream 20002 is also a prefiller upstream"


def test_vc305_upstream_without_server(tmp_path):
    text = (
        "CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8100 &\n"
        "CUDA_VISIBLE_DEVICES=1 vllm serve m --port 8200 &\n"
        "python3 toy_proxy_server.py --prefiller-ports 8100 --decoder-ports 8300\n"
    )
    found = run(tmp_path, {"run.sh": text})
    assert [(c, l, k) for _, c, l, k, _ in found] == [("VC305", 3, col(text, 3, "8300"))]
    assert "port 8300 (decode upstream)" in found[0][4]


def test_vc305_url_upstreams(tmp_path):
    text = (
        "vllm serve m --port 8010 &\n"
        "python3 mooncake_connector_proxy.py --prefill http://127.0.0.1:8011 --decode http://127.0.0.1:8010\n"
    )
    assert lint(tmp_path, text, codes={"VC305"}) == [("VC305", 2, col(text, 2, "http://127.0.0.1:8011"))]


@pytest.mark.parametrize(
    "text",
    [
        # the decode instance runs on another host
        "vllm serve m --port 8010 &\n"
        "python3 mooncake_connector_proxy.py --prefill http://127.0.0.1:8010 --decode http://10.0.0.3:8020\n",
        # a server port vcfg cannot read
        "vllm serve m --port 8100 &\nvllm serve m --port $DPORT &\n"
        "python3 toy_proxy_server.py --prefiller-ports 8100 --decoder-ports 8200\n",
        # no server in the run: they are started elsewhere
        "python3 toy_proxy_server.py --prefiller-ports 8100 --decoder-ports 8200\n",
    ],
)
def test_vc305_silent(tmp_path, text):
    assert lint(tmp_path, text, codes={"VC305"}) == []


# --------------------------------------------------------------------------- VC304


def test_vc304_http_port_differs(tmp_path):
    text = f"vllm serve m --port 20002 --kv-transfer-config {P2P.format(role='kv_consumer', kv=22001, http=20001)}\n"
    found = run(tmp_path, {"run.sh": text}, "0.20.2")
    assert [(c, l, k) for _, c, l, k, _ in found] == [("VC304", 1, col(text, 1, '"20001"'))]
    assert "`http_port` 20001" in found[0][4] and "`--port` 20002" in found[0][4]


def test_vc304_default_port(tmp_path):
    text = f"vllm serve m --kv-transfer-config {P2P.format(role='kv_consumer', kv=22001, http=20001)}\n"
    found = run(tmp_path, {"run.sh": text}, "0.20.2")
    assert [(c, l, k) for _, c, l, k, _ in found] == [("VC304", 1, col(text, 1, '"20001"'))]
    assert "the default `--port` 8000" in found[0][4]


@pytest.mark.parametrize(
    "text",
    [
        f"vllm serve m --port 20001 --kv-transfer-config {P2P.format(role='kv_producer', kv=21001, http=20001)}\n",
        f"vllm serve m --port $P --kv-transfer-config {P2P.format(role='kv_producer', kv=21001, http=20001)}\n",
        f"vllm serve m --port 20002 --kv-transfer-config {nixl('kv_producer')}\n",
    ],
)
def test_vc304_silent(tmp_path, text):
    assert lint(tmp_path, text, "0.20.2", codes={"VC304"}) == []


# --------------------------------------------------------------------------- VC303


def test_vc303_block_size(tmp_path):
    text = (
        f"CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8100 --block-size 16 --kv-transfer-config {nixl('kv_producer')} &\n"
        f"CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve m --port 8200 --block-size 32 "
        f"--kv-transfer-config {nixl('kv_consumer')} &\n"
    )
    found = run(tmp_path, {"run.sh": text})
    assert [(c, l, k) for _, c, l, k, _ in found] == [("VC303", 2, col(text, 2, "32"))]
    assert found[0][4] == "`--block-size` is `32` here but `16` on the prefill instance at line 1"


def test_vc303_model_and_dtype(tmp_path):
    text = (
        f"CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-8B --port 8100 --kv-cache-dtype fp8 "
        f"--kv-transfer-config {nixl('kv_producer')} &\n"
        f"CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve Qwen/Qwen3-14B --port 8200 "
        f"--kv-cache-dtype auto --kv-transfer-config {nixl('kv_consumer')} &\n"
    )
    assert lint(tmp_path, text) == [("VC303", 2, col(text, 2, "Qwen/Qwen3-14B")), ("VC303", 2, col(text, 2, "auto"))]


def test_vc303_tp_only_where_the_connector_needs_it(tmp_path):
    p2p = (
        f"CUDA_VISIBLE_DEVICES=0,1 vllm serve m --port 20001 -tp 2 "
        f"--kv-transfer-config {P2P.format(role='kv_producer', kv=21001, http=20001)} &\n"
        f"CUDA_VISIBLE_DEVICES=2 vllm serve m --port 20002 "
        f"--kv-transfer-config {P2P.format(role='kv_consumer', kv=22001, http=20002)} &\n"
    )
    found = run(tmp_path, {"run.sh": p2p}, "0.20.2")
    # the decode side writes nothing: the finding sits at the prefill side's -tp
    assert [(c, l, k) for _, c, l, k, _ in found] == [("VC303", 1, col(p2p, 1, "-tp 2") + 4)]
    assert "`2` here but `1` (the default) on the decode instance at line 2" in found[0][4]
    heterogeneous = (
        f"CUDA_VISIBLE_DEVICES=0,1 vllm serve m --port 8100 -tp 2 --kv-transfer-config {nixl('kv_producer')} &\n"
        f"CUDA_VISIBLE_DEVICES=2 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve m --port 8200 "
        f"--kv-transfer-config {nixl('kv_consumer')} &\n"
    )
    assert lint(tmp_path, heterogeneous) == []


def test_vc303_pairs_through_the_proxy(tmp_path):
    # kv_both on both sides (0.11.2): the proxy says which is which
    text = (
        f"CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8100 --block-size 16 --kv-transfer-config {nixl('kv_both')} &\n"
        f"CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve m --port 8200 --block-size 64 "
        f"--kv-transfer-config {nixl('kv_both')} &\n"
        "python3 toy_proxy_server.py --prefiller-ports 8100 --decoder-ports 8200\n"
    )
    assert lint(tmp_path, text, "0.11.2") == [("VC303", 2, col(text, 2, "64"))]


def test_vc303_one_side_unset_and_separate_files(tmp_path):
    p = f"CUDA_VISIBLE_DEVICES=0 vllm serve m --block-size 16 --kv-transfer-config {nixl('kv_producer')}\n"
    d = f"CUDA_VISIBLE_DEVICES=0 vllm serve m --kv-transfer-config {nixl('kv_consumer')}\n"
    assert run(tmp_path, {"prefill.sh": p, "decode.sh": d}, together=True) == []
    d = d.replace("vllm serve m", "vllm serve m2")
    assert run(tmp_path, {"prefill.sh": p, "decode.sh": d}) == []  # not one deployment
    found = run(tmp_path, {"prefill.sh": p, "decode.sh": d}, together=True)
    assert [(f, c, l, k) for f, c, l, k, _ in found] == [("decode.sh", "VC303", 1, col(d, 1, "m2"))]
    assert "prefill.sh:1" in found[0][4]


# --------------------------------------------------------------------------- VC301


def mc(role):
    return f'\'{{"kv_connector":"MooncakeConnector","kv_role":"{role}"}}\''


ACME_PACK = """
[[connector]]
name = "AcmeConnector"
versions = ">=0.10"
sources = ["acme-corp/vllm-acme:acme/connector.py"]

[[connector.roles]]
prefill = ["kv_producer"]
decode = ["kv_consumer"]
note = "acme compares kv_role exactly"
"""


def test_vc301_role_that_fits_neither_side(tmp_path):
    # no bundled connector has such a role: a user pack states one
    packs = tmp_path / "packs"
    packs.mkdir()
    (packs / "acme.toml").write_text(ACME_PACK)
    text = 'vllm serve m --kv-transfer-config \'{"kv_connector":"AcmeConnector","kv_role":"kv_both"}\'\n'
    (tmp_path / "decode.sh").write_text(text)
    res = lint_paths([str(tmp_path / "decode.sh")], "0.33.0", knowledge_dirs=[packs])
    (d,) = [d for d in res.diagnostics if d.code == "VC301"]
    assert (d.span.line, d.span.col) == (1, col(text, 1, '"kv_both"'))
    assert d.message == "`kv_role` `kv_both` fits neither a prefill nor a decode instance of AcmeConnector"
    assert d.notes == ("acme compares kv_role exactly",)


def test_vc301_mooncake_kv_both_is_both(tmp_path):
    # MooncakeConnector skips prefill work only for kv_consumer and decode work only
    # for kv_producer (0.33 mooncake_connector.py:1145-1155)
    assert lint(tmp_path, f"vllm serve m --kv-transfer-config {mc('kv_both')}\n") == []


def test_vc301_p2p_decode_must_be_consumer(tmp_path):
    text = (
        "python3 disagg_proxy_p2p_nccl_xpyd.py &\n"
        f"CUDA_VISIBLE_DEVICES=0 vllm serve m --port 20001 --kv-transfer-config {P2P.format(role='kv_producer', kv=21001, http=20001)} &\n"
        f"CUDA_VISIBLE_DEVICES=1 vllm serve m --port 20002 --kv-transfer-config {P2P.format(role='kv_both', kv=22001, http=20002)} &\n"
    )
    found = run(tmp_path, {"run.sh": text}, "0.20.2")
    assert [(c, l, k) for _, c, l, k, _ in found] == [("VC301", 3, col(text, 3, '"kv_both"'))]
    assert "no instance of this run can decode" in found[0][4]


def test_vc301_proxy_sends_prefills_to_a_consumer(tmp_path):
    text = (
        f"CUDA_VISIBLE_DEVICES=0 VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve m --port 8100 "
        f"--kv-transfer-config {nixl('kv_consumer')} &\n"
        f"CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve m --port 8200 "
        f"--kv-transfer-config {nixl('kv_consumer')} &\n"
        "python3 toy_proxy_server.py --port 8000 --prefiller-ports 8100 --decoder-ports 8200\n"
    )
    found = run(tmp_path, {"run.sh": text})
    assert [(c, l, k) for _, c, l, k, _ in found] == [("VC301", 1, col(text, 1, '"kv_consumer"'))]
    assert "sends prefill requests here" in found[0][4]


def test_vc301_proxy_that_drops_transfer_params(tmp_path):
    text = (
        f"CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8100 --kv-transfer-config {nixl('kv_producer')} &\n"
        f"CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve m --port 8200 "
        f"--kv-transfer-config {nixl('kv_consumer')} &\n"
        "python3 /opt/disagg_proxy_demo.py --prefill localhost:8100 --decode localhost:8200\n"
    )
    found = run(tmp_path, {"run.sh": text})
    assert [(c, l, k) for _, c, l, k, _ in found] == [("VC301", 3, col(text, 3, "/opt/disagg_proxy_demo.py"))]
    assert "disagg_proxy_demo.py does not work as the proxy of NixlConnector" == found[0][4]


def test_vc301_deprecated_role_is_a_warning(tmp_path):
    p = tmp_path / "run.sh"
    text = f"vllm serve m --kv-transfer-config {nixl('kv_both')}\n"
    p.write_text(text)
    (d,) = [d for d in lint_paths([str(p)], "0.33.0").diagnostics if d.code == "VC301"]
    assert (d.severity, d.span.line, d.span.col) == ("warning", 1, col(text, 1, '"kv_both"'))
    assert lint_paths([str(p)], "0.20.2").diagnostics == []


def test_vc301_files_of_one_side_each(tmp_path):
    p = f"vllm serve m --kv-transfer-config {mc('kv_producer')}\n"
    assert run(tmp_path, {"a-prefill.sh": p, "b-prefill.sh": p}) == []  # two deployments
    found = run(tmp_path, {"a-prefill.sh": p, "b-prefill.sh": p}, together=True)
    assert [(f, c, l, k) for f, c, l, k, _ in found] == [("b-prefill.sh", "VC301", 1, col(p, 1, '"kv_producer"'))]
    assert "no instance of this run can decode" in found[0][4]
    d = p.replace("kv_producer", "kv_consumer")
    assert run(tmp_path, {"a-prefill.sh": p, "b-decode.sh": d}, together=True) == []


@pytest.mark.parametrize(
    "text",
    [
        # one side only, alone: the other side is elsewhere
        f"vllm serve m --kv-transfer-config {mc('kv_consumer')}\n",
        # two decode instances of a decode node
        f"CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8100 --kv-transfer-config {mc('kv_consumer')} &\n"
        f"CUDA_VISIBLE_DEVICES=1 vllm serve m --port 8200 --kv-transfer-config {mc('kv_consumer')} &\n",
        # the decode instance is started over ssh: its upstream names no server of the run
        f"vllm serve m --port 8010 --kv-transfer-config {mc('kv_producer')} &\n"
        "python3 mooncake_connector_proxy.py --prefill http://10.0.0.2:8010 --decode http://10.0.0.3:8020\n",
        # offloading is local: no roles to pair
        'vllm serve m --kv-transfer-config \'{"kv_connector":"OffloadingConnector","kv_role":"kv_both",'
        '"kv_connector_extra_config":{"cpu_bytes_to_use":1000000000}}\'\n',
    ],
)
def test_vc301_silent(tmp_path, text):
    assert lint(tmp_path, text, codes={"VC301"}) == []


def test_containers_are_hosts_of_their_own(tmp_path):
    text = (
        "docker run --gpus all -p 8100:8000 vllm/vllm-openai:latest --model m &\n"
        "docker run --gpus all -p 8200:8000 vllm/vllm-openai:latest --model m &\n"
    )
    assert lint(tmp_path, text) == []
    # the proxy reaches them through the published ports, which vcfg does not map
    text += "python3 toy_proxy_server.py --prefiller-ports 8100 --decoder-ports 8200\n"
    assert lint(tmp_path, text) == []


def test_vc302_side_channel_offsets_follow_the_release(tmp_path):
    # until 0.11.0 every TP worker listens on base + dp_rank*TP + tp_rank: TP-2 instances
    # one port apart overlap; from 0.11.2 one port per DP rank is enough
    found = lint(tmp_path, CLEAN_2P2D, "0.10.2")
    assert found == [
        ("VC302", 4, col(CLEAN_2P2D, 4, "$((5600 + i))")),
        ("VC302", 9, col(CLEAN_2P2D, 9, "$((5700 + i))")),
    ]
    assert lint(tmp_path, CLEAN_2P2D, "0.11.2") == []


def test_vc305_user_pain_sketch_alone(tmp_path):
    # identical upstreams need no server in the run to be wrong
    text = "python3 toy_proxy_server.py --prefiller-ports 20002 --decoder-ports 20002\n"
    assert lint(tmp_path, text) == [("VC305", 1, col(text, 1, "20002", 2))]


# --------------------------------------------------------------------------- pack-driven facts

ACME_PD_PACK = """
[[connector]]
name = "AcmeConnector"
versions = ">=0.10"
same_across_pd = ["max_num_seqs"]
sources = ["acme-corp/vllm-acme:acme/connector.py"]

[[connector.roles]]
prefill = ["kv_producer"]
decode = ["kv_consumer"]

[[connector.keys]]
name = "api_port"
equals_option = "port"

[[connector.ports]]
name = "sender"
base = "extra:sender_port"
default = 7000
unbound_roles = ["kv_consumer"]
unbound_with_key = "external_sender"

[[connector.ports]]
name = "store (client side)"
base = "extra:store_port"
default = 7100
connects_only = true
"""


def _acme(role: str, extra: str) -> str:
    return f'\'{{"kv_connector":"AcmeConnector","kv_role":"{role}","kv_connector_extra_config":{{{extra}}}}}\''


def test_a_user_pack_teaches_the_run_rules(tmp_path):
    """same_across_pd (VC303), equals_option (VC304), unbound_roles / unbound_with_key /
    connects_only (VC302) are pack data: a connector vcfg does not know gets them all."""
    packs = tmp_path / "packs"
    packs.mkdir()
    (packs / "acme.toml").write_text(ACME_PD_PACK)
    text = (
        f"CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8100 --max-num-seqs 64 "
        f"--kv-transfer-config {_acme('kv_producer', '')} &\n"
        # a second producer on the same host: its sender port collides, unless external
        f"CUDA_VISIBLE_DEVICES=1 vllm serve m --port 8101 --max-num-seqs 64 "
        f"--kv-transfer-config {_acme('kv_producer', '')} &\n"
        f"CUDA_VISIBLE_DEVICES=2 vllm serve m --port 8102 --max-num-seqs 64 "
        f"--kv-transfer-config {_acme('kv_producer', chr(34) + 'external_sender' + chr(34) + ':1')} &\n"
        # consumers bind no sender port; the store port is only connected to
        f"CUDA_VISIBLE_DEVICES=3 vllm serve m --port 8200 --max-num-seqs 32 "
        f"--kv-transfer-config {_acme('kv_consumer', chr(34) + 'api_port' + chr(34) + ':8201')} &\n"
        f"CUDA_VISIBLE_DEVICES=4 vllm serve m --port 8300 --max-num-seqs 64 "
        f"--kv-transfer-config {_acme('kv_consumer', '')} &\n"
    )
    (tmp_path / "run.sh").write_text(text)
    res = lint_paths([str(tmp_path / "run.sh")], "0.33.0", knowledge_dirs=[packs])
    assert not res.internal_errors
    got = sorted((d.code, d.span.line) for d in res.diagnostics if d.code in CODES)
    assert ("VC302", 2) in got and ("VC302", 3) not in got  # the external sender binds nothing
    assert not [g for g in got if g[0] == "VC302" and g[1] >= 4]  # consumers: no sender, no store
    assert ("VC304", 4) in got  # api_port 8201 is not --port 8200
    assert ("VC303", 4) in got  # max_num_seqs 32 on a decode instance, 64 on the prefills
    assert ("VC303", 5) not in got


def test_an_empty_extra_config_key_does_not_unbind_ports(tmp_path):
    # a port with no unbound_with_key stays bound whatever keys the extra config has
    extra = '"kv_connector_extra_config":{"":1}'
    text = (
        f"vllm serve m --port 8100 --kv-transfer-config "
        f'\'{{"kv_connector":"MooncakeConnector","kv_role":"kv_producer",{extra}}}\' &\n'
        f"vllm serve m --port 8200 --kv-transfer-config {mc('kv_producer')} &\n"
    )
    assert lint(tmp_path, text, codes={"VC302"}) == [("VC302", 2, col(text, 2, '"MooncakeConnector"'))]
