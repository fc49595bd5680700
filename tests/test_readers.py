"""The reader mechanism: which reader takes a file, why, and that nothing else loads."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from vcfg.cli.commands import main
from vcfg.launch.read import choose, read_files, read_plan
from vcfg.launch.readers import REGISTRY, ReadContext
from vcfg.lint.engine import lint_paths

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "pd-decode-p2p.sh"

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: llama
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.13.0
          command: ["vllm", "serve"]
          args: ["meta-llama/Llama-3.1-8B", "--max-num-seqz", "64"]
"""

#: an application's settings, with keys that are also vllm serve options
APP_CONFIG = """\
model: gpt-4o
port: 8080
host: 0.0.0.0
debug: true
timeout: 30
"""

SERVE_CONFIG = """\
model: meta-llama/Llama-3.1-8B
max-model-len: 16384
gpu-memory-utilization: 0.85
max-num-seqz: 64
"""

COMPOSE = """\
services:
  vllm:
    image: vllm/vllm-openai:v0.13.0
    command: ["m", "--max-num-seqz", "64"]
"""


def _why(path, text, **kw):
    return choose(str(path), text, ReadContext(**kw))


def test_the_registry_is_each_modules_record():
    from vcfg.launch.read import all_readers

    records = all_readers()
    assert [(r.name, r.patterns, r.shebang) for r in records] == list(REGISTRY)
    assert all(r.summary for r in records)


@pytest.mark.parametrize(
    "name,text,reader",
    [
        ("run.sh", "vllm serve m\n", "bash"),
        ("start", "#!/usr/bin/env bash\nvllm serve m\n", "bash"),
        ("start", "#!/bin/sh -e\nvllm serve m\n", "bash"),
        ("deploy.yaml", DEPLOYMENT, "kubernetes"),
        ("docker-compose.yml", COMPOSE, "compose"),
        ("qwen.yaml", SERVE_CONFIG, "serve_config"),
        ("README.md", "# x\n\n```bash\nvllm serve m\n```\n", "markdown"),
    ],
)
def test_each_format_goes_to_its_reader(name, text, reader):
    c = _why(name, text)
    assert c.reader == reader, c
    assert c.evidence.reasons


def test_yaml_with_model_port_host_is_no_serve_config():
    c = _why("settings.yaml", APP_CONFIG)
    assert c.reader is None
    (ev,) = [e for name, e, _ in c.considered if name == "serve_config"]
    assert ev.confidence == 0 and "model, port, host" in ev.reasons[0]
    # a name that says vllm is enough with such keys, when most of them are options
    assert _why("vllm.yaml", "model: m\nport: 8000\n").reader == "serve_config"


def test_dotted_keys_of_json_options_count_as_options():
    text = (
        "model: m\nkv-transfer-config.kv_role: kv_both\n"
        "kv-transfer-config.kv_connector: NixlConnector\ncompilation-config.mode: 3\n"
    )
    assert _why("prefill.vllm.yaml", text).reader == "serve_config"
    # a dotted key of an option that takes no JSON is no option
    assert _why("prefill.vllm.yaml", "model: m\nport.x: 1\nseed.y: 2\n").reader is None


def test_a_python_script_shebang_is_not_a_shell_script():
    c = _why("start", "#!/usr/bin/env python3\nprint(1)\n", named=False)
    assert c.reader is None
    # named on the command line: a launcher without a suffix is still read as a script
    assert _why("start", "vllm serve m\n").reader == "bash"
    assert _why("notes.json", "{}", named=True).reader is None


def test_an_app_config_and_a_helm_chart_lint_clean(tmp_path):
    (tmp_path / "settings.yaml").write_text(APP_CONFIG)
    chart = tmp_path / "chart"
    (chart / "templates").mkdir(parents=True)
    (chart / "values.yaml").write_text("replicaCount: 2\nimage:\n  repository: nginx\nservice:\n  port: 80\n")
    (chart / "templates" / "svc.yaml").write_text(
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n"
        "  ports:\n    - port: {{ .Values.service.port }}\n"
    )
    res = lint_paths([str(tmp_path)], "0.33.0")
    assert res.diagnostics == [] and res.summary.launches == 0
    assert res.summary.files == 3


def test_a_config_a_launch_reads_has_no_launch_of_its_own(tmp_path):
    (tmp_path / "run.sh").write_text("vllm serve m --config conf/app.yaml\n")
    (tmp_path / "conf").mkdir()
    # keys that alone would not make it a serve config; read because run.sh points at it
    (tmp_path / "conf" / "app.yaml").write_text("port: 8002\nhost: 0.0.0.0\nmax-num-seqz: 4\n")
    res = lint_paths([str(tmp_path)], "0.33.0")
    assert res.summary.launches == 1
    got = [(d.code, Path(d.span.file).name, d.span.line, d.span.col) for d in res.diagnostics]
    assert got == [("VC001", "app.yaml", 3, 1)]
    yaml_path = str(tmp_path / "conf" / "app.yaml")
    (plan,) = [p for p in read_files([(yaml_path, (tmp_path / "conf" / "app.yaml").read_bytes())])]
    assert plan.invocations == ()  # on its own: not a serve config


def test_a_standalone_serve_config_is_linted_at_its_lines(tmp_path):
    f = tmp_path / "qwen.yaml"
    f.write_text(SERVE_CONFIG)
    res = lint_paths([str(f)], "0.33.0")
    assert [(d.code, d.span.line, d.span.col) for d in res.diagnostics] == [("VC001", 4, 1)]


def test_kubernetes_and_compose_launches_are_read(tmp_path):
    for name, text, line in (("deploy.yaml", DEPLOYMENT, 12), ("compose.yml", COMPOSE, 4)):
        f = tmp_path / name
        f.write_text(text)
        res = lint_paths([str(f)], "0.33.0")
        assert [(d.code, d.span.line) for d in res.diagnostics] == [("VC001", line)], name
        plan = read_plan(str(f), f.read_bytes())
        assert plan.source_kind == Path(name).stem.replace("deploy", "kubernetes")


def test_a_variable_in_a_compose_string_command_may_be_several_arguments(tmp_path):
    """Compose interpolates a string command, then splits it: `${EXTRA}` may be any
    number of arguments (h2oai/h2ogpt's compose file), so none of them is a positional
    model and the arguments are not complete; in a list command it stays one word."""
    text = (
        "services:\n  vllm:\n    image: vllm/vllm-openai:v0.10.1\n    entrypoint: python3\n"
        "    command: -m vllm.entrypoints.openai.api_server --port=5000 ${EXTRA}\n"
    )
    (inv,) = read_plan("compose.yml", text.encode()).invocations
    assert [w.text for w in inv.args] == ["--port=5000", None] and inv.args[1].may_split
    listed = text.replace(
        "command: -m vllm.entrypoints.openai.api_server --port=5000 ${EXTRA}",
        'command: ["-m", "vllm.entrypoints.openai.api_server", "--port=5000", "${EXTRA}"]',
    )
    (inv,) = read_plan("compose.yml", listed.encode()).invocations
    assert [w.text for w in inv.args] == ["--port=5000", None] and not inv.args[1].may_split


def test_launch_show_why():
    r = CliRunner().invoke(main, ["launch", "show", "--why", str(EXAMPLE)])
    assert r.exit_code == 0, r.output
    first, *rest = r.output.splitlines()
    assert first == f"{EXAMPLE}: read as bash: its #! line runs bash"
    assert "  kubernetes: not asked: the name does not fit *.yaml, *.yml" in rest


def test_launch_show_why_none(tmp_path):
    f = tmp_path / "settings.yaml"
    f.write_text(APP_CONFIG)
    r = CliRunner().invoke(main, ["launch", "show", "--why", "--vllm-version", "0.33.0", str(f)])
    assert r.exit_code == 0, r.output
    assert r.output.startswith(f"{f}: no reader claims this file")
    assert "serve-config: no: 3 of 5 top-level keys are vllm serve 0.33.0 options (model, port, host)" in r.output
    r = CliRunner().invoke(main, ["launch", "show", "--why", "--format", "json", str(f)])
    doc = json.loads(r.output)
    assert doc["reader"] is None and {c["reader"] for c in doc["considered"]} >= {"bash", "kubernetes"}
    r = CliRunner().invoke(main, ["launch", "show", str(f)])
    assert r.exit_code == 0 and r.output.startswith(f"{f}: 0 launch(es)")


def test_a_bash_lint_loads_no_other_reader(tmp_path):
    script = tmp_path / "run.sh"
    script.write_text(EXAMPLE.read_text())
    code = (
        "import sys\nfrom vcfg.lint.engine import lint_paths\n"
        f"lint_paths([{str(script)!r}], '0.33.0')\n"
        "print(sorted(m for m in sys.modules if m.startswith('vcfg.launch.readers.') or m == 'yaml'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['vcfg.launch.readers.bash']"


MD = """\
# Serve

Add these options:

```bash
--kv-transfer-config '{"kv_connector":"NixlConnector","kv_rol":"kv_both"}'
--max-num-seqz 8
```

```shell
============ Serving Benchmark Result ============
Request rate configured (RPS):           1.00
```

```bash
vllm serve m --port 8000
```
"""


def test_markdown_flags_only_block_and_output_blocks(tmp_path):
    f = tmp_path / "guide.md"
    f.write_text(MD)
    plan = read_plan(str(f), f.read_bytes())
    flags, serve = plan.invocations
    assert flags.args[0].text is None  # the model of a block of options is unknown
    assert [w.text for w in flags.args[1:]] == [
        "--kv-transfer-config",
        '{"kv_connector":"NixlConnector","kv_rol":"kv_both"}',
        "--max-num-seqz",
        "8",
    ]
    assert (flags.args[3].span.line, flags.args[3].span.col) == (7, 1)
    assert [w.text for w in serve.args] == ["m", "--port", "8000"]
    res = lint_paths([str(f)], "0.33.0")
    # the output block under ```shell is not a script: no parse error from it
    assert [(d.code, d.span.line, d.span.col) for d in res.diagnostics] == [
        ("VC026", 6, 25),
        ("VC022", 6, 56),
        ("VC001", 7, 1),
    ]
