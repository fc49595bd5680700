"""Launch-level cross-checks: the constraint engine (VC201-VC203) and the environment
x connector rules VC107, VC108.  Positions are asserted as line:column."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from launch_context import launch_context as _launch

from vcfg.lint import constraints as c
from vcfg.lint.engine import lint_paths

CODES = {"VC107", "VC108", "VC201", "VC202", "VC203"}


def lint(tmp_path, text, version="0.33.0", name="run.sh", codes=CODES):
    p = tmp_path / name
    p.write_text(text)
    res = lint_paths([str(p)], version)
    assert not res.internal_errors, res.internal_errors
    return [(d.code, d.span.line, d.span.col, d.message) for d in res.diagnostics if d.code in codes]


def where(found):
    return [(code, line, col) for code, line, col, _ in found]


# --------------------------------------------------------------------------- VC201


def test_vc201_user_pain_sketch(tmp_path):
    found = lint(
        tmp_path, "vllm serve m --no-enable-chunked-prefill --max-model-len 32768 --max-num-batched-tokens 8192\n"
    )
    assert where(found) == [("VC201", 1, 64)]
    assert "`--max-num-batched-tokens` 8192" in found[0][3] and "`--max-model-len` 32768" in found[0][3]


def test_vc201_points_at_the_later_option(tmp_path):
    found = lint(
        tmp_path, "vllm serve m --max-num-batched-tokens=8k \\\n  --disable-chunked-prefill \\\n  --max-model-len 16k\n"
    )
    assert where(found) == [("VC201", 3, 3)]
    assert "8000" in found[0][3] and "16000" in found[0][3]


@pytest.mark.parametrize(
    "text",
    [
        # chunked prefill left on (its default is decided later, and is on for generative models)
        "vllm serve m --max-model-len 32768 --max-num-batched-tokens 8192\n",
        "vllm serve m --enable-chunked-prefill --max-model-len 32768 --max-num-batched-tokens 8192\n",
        # an unset budget is raised to max_model_len by vLLM (engine/arg_utils.py:3190)
        "vllm serve m --no-enable-chunked-prefill --max-model-len 32768\n",
        # the model's length is not known without its config
        "vllm serve m --no-enable-chunked-prefill --max-num-batched-tokens 8192\n",
        "vllm serve m --no-enable-chunked-prefill --max-model-len auto --max-num-batched-tokens 8192\n",
        "vllm serve m --no-enable-chunked-prefill --max-model-len $LEN --max-num-batched-tokens 8192\n",
        "vllm serve m --no-enable-chunked-prefill --max-model-len 8192 --max-num-batched-tokens 8192\n",
    ],
)
def test_vc201_silent(tmp_path, text):
    assert lint(tmp_path, text) == []


def test_vc201_only_from_0_11_2(tmp_path):
    # 0.10/0.11.0 turned chunked prefill back on for generative models
    text = "vllm serve m --no-enable-chunked-prefill --max-model-len 32768 --max-num-batched-tokens 8192\n"
    assert lint(tmp_path, text, "0.10.2") == []
    assert where(lint(tmp_path, text, "0.11.2")) == [("VC201", 1, 64)]


def test_vc201_values_from_config_yaml(tmp_path):
    (tmp_path / "serve.yaml").write_text("max-model-len: 32768\nmax-num-batched-tokens: 4096\n")
    found = lint(tmp_path, "vllm serve m --config serve.yaml --no-enable-chunked-prefill\n")
    # both numbers come from the YAML: the finding points into it, at the later key
    assert len(found) == 1
    res = lint_paths([str(tmp_path / "run.sh")], "0.33.0")
    d = next(d for d in res.diagnostics if d.code == "VC201")
    assert d.span.file.endswith("serve.yaml") and (d.span.line, d.span.col) == (2, 1)


# --------------------------------------------------------------------------- VC202


def test_vc202(tmp_path):
    found = lint(tmp_path, "vllm serve m --max-num-seqs 512 --max-num-batched-tokens 256\n")
    assert where(found) == [("VC202", 1, 33)]
    found = lint(tmp_path, "vllm serve m --max-num-batched-tokens 256 --max-num-seqs 512\n")
    assert where(found) == [("VC202", 1, 43)]


@pytest.mark.parametrize(
    "text",
    [
        "vllm serve m --max-num-batched-tokens 256\n",  # max_num_seqs is clamped to it
        "vllm serve m --max-num-seqs 4096\n",  # the budget depends on the GPU
        "vllm serve m --max-num-seqs 256 --max-num-batched-tokens 256\n",
        "vllm serve m --max-num-seqs $SEQS --max-num-batched-tokens 256\n",
    ],
)
def test_vc202_silent(tmp_path, text):
    assert lint(tmp_path, text) == []


# --------------------------------------------------------------------------- VC203


def test_vc203_user_pain_sketch(tmp_path):
    found = lint(tmp_path, "CUDA_VISIBLE_DEVICES=0 vllm serve m -tp 2\n")
    assert where(found) == [("VC203", 1, 37)]
    assert found[0][3] == "`-tp` 2 needs 2 GPUs but `CUDA_VISIBLE_DEVICES=0` makes 1 visible"


def test_vc203_exported_earlier_points_at_the_later_word(tmp_path):
    text = "export CUDA_VISIBLE_DEVICES=0,1\nvllm serve m --tensor-parallel-size 2 -pp 2\n"
    found = lint(tmp_path, text)
    assert where(found) == [("VC203", 2, 39)]
    assert "`--tensor-parallel-size` 2 x `-pp` 2 needs 4 GPUs" in found[0][3]
    # an export shared by two launches: each finding sits at the launch's own -tp
    found = lint(tmp_path, "export CUDA_VISIBLE_DEVICES=0,1\nvllm serve m -tp 4 &\nvllm serve m -tp 4\n")
    assert where(found) == [("VC203", 2, 14), ("VC203", 3, 14)]


def test_vc203_size_from_config_points_at_the_script(tmp_path):
    # the script's own words come after the --config YAML's
    (tmp_path / "serve.yaml").write_text("tensor-parallel-size: 4\n")
    found = lint(tmp_path, "CUDA_VISIBLE_DEVICES=0,1 vllm serve m --config serve.yaml\n")
    assert where(found) == [("VC203", 1, 22)]


def test_vc203_prefill_context_parallel(tmp_path):
    found = lint(tmp_path, "CUDA_VISIBLE_DEVICES=0,1 vllm serve m -tp 2 -pcp 2\n")
    assert where(found) == [("VC203", 1, 45)]


@pytest.mark.parametrize(
    "text",
    [
        "CUDA_VISIBLE_DEVICES=0,1 vllm serve m -tp 2\n",
        "vllm serve m -tp 8\n",  # the caller's GPUs are not known
        "CUDA_VISIBLE_DEVICES=0 vllm serve m -tp 2 --nnodes 2\n",
        "CUDA_VISIBLE_DEVICES=0 vllm serve m -tp 2 --distributed-executor-backend ray\n",
        "CUDA_VISIBLE_DEVICES=0 vllm serve m -tp $TP\n",
        "CUDA_VISIBLE_DEVICES=$GPUS vllm serve m -tp 2\n",
        "CUDA_VISIBLE_DEVICES= vllm serve m -tp 2\n",
        "export CUDA_VISIBLE_DEVICES=0\nsource env.sh\nvllm serve m -tp 2\n",
        "CUDA_VISIBLE_DEVICES=0 docker run vllm/vllm-openai:latest --model m -tp 2\n",
    ],
)
def test_vc203_silent(tmp_path, text):
    assert lint(tmp_path, text) == []


def test_vc203_only_from_0_11_2(tmp_path):
    # before, a too-large world size fell back to Ray (0.10.2 config/parallel.py:384)
    assert lint(tmp_path, "CUDA_VISIBLE_DEVICES=0 vllm serve m -tp 2\n", "0.10.2") == []


# --------------------------------------------------------------------------- engine


def _entry(**kw):
    base = dict(
        code="VC999",
        operands=(c.Operand("max_num_seqs", given=True), c.Operand("port")),
        violated=lambda v: v.max_num_seqs > v.port,
        message="`{max_num_seqs.name}` {max_num_seqs} > `{port.name}` {port}",
    )
    base.update(kw)
    return c.Constraint(**base)


RULE = SimpleNamespace(diag=lambda span, message, help=None: (span.line, span.col, message, help))


def test_engine_defaults_come_from_the_catalog(tmp_path):
    lc = _launch(tmp_path, "vllm serve m --max-num-seqs 9000\n")
    (hit,) = c.check(RULE, _entry(), lc)
    assert hit[:3] == (1, 14, "`--max-num-seqs` 9000 > `--port` 8000")


def test_engine_undecided_and_excused(tmp_path):
    lc = _launch(tmp_path, "vllm serve m --max-num-seqs 9000 $MORE\n")
    assert list(c.check(RULE, _entry(), lc)) == []  # $MORE may hold --port
    lc = _launch(tmp_path, "vllm serve m --max-num-seqs 9000\n")
    assert list(c.check(RULE, _entry(unless=lambda v: v.port == 8000), lc)) == []
    assert list(c.check(RULE, _entry(versions="<0.20"), lc)) == []
    assert list(c.check(RULE, _entry(violated=lambda v: 1 / 0), lc)) == []  # never raises
    gone = _entry(operands=(c.Operand("no_such_option"), c.Operand("port")), violated=lambda v: True, message="x")
    assert list(c.check(RULE, gone, lc)) == []
    absent = _entry(
        operands=(c.Operand("no_such_option", absent=3), c.Operand("port")),
        violated=lambda v: v.no_such_option == 3,
        message="{no_such_option}",
    )
    (hit,) = c.check(RULE, absent, lc)
    assert hit[2] == "3" and hit[:2] == (1, 6)  # nothing written: the launch word


def test_engine_env_operand(tmp_path):
    entry = _entry(
        operands=(c.Operand("env:CUDA_VISIBLE_DEVICES", convert=c.device_count),),
        violated=lambda v: v.CUDA_VISIBLE_DEVICES == 3,
        message="{CUDA_VISIBLE_DEVICES.text} -> {CUDA_VISIBLE_DEVICES}",
    )
    lc = _launch(tmp_path, "CUDA_VISIBLE_DEVICES=0,2,GPU-aa vllm serve m\n")
    (hit,) = c.check(RULE, entry, lc)
    assert hit[:3] == (1, 22, "0,2,GPU-aa -> 3")


def test_converters():
    assert c.positive_int(-1) is c.UNKNOWN and c.positive_int(True) is c.UNKNOWN
    assert c.positive_int(4) == 4
    assert c.device_count("") is c.UNKNOWN and c.device_count("0, 1") == 2


# --------------------------------------------------------------------------- VC107


FLAGCX = '\'{"kv_connector":"FlagCXConnector","kv_role":"kv_producer"}\''


def test_vc107_both_unset(tmp_path):
    found = lint(tmp_path, f"unset FLAGCX_PATH FLAGCX_LIB_PATH\nvllm serve m --kv-transfer-config {FLAGCX}\n")
    assert where(found) == [("VC107", 1, 19)]


def test_vc107_one_unset_none_set(tmp_path):
    text = f"export VLLM_LOGGING_LEVEL=INFO\nunset FLAGCX_PATH\nvllm serve m --kv-transfer-config {FLAGCX}\n"
    found = lint(tmp_path, text)
    assert where(found) == [("VC107", 2, 7)]
    assert "sets none of `FLAGCX_LIB_PATH`" in found[0][3]


def test_vc107_env_u_prefix(tmp_path):
    found = lint(tmp_path, f"env -u FLAGCX_PATH vllm serve m --kv-transfer-config {FLAGCX}\n")
    assert where(found) == [("VC107", 1, 8)]


@pytest.mark.parametrize(
    "text",
    [
        f"unset FLAGCX_PATH\nexport FLAGCX_LIB_PATH=/opt/flagcx/lib/libflagcx.so\nvllm serve m --kv-transfer-config {FLAGCX}\n",
        f"unset FLAGCX_PATH\nFLAGCX_PATH=/opt/FlagCX vllm serve m --kv-transfer-config {FLAGCX}\n",
        f"vllm serve m --kv-transfer-config {FLAGCX}\n",  # left to the caller
        "unset FLAGCX_PATH FLAGCX_LIB_PATH\nvllm serve m --kv-transfer-config "
        '\'{"kv_connector":"NixlConnector","kv_role":"kv_producer"}\'\n',
        f"vllm serve m --kv-transfer-config {FLAGCX} &\nunset FLAGCX_PATH FLAGCX_LIB_PATH\n",
    ],
)
def test_vc107_silent(tmp_path, text):
    assert lint(tmp_path, text) == []


def test_vc107_plugins_list_without_the_plugin(tmp_path):
    text = f"export FLAGCX_PATH=/opt/FlagCX\nexport VLLM_PLUGINS=lora_resolver\nvllm serve m --kv-transfer-config {FLAGCX}\n"
    # the plugin left out of VLLM_PLUGINS is VC027's finding (the connector is not
    # registered), not VC107's: one mistake, one report
    assert lint(tmp_path, text) == []
    found = lint(tmp_path, text, codes={"VC027"})
    assert [c for c, *_ in found] == ["VC027"]
    assert lint(tmp_path, text.replace("lora_resolver", "lora_resolver,fl"), codes={"VC027", "VC107"}) == []


# --------------------------------------------------------------------------- VC108


NIXL = '\'{"kv_connector":"NixlConnector","kv_role":"kv_producer"}\''


def test_vc108_user_pain_sketch(tmp_path):
    text = f"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True vllm serve m --kv-transfer-config {NIXL}\n"
    assert where(lint(tmp_path, text)) == [("VC108", 1, 25)]
    text = f"export PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:512,expandable_segments:True\nvllm serve m --kv-transfer-config {NIXL}\n"
    assert where(lint(tmp_path, text)) == [("VC108", 1, 54)]


def test_vc108_offloading_size_is_a_connector(tmp_path):
    text = "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True vllm serve m --kv-offloading-size 16\n"
    assert where(lint(tmp_path, text)) == [("VC108", 1, 25)]


@pytest.mark.parametrize(
    "text,version",
    [
        (
            f"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True vllm serve m --enable-cumem-allocator --kv-transfer-config {NIXL}\n",
            "0.33.0",
        ),
        (
            f"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True vllm serve m --enable-sleep-mode --kv-transfer-config {NIXL}\n",
            "0.33.0",
        ),
        (
            f"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True vllm serve m --enable-sleep-mode --kv-transfer-config {NIXL}\n",
            "0.21.0",
        ),
        (f"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:False vllm serve m --kv-transfer-config {NIXL}\n", "0.33.0"),
        ("PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True vllm serve m\n", "0.33.0"),
        (f"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True vllm serve m --kv-transfer-config {NIXL}\n", "0.20.2"),
        (
            f"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True vllm serve m --enable-sleep-mode=$S --kv-transfer-config {NIXL}\n",
            "0.33.0",
        ),
    ],
)
def test_vc108_silent(tmp_path, text, version):
    assert lint(tmp_path, text, version) == []


def test_vc108_first_release(tmp_path):
    text = f"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True vllm serve m --kv-transfer-config {NIXL}\n"
    assert where(lint(tmp_path, text, "0.21.0")) == [("VC108", 1, 25)]
