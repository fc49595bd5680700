"""The bash front end: one small script per pattern of
shared/research/launch-script-patterns.md, asserting argv, environment and spans."""

from pathlib import Path

import pytest

from vcfg.launch.model import BENCH_SERVE, DYNAMO, PROXY, SERVE, plan_to_json
from vcfg.launch.shell import parse_markdown, parse_script

FIX = Path(__file__).parent / "fixtures" / "launch"


def plan(src, **kw):
    return parse_script(src, "t.sh", **kw)


def one(src, kind=SERVE, **kw):
    p = plan(src, **kw)
    launches = [i for i in p.invocations if i.kind == kind]
    assert len(launches) == 1, [i.entrypoint for i in p.invocations]
    return launches[0]


def args(inv):
    return [w.text for w in inv.args]


def col_of(src, needle, occurrence=0):
    """1-based (line, col) of the n-th occurrence of needle in src."""
    idx = -1
    for _ in range(occurrence + 1):
        idx = src.index(needle, idx + 1)
    before = src[:idx]
    return before.count("\n") + 1, idx - (before.rfind("\n") + 1) + 1


# --------------------------------------------------------------------------- the seed


def test_seed_script_one_background_launch_with_env():
    src = (FIX / "seed_decode.sh").read_bytes()
    p = parse_script(src, "seed_decode.sh")
    assert p.problems == ()
    assert len(p.invocations) == 1
    inv = p.invocations[0]
    assert inv.kind == SERVE and inv.entrypoint == "vllm serve"
    assert inv.background is True
    assert inv.wrappers == ("nohup",)
    assert inv.redirects == ("> decode-ori.log",)
    env = inv.exported_env()
    assert env["VLLM_RPC_TIMEOUT"].value.text == "600000"
    assert env["VLLM_ENGINE_ITERATION_TIMEOUT_S"].value.text == "600"
    assert env["USE_FLAGGEMS"].value.text == "0"
    assert env["PYTHONPATH"].value.text == "1"
    assert "FLAGCX_PATH" not in env
    assert inv.env["FLAGCX_PATH"].unset is True
    # the unset then export of PYTHONPATH is in the timeline, in order
    kinds = [(e.kind, e.name) for e in p.timeline]
    assert kinds == [
        ("export", "VLLM_RPC_TIMEOUT"),
        ("export", "VLLM_ENGINE_ITERATION_TIMEOUT_S"),
        ("export", "USE_FLAGGEMS"),
        ("unset", "PYTHONPATH"),
        ("export", "PYTHONPATH"),
        ("unset", "FLAGCX_PATH"),
    ]
    assert args(inv)[0] == "/inspire/hdd/global_public/public_models/deepseek-ai/DeepSeek-V3.2/"
    assert args(inv)[1:5] == ["--host", "0.0.0.0", "--port", "20002"]
    assert inv.host.text == "0.0.0.0" and inv.port.text == "20002"
    assert inv.port.span.line == 9 and inv.port.span.col == 8


def test_seed_script_json_keys_map_to_script_columns():
    text = (FIX / "seed_decode.sh").read_text()
    inv = parse_script(text, "seed_decode.sh").invocations[0]
    kv = inv.args[-1]
    assert kv.text.startswith('{"kv_connector":"P2pNcclConnector"')
    for key in ("kv_role", "kv_port", "proxy_ip", "http_port"):
        i = kv.value.index(f'"{key}"')
        sp = kv.span_of(i, i + len(key) + 2)
        assert (sp.line, sp.col) == col_of(text, f'"{key}"')
        assert sp.end_col == sp.col + len(key) + 2
    # the value word starts after the opening quote
    assert (kv.span.line, kv.span.col) == (19, 1)
    assert kv.span_of(0, 1).col == 2


def test_plan_to_json_round_trips_through_json():
    import json

    p = parse_script((FIX / "seed_decode.sh").read_bytes(), "seed_decode.sh")
    d = json.loads(json.dumps(plan_to_json(p)))
    inv = d["invocations"][0]
    assert inv["background"] is True
    assert inv["env"]["FLAGCX_PATH"]["unset"] is True
    assert inv["args"][3]["text"] == "--port"


# --------------------------------------------------------------------------- 1. continuation


def test_continuation_indented_with_tabs_and_spaces():
    src = "vllm serve m \\\n\t  --port 1 \\\n    \t--seed 2\n"
    inv = one(src)
    assert args(inv) == ["m", "--port", "1", "--seed", "2"]
    assert (inv.args[3].span.line, inv.args[3].span.col) == (3, 6)


def test_python_then_module_on_next_line():
    src = "python3 \\\n  -m vllm.entrypoints.openai.api_server \\\n  --model m --port 8100\n"
    inv = one(src)
    assert inv.entrypoint == "python -m vllm.entrypoints.openai.api_server"
    assert inv.subcommand == ()
    assert args(inv) == ["--model", "m", "--port", "8100"]
    assert inv.port.text == "8100"


def test_commented_line_inside_continuation_splits_the_command():
    src = "vllm serve m \\\n  --port 1 \\\n  # --seed 3 \\\n  --max-num-seqs 4\n"
    p = plan(src)
    assert [args(i) for i in p.invocations] == [["m", "--port", "1"]]
    probs = [x for x in p.problems if x.code == "split-command"]
    assert len(probs) == 1 and probs[0].span.line == 4
    assert "comment on line 3" in probs[0].message


def test_missing_backslash_splits_the_command():
    src = "vllm serve m --port 1\n  --seed 3\n"
    p = plan(src)
    assert args(p.invocations[0]) == ["m", "--port", "1"]
    (prob,) = [x for x in p.problems if x.code == "split-command"]
    assert (prob.span.line, prob.span.col) == (2, 3)


def test_trailing_whitespace_only_line_ends_command_cleanly():
    src = "vllm serve m \\\n  --port 1 \\\n   \nvllm serve n\n"
    p = plan(src)
    assert [args(i) for i in p.invocations] == [["m", "--port", "1"], ["n"]]
    assert p.problems == ()


def test_space_after_backslash_is_reported():
    src = "vllm serve m \\ \n  --port 1\n"
    p = plan(src)
    codes = [x.code for x in p.problems]
    assert "split-command" in codes


# --------------------------------------------------------------------------- 2. environment


def test_plain_assignment_is_not_exported():
    src = "VLLM_NIXL_SIDE_CHANNEL_PORT=5601\nexport VLLM_X=1\nvllm serve m\n"
    inv = one(src)
    b = inv.env["VLLM_NIXL_SIDE_CHANNEL_PORT"]
    assert b.value.text == "5601" and b.exported is False
    assert "VLLM_NIXL_SIDE_CHANNEL_PORT" not in inv.exported_env()
    assert inv.exported_env()["VLLM_X"].value.text == "1"
    assert (b.span.line, b.span.col) == (1, 1)


def test_assignment_to_exported_variable_stays_exported():
    inv = one("export A=1\nA=2\nvllm serve m\n")
    assert inv.env["A"].exported and inv.env["A"].value.text == "2"


def test_set_a_exports_plain_assignments():
    p = plan("set -a\nA=1\nset +a\nB=2\nvllm serve m\n")
    inv = p.invocations[0]
    assert inv.env["A"].exported is True
    assert inv.env["B"].exported is False
    assert [e.kind for e in p.timeline if e.kind == "allexport"] == ["allexport", "allexport"]


def test_export_forms_and_unexport():
    src = 'A=1\nexport A\nexport B="x y" C\ndeclare -x D=4\nexport -n D\nvllm serve m\n'
    inv = one(src)
    assert inv.env["A"].exported and inv.env["A"].value.text == "1"
    assert inv.env["B"].value.text == "x y"
    assert inv.env["C"].exported and inv.env["C"].value is None
    assert "C" not in inv.exported_env()
    assert inv.env["D"].exported is False


def test_prefix_assignments_one_per_continuation_line():
    src = (
        "CUDA_VISIBLE_DEVICES=0 \\\n"
        "    VLLM_NIXL_SIDE_CHANNEL_PORT=5600 \\\n"
        "    UCX_TLS=cuda_ipc,cuda_copy,tcp \\\n"
        "    vllm serve m --port 8100 &\n"
    )
    inv = one(src)
    assert [e.name for e in inv.prefixes] == ["CUDA_VISIBLE_DEVICES", "VLLM_NIXL_SIDE_CHANNEL_PORT", "UCX_TLS"]
    env = inv.exported_env()
    assert env["UCX_TLS"].value.text == "cuda_ipc,cuda_copy,tcp"
    assert env["VLLM_NIXL_SIDE_CHANNEL_PORT"].source == "prefix"
    assert (env["UCX_TLS"].span.line, env["UCX_TLS"].span.col) == (3, 5)
    assert inv.background
    # prefixes are for the command only
    p = plan(src + "vllm serve n\n")
    assert "UCX_TLS" not in p.invocations[1].env


def test_export_of_command_output_is_unknown():
    src = "export VLLM_HOST_IP=$(hostname -I | awk '{print $1}')\nvllm serve m\n"
    inv = one(src)
    b = inv.env["VLLM_HOST_IP"]
    assert b.exported and not b.value.known
    assert "hostname -I" in b.value.describe_unknown()


def test_default_expansion_is_used_with_an_assumption():
    src = 'PORT=${PORT:-8000}\nDYN_SYSTEM_PORT=${DYN_SYSTEM_PORT1:-8081} vllm serve m --port "${PORT}"\n'
    inv = one(src)
    assert args(inv) == ["m", "--port", "8000"]
    assert inv.env["DYN_SYSTEM_PORT"].value.text == "8081"
    assert inv.args[2].assumptions and "PORT" in inv.args[2].assumptions[0]
    # the default's characters point at the default text in the script
    sp = inv.env["DYN_SYSTEM_PORT"].value.span_of(0, 4)
    assert (sp.line, sp.col) == col_of(src, "8081")


def test_caller_environment_overrides_defaults():
    inv = one("vllm serve m --port ${PORT:-8000}\n", environ={"PORT": "9000"})
    assert args(inv) == ["m", "--port", "9000"]


def test_unset_variable_in_script_is_a_hole_not_a_guess():
    inv = one("vllm serve $MODEL --port $PORT\n")
    assert inv.args[0].text is None and "$MODEL is not set" in inv.args[0].describe_unknown()
    assert inv.args_complete is False  # unquoted unknowns may split


def test_source_and_eval_of_unknown_make_env_unknown():
    src = 'source common.sh\neval "$(python3 -c "print(1)")"\nvllm serve m\n'
    p = plan(src)
    kinds = [u.kind for u in p.unknowns]
    assert kinds == ["source", "eval"]
    inv = p.invocations[0]
    assert [u.kind for u in inv.env_unknowns] == ["source", "eval"]
    assert inv.env_unknowns[0].span.line == 1


def test_docker_env_flags_and_image_entrypoint():
    src = (
        'docker run --gpus all -e "VLLM_LOGGING_LEVEL=DEBUG" --env HF_TOKEN=x -p 8000:8000 '
        "vllm/vllm-openai:latest meta-llama/Llama-3.1-8B --port 8000 -tp 2\n"
    )
    inv = one(src)
    assert inv.entrypoint == "docker run vllm/vllm-openai"
    assert inv.subcommand == ("serve",)
    assert args(inv) == ["meta-llama/Llama-3.1-8B", "--port", "8000", "-tp", "2"]
    assert inv.inherits_env is False
    assert inv.exported_env()["VLLM_LOGGING_LEVEL"].value.text == "DEBUG"
    assert set(inv.env) == {"VLLM_LOGGING_LEVEL", "HF_TOKEN"}


# --------------------------------------------------------------------------- 3. JSON quoting


def _kv(inv):
    i = args(inv).index("--kv-transfer-config")
    return inv.args[i + 1]


def test_json_double_quoted_with_escapes_and_variables():
    src = 'kv_port=21001\nvllm serve m --kv-transfer-config "{\\"kv_connector\\":\\"P2pNcclConnector\\",\\"kv_port\\":\\"$kv_port\\"}"\n'
    w = _kv(one(src))
    assert w.text == '{"kv_connector":"P2pNcclConnector","kv_port":"21001"}'
    # an escaped quote maps to the quote itself, a variable's value to its definition
    i = w.value.index('"kv_port"')
    assert w.char_span(i).col == col_of(src, '\\"kv_port')[1] + 1
    j = w.value.index("21001")
    assert (w.char_span(j).line, w.char_span(j).col) == (1, 9)


def test_json_quote_splicing():
    src = (
        "VLLM_HOST_IP=10.0.0.1\n"
        "vllm serve m --kv-transfer-config "
        '\'{"kv_connector":"P2pNcclConnector","proxy_ip":"\'"$VLLM_HOST_IP"\'","proxy_port":"30001"}\'\n'
    )
    w = _kv(one(src))
    assert w.text == '{"kv_connector":"P2pNcclConnector","proxy_ip":"10.0.0.1","proxy_port":"30001"}'
    i = w.value.index('"proxy_port"')
    assert (w.char_span(i).line, w.char_span(i).col) == col_of(src, '"proxy_port"')


def test_multiline_json_in_single_quotes():
    src = 'vllm serve m --kv-transfer-config \'{\n    "kv_connector": "MooncakeConnector",\n    "kv_role": "kv_both"\n  }\'\n'
    w = _kv(one(src))
    assert '"kv_role": "kv_both"' in w.text
    i = w.value.index('"kv_role"')
    assert (w.char_span(i).line, w.char_span(i).col) == (3, 5)


def test_ansi_c_json_spanning_lines():
    src = 'vllm serve m --speculative-config $\'{"method": "ngram",\\n "num_speculative_tokens": 5}\'\n'
    inv = one(src)
    assert inv.args[2].text == '{"method": "ngram",\n "num_speculative_tokens": 5}'
    w = inv.args[2]
    i = w.value.index("\n")
    assert w.char_span(i).col == col_of(src, "\\n")[1]
    k = w.value.index('"num_')
    assert w.char_span(k).col == col_of(src, '"num_')[1]


def test_heredoc_json_through_a_variable_and_an_array():
    src = (
        "kv_port=21001\n"
        "KV_JSON=$(cat <<EOF\n"
        '{"kv_connector": "NixlConnector", "port": $kv_port}\n'
        "EOF\n"
        ")\n"
        'CMD=(vllm serve m --kv-transfer-config "$KV_JSON")\n'
        '"${CMD[@]}" &\n'
    )
    inv = one(src)
    w = _kv(inv)
    assert w.text == '{"kv_connector": "NixlConnector", "port": 21001}'
    assert inv.background
    i = w.value.index('"kv_connector"')
    assert (w.char_span(i).line, w.char_span(i).col) == (3, 2)


def test_json_assembled_from_fragments_with_unknown_part():
    src = "vllm serve m --kv-transfer-config '{\"kv_connector\":\"NixlConnector\"'${KV_EXTRA}'}'\n"
    w = _kv(one(src))
    assert w.text is None
    assert w.value == '{"kv_connector":"NixlConnector"}'
    assert "KV_EXTRA" in w.describe_unknown()


def test_command_string_with_inner_quotes_then_eval():
    src = (
        'SERVER_CMD="vllm serve m --kv-transfer-config \'{\\"kv_connector\\":\\"MoRIIOConnector\\"}\' --port 8000"\n'
        'eval "$SERVER_CMD 2>&1 | tee -a server.log &"\n'
    )
    inv = one(src)
    assert args(inv) == ["m", "--kv-transfer-config", '{"kv_connector":"MoRIIOConnector"}', "--port", "8000"]
    assert inv.background is True
    # positions of the eval'd words point into the original assignment (line 1)
    w = inv.args[2]
    i = w.value.index('"kv_connector"')
    assert w.char_span(i).line == 1
    assert w.char_span(i).col == col_of(src, '\\"kv_connector')[1] + 1


def test_triple_escaping_through_docker_exec_bash_c():
    src = 'docker exec -it c bash -c "vllm serve m --kv-transfer-config \'{\\\\\\"kv_connector\\\\\\":\\\\\\"X\\\\\\"}\'"\n'
    inv = one(src)
    # bash keeps the backslashes inside single quotes: vLLM gets invalid JSON
    assert inv.args[2].text == '{\\"kv_connector\\":\\"X\\"}'
    assert inv.inherits_env is False


def test_dotted_equals_and_separate_line_forms():
    src = (
        "vllm serve a --kv-transfer-config.kv_role kv_both --kv-transfer-config.kv_connector_extra_config.backends+ LIBFABRIC\n"
        'vllm serve b --kv-transfer-config=\'{"kv_connector":"X"}\'\n'
        'vllm serve c --kv-transfer-config \\\n  \'{"kv_connector":"Y"}\'\n'
    )
    p = plan(src)
    assert args(p.invocations[0])[1:] == [
        "--kv-transfer-config.kv_role",
        "kv_both",
        "--kv-transfer-config.kv_connector_extra_config.backends+",
        "LIBFABRIC",
    ]
    assert args(p.invocations[1]) == ["b", '--kv-transfer-config={"kv_connector":"X"}']
    w = p.invocations[2].args[2]
    assert w.text == '{"kv_connector":"Y"}' and (w.span.line, w.span.col) == (4, 3)


# --------------------------------------------------------------------------- 4. indirection


def test_unquoted_variable_is_split_into_words_with_positions():
    src = 'EXTRA="--max-model-len 4k  --enforce-eager"\nvllm serve m $EXTRA\n'
    inv = one(src)
    assert args(inv) == ["m", "--max-model-len", "4k", "--enforce-eager"]
    w = inv.args[3]
    assert (w.char_span(0).line, w.char_span(0).col) == col_of(src, "--enforce-eager")
    assert (w.span.line, w.span.col) == (2, 14)  # where the word is used


def test_arrays_appended_and_expanded():
    src = (
        "PROXY_ARGS=(--port 9000)\n"
        "PROXY_ARGS+=(--prefill http://a:8100 --decode http://b:8200)\n"
        'python3 disagg_proxy_server.py "${PROXY_ARGS[@]}" &\n'
    )
    inv = one(src, kind=PROXY)
    assert args(inv) == ["--port", "9000", "--prefill", "http://a:8100", "--decode", "http://b:8200"]
    assert inv.port.text == "9000"
    assert [(u.role, u.url.text) for u in inv.upstreams] == [("prefill", "http://a:8100"), ("decode", "http://b:8200")]


def test_string_accumulation_and_unquoted_command_variable():
    src = (
        'proxy_param="--port 10001"\n'
        'proxy_param="${proxy_param} --decode localhost:8200"\n'
        'PROXY_CMD="python3 toy_proxy_server.py $proxy_param"\n'
        "$PROXY_CMD &\n"
    )
    inv = one(src, kind=PROXY)
    assert args(inv) == ["--port", "10001", "--decode", "localhost:8200"]
    assert inv.background


def test_unknown_array_is_an_explicit_unknown():
    src = 'vllm serve m "${OFFLOAD_ARGS[@]}" --port 1\n'
    p = plan(src)
    inv = p.invocations[0]
    assert inv.args_complete is False
    assert [u.kind for u in p.unknowns] == ["array"]
    assert args(inv)[-2:] == ["--port", "1"]


def test_ifs_read_into_array_then_loop_over_indices():
    src = (
        'GPUS="0,1"\n'
        "IFS=',' read -r -a GPU_ARRAY <<< \"$GPUS\"\n"
        'for i in "${!GPU_ARRAY[@]}"; do\n'
        "  CUDA_VISIBLE_DEVICES=${GPU_ARRAY[$i]} vllm serve m --port $((8100 + i)) &\n"
        "done\n"
    )
    p = plan(src)
    assert [args(i) for i in p.invocations] == [["m", "--port", "8100"], ["m", "--port", "8101"]]
    assert [i.env["CUDA_VISIBLE_DEVICES"].value.text for i in p.invocations] == ["0", "1"]
    assert [i.iteration for i in p.invocations] == ["i=0", "i=1"]
    assert all(i.in_loop and i.background for i in p.invocations)


# --------------------------------------------------------------------------- 5. multiple instances


def test_seq_loop_with_arithmetic_ports():
    src = (
        "N=2\nTP=4\n"
        "for i in $(seq 0 $((N-1))); do\n"
        "  vllm serve m --port $((8100 + i)) --side $((5659 + i * $TP)) &\n"
        "done\n"
    )
    p = plan(src)
    assert [args(i)[2] for i in p.invocations] == ["8100", "8101"]
    assert [args(i)[4] for i in p.invocations] == ["5659", "5663"]
    sp = p.invocations[1].args[2].span
    assert (sp.line, sp.col) == (4, 23)


def test_c_style_loop_and_counter_variable():
    src = (
        "ID=0\n"
        "for ((i=0;i<3;i++)); do\n"
        "  CUDA_VISIBLE_DEVICES=$ID vllm serve m --port $((8000 + i)) &\n"
        "  ID=$((ID + 1))\n"
        "done\n"
        "vllm serve after --x $ID\n"
    )
    p = plan(src)
    assert [i.env["CUDA_VISIBLE_DEVICES"].value.text for i in p.invocations[:3]] == ["0", "1", "2"]
    assert args(p.invocations[3]) == ["after", "--x", "3"]


def test_unknown_loop_runs_once_with_changed_variables_unknown():
    src = "PORT=8000\nwhile read line; do\n  PORT=$((PORT + 1))\n  vllm serve m --port $PORT &\ndone < hosts.txt\n"
    p = plan(src)
    (inv,) = p.invocations
    assert inv.in_loop and inv.args[2].text is None
    assert "PORT + 1" in inv.args[2].describe_unknown()
    assert "loop at line 2" in inv.env["PORT"].value.describe_unknown() or not inv.env["PORT"].value.known


def test_role_switch_launcher_with_and_without_arguments():
    src = (
        'if [[ $1 == "prefiller" ]]; then\n'
        "  PORT=8100; ROLE=kv_producer\n"
        "else\n"
        "  PORT=8200; ROLE=kv_consumer\n"
        "fi\n"
        "vllm serve m --port $PORT --kv-transfer-config.kv_role $ROLE\n"
    )
    # arguments unknown: one launch per path, the variables of one branch together
    invs = plan(src).invocations
    assert sorted(args(i) for i in invs) == [
        ["m", "--port", "8100", "--kv-transfer-config.kv_role", "kv_producer"],
        ["m", "--port", "8200", "--kv-transfer-config.kv_role", "kv_consumer"],
    ]
    assert {i.path for i in invs} == {"the test at line 1 is true", "the `if` at line 1 takes its `else` branch"}
    inv = one(src, args=["prefiller"])
    assert args(inv) == ["m", "--port", "8100", "--kv-transfer-config.kv_role", "kv_producer"]
    inv = one(src, args=["decoder"])
    assert args(inv)[2] == "8200"


def test_launches_inside_branches_keep_their_own_values():
    src = 'case "$ROLE" in\n  prefill) vllm serve m --port 8100 & ;;\n  decode|d) vllm serve m --port 8200 & ;;\nesac\n'
    p = plan(src)
    assert [args(i)[2] for i in p.invocations] == ["8100", "8200"]
    assert all(i.conditional for i in p.invocations)
    p = plan(src, environ={"ROLE": "d"})
    assert [args(i)[2] for i in p.invocations] == ["8200"]


def test_functions_run_at_each_call_with_their_arguments():
    src = (
        "run_one() {\n"
        "  local port=$1\n"
        "  CUDA_VISIBLE_DEVICES=$2 vllm serve m --port $port > log_$port.log 2>&1 &\n"
        "}\n"
        "run_one 8100 0\n"
        "run_one 8200 1\n"
        "vllm serve x --y ${port:-none}\n"
    )
    p = plan(src)
    assert [(args(i)[2], i.env["CUDA_VISIBLE_DEVICES"].value.text) for i in p.invocations[:2]] == [
        ("8100", "0"),
        ("8200", "1"),
    ]
    assert all(i.function == "run_one" for i in p.invocations[:2])
    assert args(p.invocations[2])[2] == "none"  # local did not leak


def test_function_never_called_is_still_read():
    p = plan("start() {\n  vllm serve m --port $1\n}\n")
    (inv,) = p.invocations
    assert inv.function == "start" and inv.args[2].text is None


# --------------------------------------------------------------------------- 6. background / logging


@pytest.mark.parametrize(
    "line, redirects",
    [
        ("vllm serve m &", ()),
        ("vllm serve m > p.log 2>&1 &", ("> p.log", "2>&1")),
        ("vllm serve m 2>&1 | tee -a p.log &", ("2>&1",)),
        ("vllm serve m > >(tee prefiller.log) 2>&1 &", ("> >(tee prefiller.log)", "2>&1")),
        ("nohup vllm serve m > p.log &", ("> p.log",)),
        ("setsid nohup stdbuf -oL vllm serve m &>p.log &", ("&>p.log",)),
    ],
)
def test_background_forms(line, redirects):
    inv = one(line + "\nPIDS+=($!)\ntrap 'kill $(jobs -pr)' SIGINT SIGTERM EXIT\n")
    assert inv.background is True
    assert args(inv) == ["m"]
    assert inv.redirects == redirects


def test_foreground_launch_and_wrappers():
    src = "numactl --cpunodebind=0 --membind 0 taskset -c 0-7 timeout -s INT 3600 env -u FOO A=1 vllm serve m\n"
    inv = one(src)
    assert inv.background is False
    assert inv.wrappers == ("numactl", "taskset", "timeout", "env")
    assert inv.env["FOO"].unset and inv.env["A"].value.text == "1"


def test_redirect_in_the_middle_keeps_following_arguments():
    inv = one("vllm serve m > log --port 1 2>&1\n")
    assert args(inv) == ["m", "--port", "1"]


# --------------------------------------------------------------------------- 7. readiness loops


def test_readiness_loop_is_not_a_launch():
    src = (
        "port=8100\n"
        'timeout 1200 bash -c "until curl -s localhost:${port}/v1/completions > /dev/null; do sleep 1; done"\n'
        "vllm bench serve --port $port --model m\n"
    )
    p = plan(src)
    assert [i.kind for i in p.invocations] == [BENCH_SERVE]
    assert p.invocations[0].port.text == "8100"


# --------------------------------------------------------------------------- 8. heredocs


def test_heredoc_config_written_then_used():
    src = (
        "L=8192\n"
        "cat > config.yaml << EOF\n"
        "max-model-len: $L\n"
        "gpu_memory_utilization: 0.9\n"
        "EOF\n"
        "vllm serve m --config config.yaml --port 1\n"
    )
    p = plan(src)
    wf = p.written_file("config.yaml")
    assert wf.content.text == "max-model-len: 8192\ngpu_memory_utilization: 0.9\n"
    i = wf.content.value.index("gpu_memory")
    assert (wf.content.char_span(i).line, wf.content.char_span(i).col) == (4, 1)
    assert args(p.invocations[0]) == ["m", "--config", "config.yaml", "--port", "1"]


def test_quoted_heredoc_and_tab_stripping():
    src = "cat <<-'EOF' | tee a.yaml\n\tport: $P\n\tEOF\n"
    wf = plan(src).written_file("a.yaml")
    assert wf.content.text == "port: $P\n"
    assert wf.content.char_span(0).col == 2


# --------------------------------------------------------------------------- 9. entrypoints


@pytest.mark.parametrize(
    "line, kind, entry, expected",
    [
        ("vllm serve m --port 1", SERVE, "vllm serve", ["m", "--port", "1"]),
        ("vllm serve --config f.yaml", SERVE, "vllm serve", ["--config", "f.yaml"]),
        (
            "python -m vllm.entrypoints.openai.api_server --model m",
            SERVE,
            "python -m vllm.entrypoints.openai.api_server",
            ["--model", "m"],
        ),
        (
            "python3.12 -u -m vllm.entrypoints.cli.main serve m",
            SERVE,
            "python -m vllm.entrypoints.cli.main serve",
            ["m"],
        ),
        ("/opt/venv/bin/vllm serve m", SERVE, "vllm serve", ["m"]),
        ("uv run vllm serve m", SERVE, "vllm serve", ["m"]),
        # deepset-ai/haystack-core-integrations' workflow: `nohup hatch run -- vllm serve ...`
        ("nohup hatch run -- vllm serve m --port 1", SERVE, "vllm serve", ["m", "--port", "1"]),
        ("poetry run -C app vllm serve m", SERVE, "vllm serve", ["m"]),
        ("pixi run -e cuda vllm serve m", SERVE, "vllm serve", ["m"]),
        ("pdm run vllm serve m", SERVE, "vllm serve", ["m"]),
        (
            "pipenv run python -m vllm.entrypoints.openai.api_server --model m",
            SERVE,
            "python -m vllm.entrypoints.openai.api_server",
            ["--model", "m"],
        ),  # fmt: skip
        # SLURM: srun runs the command on the job's nodes (PrimeIntellect-ai/prime-rl,
        # crazyguitar/pysheeet); Singularity and Apptainer run it in an image
        (
            'srun -N 1 --nodelist="$HEAD" --overlap -l vllm serve m --port 8000',
            SERVE,
            "vllm serve",
            ["m", "--port", "8000"],
        ),  # fmt: skip
        ("srun --ntasks=1 bash -c 'uv run vllm serve m'", SERVE, "vllm serve", ["m"]),
        (
            "singularity exec --nv --bind /data:/data $IMAGE python3.10 -m vllm.entrypoints.openai.api_server --model m",
            SERVE,
            "python -m vllm.entrypoints.openai.api_server",
            ["--model", "m"],
        ),  # fmt: skip
        ("apptainer exec --nv vllm.sif vllm serve m", SERVE, "vllm serve", ["m"]),
        # a detached screen session, a tmux session's command, keys typed into a pane
        ("screen -dmS vllm vllm serve m --port 8001", SERVE, "vllm serve", ["m", "--port", "8001"]),
        ('tmux new-session -d -s vllm "vllm serve m --port 8001"', SERVE, "vllm serve", ["m", "--port", "8001"]),
        (
            'tmux -S $SOCK send-keys -t "$S:0.$I" "vllm serve m --port $P" C-m',
            SERVE,
            "vllm serve",
            ["m", "--port", None],
        ),  # fmt: skip
        # an operand vcfg cannot compute: the command after it is still the launch
        ('taskset -c "${first}-${last}" nohup vllm serve m', SERVE, "vllm serve", ["m"]),
        (
            "python3 -m dynamo.vllm --model m --disaggregation-mode prefill",
            DYNAMO,
            "python -m dynamo.vllm",
            ["--model", "m", "--disaggregation-mode", "prefill"],
        ),
        ("vllm bench serve --model m --port 8000", BENCH_SERVE, "vllm bench serve", ["--model", "m", "--port", "8000"]),
        ("python3 toy_proxy_server.py --port 9000", PROXY, "python toy_proxy_server.py", ["--port", "9000"]),
        (
            "python benchmarks/benchmark_serving.py --port 1",
            BENCH_SERVE,
            "python benchmark_serving.py",
            ["--port", "1"],
        ),
    ],
)
def test_entrypoints(line, kind, entry, expected):
    inv = one(line + "\n", kind=kind)
    assert inv.entrypoint == entry
    assert args(inv) == expected


def test_not_launches():
    p = plan("echo vllm serve m\npip install vllm\nvllm --version\ncurl localhost:8000\n")
    assert [i.kind for i in p.invocations] == ["vllm"]


def test_placeholders_are_reported_as_redirections():
    p = plan("vllm serve <MODEL> --port 8000\n")
    (prob,) = [x for x in p.problems if x.code == "placeholder"]
    assert (prob.span.line, prob.span.col, prob.span.end_col) == (1, 12, 19)
    assert "<MODEL>" in prob.message
    # bash itself would run `vllm serve 8000` (with < MODEL and > --port); the rest is read
    # as its author meant it: the placeholder one unknown word, the words after it options
    assert args(p.invocations[0]) == [None, "--port", "8000"]
    # `-tp <tp>` is an option with a value nobody wrote, not one without a value
    assert args(plan("vllm serve m -tp <tp>\n").invocations[0]) == ["m", "-tp", None]
    p = plan("vllm serve <path to your model> --port 8000\n")
    assert args(p.invocations[0]) == [None, "--port", "8000"]


def test_proxy_hosts_and_ports_lists():
    src = (
        "python toy_proxy_server.py --host 0.0.0.0 --port 9000 "
        "--prefiller-hosts h1 h2 --prefiller-ports 8100 8101 --decoder-hosts h3 --decoder-ports 8200 &\n"
    )
    inv = one(src, kind=PROXY)
    assert inv.host.text == "0.0.0.0" and inv.port.text == "9000"
    assert [(u.role, u.host.text, u.port.text) for u in inv.upstreams] == [
        ("prefill", "h1", "8100"),
        ("prefill", "h2", "8101"),
        ("decode", "h3", "8200"),
    ]


# --------------------------------------------------------------------------- 11. markdown


def test_markdown_blocks_keep_file_positions():
    md = (
        "# Run\n\n"
        "Start the decoder:\n\n"
        "```bash\n"
        "export VLLM_X=1\n"
        "vllm serve m --port 8200\n"
        "```\n\n"
        "- item\n\n"
        "  ``` shell\n"
        "  $ vllm serve n --port 8100\n"
        "  ```\n\n"
        "```text\n"
        "INFO: started server\n"
        "```\n"
        "```python\nvllm serve not_shell\n```\n"
    )
    p = parse_markdown(md, "README.md")
    assert [args(i) for i in p.invocations] == [["m", "--port", "8200"], ["n", "--port", "8100"]]
    assert p.invocations[0].exported_env()["VLLM_X"].value.text == "1"
    sp = p.invocations[1].args[0].span
    assert (sp.line, sp.col) == (13, 16)
    assert p.problems == ()


# --------------------------------------------------------------------------- odd inputs


@pytest.mark.parametrize(
    "src, code",
    [
        (b"vllm serve m --x 'unterminated\n", "missing"),
        (b'vllm serve m --x "unterminated\n', "missing"),
        (b"vllm serve \xff\xfe m\n", "encoding"),
        (b"\x00\x01\x02ELF", "encoding"),
        (b"if then fi fi done )))\n", "syntax"),
    ],
)
def test_bad_inputs_give_problems_with_positions(src, code):
    p = plan(src)
    probs = [x for x in p.problems if x.code == code]
    assert probs, p.problems
    assert all(x.span.line >= 1 and x.span.col >= 1 for x in p.problems)


def test_unicode_columns_count_characters():
    src = "# 解码节点\nexport NOTE='模型'; vllm serve m --port 1\n"
    inv = one(src)
    assert (inv.args[1].span.line, inv.args[1].span.col) == (2, 32)
    assert inv.args[1].span.start == len(src[: src.index("--port")].encode())


def test_tab_after_backslash_breaks_the_continuation():
    p = plan("vllm serve m --port 1 \\\t\n  --seed 2\n")
    assert [w.text for w in p.invocations[0].args] == ["m", "--port", "1", "\t"]
    probs = [(x.code, x.span.line, x.span.col) for x in p.problems]
    assert probs == [("split-command", 1, 23), ("split-command", 2, 3)]


def test_words_tree_sitter_splits_are_glued_back():
    # tree-sitter-bash reads 'a'\b and x\<tab>y as two arguments; bash as one
    inv = one("vllm serve 'a'\\b x\\\ty\n")
    assert args(inv) == ["ab", "x\ty"]
    assert (inv.args[0].span.col, inv.args[0].span.end_col) == (12, 17)


def test_windows_line_endings_are_reported():
    p = plan(b"vllm serve m \\\r\n  --port 1\r\n")
    # and read as bash reads them: the `\` escapes the CR, so the line ends there and
    # `--port 1` is a command of its own (bash: "--port: command not found")
    assert [(x.code, x.span.line, x.span.col) for x in p.problems] == [
        ("crlf-continuation", 1, 14),
        ("crlf", 1, 15),
        ("split-command", 2, 3),
    ]
    assert [[w.text for w in i.args] for i in p.invocations] == [["m", "\r"]]


def test_keys_typed_without_enter_run_nothing():
    assert plan('tmux send-keys -t vllm "vllm serve m"\n').invocations == ()
    (inv,) = plan('tmux send-keys -t vllm "vllm serve m" Enter\n').invocations
    assert inv.wrappers == ("tmux",) and not inv.inherits_env


def test_a_tmux_pane_keeps_what_was_typed_into_it():
    """ChristopherCho/MultiNode-vLLM-serve types `export CUDA_VISIBLE_DEVICES=...` into a
    pane, then the launch: the launch has it; another pane, and the script, do not."""
    src = (
        "export VLLM_LOGGING_LEVEL=DEBUG\n"
        'tmux send-keys -t s:0.0 "export CUDA_VISIBLE_DEVICES=1" C-m\n'
        'tmux send-keys -t s:0.0 "vllm serve m --port 8001" C-m\n'
        'tmux send-keys -t s:0.1 "vllm serve m --port 8002" C-m\n'
        "vllm serve m --port 8003\n"
    )
    a, b, c = plan(src).invocations
    assert {k: v.value.text for k, v in a.env.items()} == {"CUDA_VISIBLE_DEVICES": "1"}
    assert b.env == {} and "CUDA_VISIBLE_DEVICES" not in c.env and "VLLM_LOGGING_LEVEL" in c.env
