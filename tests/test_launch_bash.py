"""Differential test: the argv and environment vcfg computes for each launch
equal what real bash gives the program (stub functions record them)."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from vcfg.launch.shell import parse_script

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="bash not installed")

FIX = Path(__file__).parent / "fixtures" / "launch"

#: Functions standing in for the programs: each records its argv and the
#: environment a child process would get, NUL separated.
PRELUDE = r"""
__rec() { { printf 'ARGV\0'; printf '%s\0' "$@"; printf 'ENV\0'; env -0; printf 'END\0'; } > "$VCFG_OUT/$BASHPID-$RANDOM$RANDOM"; }
vllm() { __rec "$@"; }
python3() { __rec "$@"; }
python() { __rec "$@"; }
nohup() { "$@"; }
numactl() { while [[ $1 == -* ]]; do shift; done; "$@"; }
taskset() { shift; shift; "$@"; }
"""

SCRIPTS = {
    "seed": (FIX / "seed_decode.sh").read_text(),
    "prefixes": (
        "export VLLM_A=1\nB=2\nset -a\nC=3\nset +a\n"
        "CUDA_VISIBLE_DEVICES=0,1 \\\n  VLLM_X=${VLLM_X:-9} \\\n  vllm serve m --port 8100 &\n"
        "unset VLLM_A\nvllm serve n\n"
    ),
    "quoting": (
        "kv_port=21001\nIP=10.0.0.1\n"
        'vllm serve a --j "{\\"p\\":\\"$kv_port\\"}" --k \'{"ip":"\'"$IP"\'"}\' --l $\'x\\ty\\\'z\' '
        '--m=a\\ b\\"c --n "x"\'y\'z\n'
        "vllm serve b --j '{\n  \"a\": 1\n}' \\\n\t--tab \\\n    --end\n"
    ),
    "indirection": (
        'EXTRA="--max-model-len 4k  --enforce-eager"\n'
        'ARGS=(--tp 2 "a b")\nARGS+=(--c)\n'
        'vllm serve m $EXTRA "${ARGS[@]}" ${ARGS[*]}\n'
        'CMD="vllm serve e --port 7000"\neval "$CMD --x \'1 2\'"\n'
        'J=$(cat <<EOF\n{"k": $((1 + 2))}\nEOF\n)\nvllm serve h --j "$J"\n'
    ),
    "loops": (
        "N=2\nfor i in $(seq 0 $((N-1))); do\n  CUDA_VISIBLE_DEVICES=$i vllm serve m --port $((8100 + i)) &\ndone\n"
        "for ((i=0;i<2;i++)); do vllm serve c --id $i; done\n"
        'GPUS="4,5"\nIFS=, read -r -a G <<< "$GPUS"\nfor k in "${!G[@]}"; do vllm serve g --gpu "${G[$k]}"; done\n'
        "wait\n"
    ),
    "functions": (
        'start() {\n  local port=$1\n  shift\n  VLLM_ROLE=$1 vllm serve m --port $port "${@:2}"\n}\n'
        "start 8100 prefill --a 1\nstart 8200 decode\n"
        'case "$MODE" in\n  x) vllm serve x;;\n  *) vllm serve default --mode "${MODE:-none}";;\nesac\n'
    ),
    "entrypoints": (
        "python3 -m vllm.entrypoints.openai.api_server --model m --port 1\n"
        "numactl --cpunodebind=0 --membind=0 taskset -c 0-3 vllm serve n\n"
        "nohup python toy_proxy_server.py --port 9000 > p.log 2>&1 &\nwait\n"
    ),
}


def run_bash(script: str, tmp_path: Path) -> list[tuple[list[str], dict[str, str]]]:
    out = tmp_path / "rec"
    out.mkdir()
    path = tmp_path / "script.sh"
    path.write_text(PRELUDE + script + "\nwait\n")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "VCFG_OUT": str(out), "LC_ALL": "C.UTF-8"}
    subprocess.run(
        [BASH, "--norc", "--noprofile", str(path)], cwd=tmp_path, env=env, check=False, capture_output=True, timeout=60
    )
    records = []
    for f in out.iterdir():
        fields = f.read_bytes().split(b"\0")
        j = fields.index(b"ENV")
        k = fields.index(b"END")
        argv = [x.decode() for x in fields[1:j]]
        env_out = {}
        for x in fields[j + 1 : k]:
            name, _, value = x.decode().partition("=")
            env_out[name] = value
        records.append((argv, env_out))
    return records


def expected_argv(inv) -> list[str]:
    """What the stub function receives: the words after the program name."""
    words = list(inv.command)
    texts = [w.text for w in words]
    if inv.entrypoint.startswith("python"):
        start = next(i for i, t in enumerate(texts) if t in ("python", "python3"))
    else:
        start = next(i for i, t in enumerate(texts) if t == "vllm")
    return texts[start + 1 :]


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_argv_and_env_equal_real_bash(name, tmp_path):
    script = SCRIPTS[name]
    records = run_bash(script, tmp_path)
    # bash runs with an environment that sets none of the scripts' variables
    plan = parse_script(script, "script.sh", environ={})
    invs = list(plan.invocations)
    assert len(invs) == len(records), ([i.entrypoint for i in invs], [r[0] for r in records])
    # background launches may record in any order: compare sorted by argv
    got = sorted(records, key=lambda r: r[0])
    mine = sorted(invs, key=expected_argv)
    for (argv, env), inv in zip(got, mine):
        assert expected_argv(inv) == argv
        assert inv.args_complete
        exported = inv.exported_env()
        for name_ in inv.env:
            if name_ in exported:
                assert env.get(name_) == exported[name_].value.text, name_
            else:
                assert name_ not in env, name_
