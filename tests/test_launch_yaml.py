"""YAML front ends: vllm serve --config files and K8s / compose manifests."""

from vcfg.catalog.model import Catalog, Flag
from vcfg.launch.args import parse_args
from vcfg.launch.model import BENCH_SERVE, SERVE
from vcfg.launch.read import parse_manifest
from vcfg.launch.yaml_config import load_serve_config


def cfg(text):
    return load_serve_config(text, "serve.yaml")


def pos(text, needle):
    i = text.index(needle)
    return text[:i].count("\n") + 1, i - (text[:i].rfind("\n") + 1) + 1


# --------------------------------------------------------------------------- --config files


def test_keys_and_values_with_positions():
    text = (
        "model: org/m\n"
        "tensor-parallel-size: 4   \n"
        "gpu_memory_utilization: 0.85\n"
        "no-enable-prefix-caching: true\n"
        "max-model-len: null\n"
        'kv-transfer-config: \'{"kv_connector":"NixlConnector"}\'\n'
    )
    c = cfg(text)
    assert [e.key for e in c.entries] == [
        "model",
        "tensor-parallel-size",
        "gpu_memory_utilization",
        "no-enable-prefix-caching",
        "max-model-len",
        "kv-transfer-config",
    ]
    tp = c.get("tensor-parallel-size")
    assert tp.value == 4 and tp.value_word.text == "4"
    assert (tp.value_span.line, tp.value_span.col, tp.value_span.end_col) == (2, 23, 24)
    assert (tp.key_span.line, tp.key_span.col) == (2, 1)
    assert c.get("max-model-len").value_word.text == "None"  # vLLM passes str(None)
    kv = c.get("kv-transfer-config").value_word
    i = kv.value.index('"kv_connector"')
    assert (kv.char_span(i).line, kv.char_span(i).col) == pos(text, '"kv_connector"')


def test_dict_values_become_json_mapped_to_yaml_nodes():
    text = (
        "kv-transfer-config:\n"
        "  kv_connector: NixlConnector\n"
        "  kv_connector_extra_config:\n"
        "    backends: [UCX, TCP]\n"
        "    n: 3\n"
    )
    e = cfg(text).get("kv-transfer-config")
    assert e.json_word.text == (
        '{"kv_connector": "NixlConnector", "kv_connector_extra_config": {"backends": ["UCX", "TCP"], "n": 3}}'
    )
    w = e.json_word
    i = w.value.index('"n"')
    assert (w.char_span(i).line, w.char_span(i).col) == (5, 5)
    j = w.value.index('"TCP"')
    assert (w.char_span(j).line, w.char_span(j).col) == pos(text, "TCP")


def test_lists_are_items():
    e = cfg("served-model-name:\n  - a\n  - 'b c'\n").get("served-model-name")
    assert [w.text for w in e.item_words] == ["a", "b c"]
    assert (e.item_words[1].span.line, e.item_words[1].span.col) == (3, 5)


def test_bad_yaml_gives_a_positioned_problem():
    c = cfg("port: 1\n  bad: [\n")
    assert c.entries is None
    (p,) = c.problems
    assert p.code == "yaml" and p.span.line >= 2
    c = cfg("- just\n- a list\n")
    assert c.entries is None and "mapping" in c.problems[0].message
    c = cfg(b"\xff\xfe\x00bin")
    assert c.entries is None or c.problems


def test_heredoc_word_source_maps_into_the_script():
    from vcfg.launch.shell import parse_script

    src = "cat > c.yaml <<EOF\nport: 8100\nkv-transfer-config:\n  kv_role: kv_both\nEOF\n"
    wf = parse_script(src, "run.sh").written_file("c.yaml")
    c = load_serve_config(wf.content, "c.yaml")
    port = c.get("port")
    assert (port.value_span.file, port.value_span.line, port.value_span.col) == ("run.sh", 2, 7)
    w = c.get("kv-transfer-config").json_word
    i = w.value.index('"kv_role"')
    assert (w.char_span(i).line, w.char_span(i).col) == (4, 3)


# --------------------------------------------------------------------------- manifests


K8S = """\
apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
        - name: decode
          image: vllm/vllm-openai:v0.11.0
          command: ["vllm", "serve"]
          args:
            - "meta-llama/Llama-3.1-8B"
            - "--port"
            - "$(VLLM_PORT)"
            - "--kv-transfer-config={\\"kv_connector\\":\\"NixlConnector\\",\\"kv_role\\":\\"kv_both\\"}"
            - --host=$(POD_IP)
          env:
            - name: VLLM_PORT
              value: "8200"
            - name: POD_IP
              valueFrom:
                fieldRef:
                  fieldPath: status.podIP
            - name: VLLM_NIXL_SIDE_CHANNEL_HOST
              value: 0.0.0.0
        - name: sidecar
          image: busybox
          command: ["sleep", "infinity"]
---
apiVersion: v1
kind: Pod
spec:
  containers:
    - name: prefill
      image: vllm/vllm-openai
      command: [python3, -m, vllm.entrypoints.openai.api_server]
      args: [--model, m, --port, "8100"]
    - name: bench
      image: vllm/vllm-openai
      command:
        - /bin/bash
        - -exc
        - |
          export VLLM_X=1
          vllm bench serve --port 8200 \\
            --model m
"""


def test_k8s_containers_args_env_and_interpolation():
    p = parse_manifest(K8S, "deploy.yaml")
    kinds = [(i.kind, i.entrypoint) for i in p.invocations]
    assert kinds == [
        (SERVE, "vllm serve"),
        (SERVE, "python -m vllm.entrypoints.openai.api_server"),
        (BENCH_SERVE, "vllm bench serve"),
    ]
    dec = p.invocations[0]
    assert [w.text for w in dec.args[:3]] == ["meta-llama/Llama-3.1-8B", "--port", "8200"]
    assert dec.args[3].text == '--kv-transfer-config={"kv_connector":"NixlConnector","kv_role":"kv_both"}'
    assert dec.args[4].text is None and "fieldRef" in dec.args[4].describe_unknown()
    assert dec.inherits_env is False
    assert dec.exported_env()["VLLM_NIXL_SIDE_CHANNEL_HOST"].value.text == "0.0.0.0"
    assert (dec.args[1].span.line, dec.args[1].span.col) == (12, 15)
    # $(VLLM_PORT) resolved: its characters point at the env value
    assert (dec.args[2].char_span(0).line, dec.args[2].char_span(0).col) == (18, 23)
    pre = p.invocations[1]
    assert [w.text for w in pre.args] == ["--model", "m", "--port", "8100"]
    bench = p.invocations[2]
    assert [w.text for w in bench.args] == ["--port", "8200", "--model", "m"]
    assert bench.exported_env()["VLLM_X"].value.text == "1"
    assert (bench.args[0].span.line, bench.args[0].span.col) == pos(K8S, "--port 8200")


def test_image_entrypoint_without_command():
    text = (
        "services:\n  vllm:\n    image: vllm/vllm-openai:latest\n"
        '    command: ["--model", "m", "--port", "8000"]\n'
        "    environment:\n      VLLM_LOGGING_LEVEL: DEBUG\n"
    )
    (inv,) = parse_manifest(text, "compose.yaml").invocations
    assert inv.entrypoint == "vllm serve" and [w.text for w in inv.args] == ["--model", "m", "--port", "8000"]
    assert inv.exported_env()["VLLM_LOGGING_LEVEL"].value.text == "DEBUG"


def test_compose_string_command():
    text = (
        "services:\n  vllm:\n    image: vllm/vllm-openai\n"
        '    entrypoint: vllm serve m --port 8000 --kv-transfer-config \'{"kv_role":"kv_both"}\'\n'
        "    environment:\n      - VLLM_RPC_TIMEOUT=600000\n"
    )
    (inv,) = parse_manifest(text, "compose.yaml").invocations
    assert [w.text for w in inv.args] == ["m", "--port", "8000", "--kv-transfer-config", '{"kv_role":"kv_both"}']
    w = inv.args[4]
    assert (w.char_span(1).line, w.char_span(1).col) == pos(text, '"kv_role"')
    assert inv.exported_env()["VLLM_RPC_TIMEOUT"].value.text == "600000"


def test_manifest_args_parse_with_the_catalog():
    cat = Catalog(
        vllm_version="0.33.0",
        flags=[
            Flag(option_strings=[], dest="model_tag", type="str", nargs="?", positional=True),
            Flag(option_strings=["--port"], dest="port", type="int"),
            Flag(option_strings=["--host"], dest="host", type="str"),
            Flag(option_strings=["--kv-transfer-config"], dest="kv_transfer_config", type="config"),
        ],
    )
    inv = parse_manifest(K8S, "deploy.yaml").invocations[0]
    res = parse_args(inv.args, cat)
    assert res.value("port") == 8200
    kv = res.get("kv_transfer_config")
    assert kv.value == {"kv_connector": "NixlConnector", "kv_role": "kv_both"}
    sp = kv.json.key_span("kv_role")
    assert sp.file == "deploy.yaml" and sp.line == 14
    assert K8S.splitlines()[13][sp.col - 1 : sp.col + 10] == '\\"kv_role\\"'


def test_unquoted_json_scalar_in_an_args_list():
    text = (
        "containers:\n  - name: p\n    image: vllm/vllm-openai\n    args:\n"
        '      - --kv-transfer-config={"kv_connector":"NixlConnector","kv_role":"kv_both"}\n'
        "      - --port=8100\n"
    )
    (inv,) = parse_manifest(text, "m.yaml").invocations
    assert [w.text for w in inv.args] == [
        '--kv-transfer-config={"kv_connector":"NixlConnector","kv_role":"kv_both"}',
        "--port=8100",
    ]
    w = inv.args[0]
    i = w.value.index('"kv_role"')
    assert (w.char_span(i).line, w.char_span(i).col) == pos(text, '"kv_role"')


def test_bad_manifest_never_raises():
    p = parse_manifest("a: [\n", "x.yaml")
    assert p.problems and p.problems[0].code == "yaml"
    assert parse_manifest("", "x.yaml").invocations == ()
