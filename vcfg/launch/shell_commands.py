"""The command table of the bash front end: which programs run another command
(wrappers and how many of their words to skip), which Python modules and scripts are
launches and of what kind, the vllm CLI's launch subcommands, and where a launch's
host, port and (for a proxy) upstream servers are in its arguments.  `classify` in
`vcfg.launch.shell` reads these tables instead of branching on names."""

from __future__ import annotations

import re
from typing import Optional, Sequence

from vcfg.launch.model import BENCH_SERVE, DYNAMO, PROXY, SERVE, VLLM_OTHER, Upstream, Word
from vcfg.records import tuple_record
from vcfg.regex import lazy


@tuple_record
class Wrapper:
    """A program that runs the rest of its arguments as a command."""

    #: its options that take a separate value (``numactl -N 0``)
    valued: frozenset[str] = frozenset()
    #: words after its options that come before the command (``timeout``'s duration,
    #: ``taskset``'s CPU mask, ``chrt``'s priority)
    operands: int = 0


#: Wrappers that run their arguments as a command (``env`` is read on its own: it
#: also sets and unsets variables).
WRAPPERS: dict[str, Wrapper] = {
    "nohup": Wrapper(),
    "setsid": Wrapper(),
    "exec": Wrapper(frozenset({"-a"})),
    "time": Wrapper(frozenset({"-f", "-o"})),
    "command": Wrapper(),
    "builtin": Wrapper(),
    "unbuffer": Wrapper(),
    "stdbuf": Wrapper(frozenset({"-i", "-o", "-e"})),
    "nice": Wrapper(frozenset({"-n"})),
    "ionice": Wrapper(frozenset({"-c", "-n", "-p"})),
    "chrt": Wrapper(operands=1),
    "numactl": Wrapper(
        frozenset(
            {
                "-N",
                "-m",
                "-C",
                "-i",
                "-p",
                "-P",
                "-w",
                "--cpunodebind",
                "--membind",
                "--physcpubind",
                "--interleave",
                "--preferred",
                "--cpubind",
            }
        )
    ),
    "sudo": Wrapper(frozenset({"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"})),
    "xargs": Wrapper(),
    "timeout": Wrapper(frozenset({"-s", "-k", "--signal", "--kill-after"}), 1),
    "taskset": Wrapper(operands=1),
    # `screen -dmS NAME CMD...`: a detached session on this machine running CMD
    "screen": Wrapper(
        frozenset(
            {"-S", "-dmS", "-mdS", "-dS", "-mS", "-DmS", "-c", "-t", "-p", "-T", "-e", "-Logfile", "-logfile", "-h"}
        )
    ),  # fmt: skip
    # SLURM's srun runs the command on the job's nodes (another machine: `vcfg.lint.rules._hosts`),
    # with the script's environment (its default --export=ALL)
    "srun": Wrapper(
        frozenset(
            {
                "-A",
                "--account",
                "-c",
                "--cpus-per-task",
                "-D",
                "--chdir",
                "-e",
                "--error",
                "-i",
                "--input",
                "-J",
                "--job-name",
                "-m",
                "--distribution",
                "-n",
                "--ntasks",
                "-N",
                "--nodes",
                "-o",
                "--output",
                "-p",
                "--partition",
                "-q",
                "--qos",
                "-t",
                "--time",
                "-w",
                "--nodelist",
                "-x",
                "--exclude",
                "--mem",
                "--mem-per-cpu",
                "--mem-per-gpu",
                "--gres",
                "-G",
                "--gpus",
                "--gpus-per-node",
                "--gpus-per-task",
                "--ntasks-per-node",
                "--cpu-bind",
                "--mpi",
                "--export",
                "--container-image",
                "--container-mounts",
                "--container-workdir",
                "--container-name",
                "--container-env",
                "--het-group",
                "-d",
                "--dependency",
                "-C",
                "--constraint",
                "--reservation",
                "-F",
                "--nodefile",
                "-W",
                "--wait",
                "--signal",
                "--comment",
                "--cpus-per-gpu",
                "--ntasks-per-gpu",
                "--network",
                "--jobid",
            }
        )
    ),  # fmt: skip
}
# the old name, for the interpreter's wrapper loop
_WRAPPERS = WRAPPERS


@tuple_record
class Runner:
    """A program whose subcommand ``sub`` runs the rest of its arguments as a command."""

    #: the subcommand's options that take a separate value
    valued: frozenset[str] = frozenset()
    sub: str = "run"
    #: words after its options that come before the command (``singularity exec``'s image)
    operands: int = 0


_ENV_MANAGER = frozenset({"-n", "--name", "-p", "--prefix", "--with", "--python", "--project", "--directory"})
_CONTAINER_EXEC = frozenset(
    {"-B", "--bind", "--env", "--env-file", "-H", "--home", "-o", "--overlay", "--pwd", "-W", "--workdir",
     "--security", "--network", "--network-args", "--hostname", "-S", "--scratch", "--app", "--mount",
     "--dns", "--add-caps", "--drop-caps", "--apply-cgroups"}
)  # fmt: skip

#: ``uv run``, ``conda run -n env``, ``hatch run --``, ``poetry run``: environment and
#: project managers whose ``run`` runs a command; ``singularity exec IMAGE`` and
#: ``apptainer exec IMAGE`` run one in a container that shares the host's network and
#: environment
RUNNERS: dict[str, Runner] = {
    **{name: Runner(_ENV_MANAGER) for name in ("uv", "conda", "micromamba", "mamba")},
    "hatch": Runner(),
    "poetry": Runner(frozenset({"-C", "--directory", "-P", "--project"})),
    "pdm": Runner(frozenset({"-p", "--project"})),
    "pipenv": Runner(),
    "pixi": Runner(frozenset({"-e", "--environment", "--manifest-path"})),
    "rye": Runner(frozenset({"--pyproject"})),
    "singularity": Runner(_CONTAINER_EXEC, "exec", 1),
    "apptainer": Runner(_CONTAINER_EXEC, "exec", 1),
}

#: ``ray job submit [options] -- COMMAND``: the options that take a value (the command
#: runs on the Ray cluster's head node, in the job's own environment)
RAY_JOB_SUBMIT_VALUED = frozenset(
    {
        "--address",
        "--job-id",
        "--submission-id",
        "--runtime-env",
        "--runtime-env-json",
        "--working-dir",
        "--metadata-json",
        "--entrypoint-num-cpus",
        "--entrypoint-num-gpus",
        "--entrypoint-memory",
        "--entrypoint-resources",
        "--entrypoint-label-selector",
        "--headers",
        "--verify",
        "--log-style",
        "--log-color",
    }
)

#: tmux commands whose trailing words are a shell command they run, and their options
#: that take a value
TMUX_RUNS = frozenset({"new-session", "new", "new-window", "neww", "split-window", "splitw",
                       "respawn-pane", "respawnp", "respawn-window", "respawnw"})  # fmt: skip
TMUX_VALUED = frozenset({"-c", "-e", "-F", "-n", "-s", "-t", "-x", "-y", "-l", "-p", "-f"})
#: the keys of ``tmux send-keys`` that press Enter
TMUX_ENTER = frozenset({"C-m", "Enter", "KPEnter", "C-j"})
#: a command of another inference server (`python -m sglang.launch_server`, TGI's
#: launcher, TensorRT-LLM's and LMDeploy's servers), and a word naming vLLM, in a
#: document's shell block
OTHER_SERVER = re.compile(
    rb"\bsglang\.launch_server\b|\btext-generation-launcher\b|\btrtllm-serve\b|\blmdeploy\s+serve\b"
)
VLLM_WORD = re.compile(rb"vllm", re.I)

#: shells whose ``-c STRING`` is read as a script
SHELLS = frozenset({"bash", "sh", "zsh", "dash"})
#: container engines whose ``run``/``exec``/``create`` start a command
CONTAINERS = frozenset({"docker", "podman"})

#: ``python -m MODULE``: the modules that are launches, and their kind; "vllm-cli":
#: the vllm command line (its subcommand says the kind)
MODULES: dict[str, str] = {
    "vllm.entrypoints.openai.api_server": SERVE,
    # LMCache 0.1's drop-in wrapper: vLLM's API server with LMCache patched in
    "lmcache_vllm.vllm.entrypoints.openai.api_server": SERVE,
    "vllm.entrypoints.cli.main": "vllm-cli",
    "vllm": "vllm-cli",
    "vllm.entrypoints.api_server": VLLM_OTHER,
}
#: module prefixes that are launches of a kind (``dynamo.vllm``, ``dynamo.vllm.prefill``)
MODULE_PREFIXES: tuple[tuple[str, str], ...] = (("dynamo.vllm", DYNAMO),)
#: ``python SCRIPT``: scripts that are launches
SCRIPTS: dict[str, str] = {"benchmark_serving.py": BENCH_SERVE}
#: programs that are the vllm command line: vllm itself, and LMCache 0.1's drop-in
#: wrapper ``lmcache_vllm serve ...`` (vLLM's CLI with LMCache patched in, same arguments)
VLLM_PROGRAMS = frozenset({"vllm", "lmcache_vllm"})
#: the vllm subcommands that are launches vcfg reads the options of
VLLM_LAUNCHES: dict[tuple[str, ...], str] = {("serve",): SERVE, ("bench", "serve"): BENCH_SERVE}

_PY_RE = re.compile(r"python(\d+(\.\d+)?)?\Z")
#: proxies and routers, by the name of their module, script or program
_PROXY_RE = re.compile(r"proxy|router", re.I)
#: packages of other inference servers whose routers are not in front of vLLM
_OTHER_ENGINES = frozenset({"sglang", "sglang_router", "tensorrt_llm", "lmdeploy", "text_generation_server"})
_UPSTREAM_RE = lazy(r"--(prefill|prefiller|decode|decoder)s?(?:[-_](host|port|url|addr|address)s?)?\Z")
#: ``{your model directory}``, ``{model_path}``: words, no JSON, no brace expansion
_PLACEHOLDER_RE = re.compile(r"\{[A-Za-z][A-Za-z0-9_ ./-]*\}\Z")
#: commands that stop background jobs (where a function body runs them matters)
_STOPS = frozenset({"kill", "wait", "pkill", "killall"})
#: ssh's options that take a value
_SSH_VALUED = frozenset("BbcDEeFIiJLlmOoPpQRSWw")


def _basename(s: str) -> str:
    return s.rsplit("/", 1)[-1]


def module_kind(module: str) -> Optional[str]:
    """The launch kind of ``python -m module`` ("vllm-cli" for the vllm CLI), or None."""
    kind = MODULES.get(module)
    if kind is not None:
        return kind
    for prefix, k in MODULE_PREFIXES:
        if module.startswith(prefix):
            return k
    if _PROXY_RE.search(module.rsplit(".", 1)[-1]) and module.split(".", 1)[0] not in _OTHER_ENGINES:
        return PROXY
    return None


def script_kind(script: str) -> Optional[str]:
    """The launch kind of ``python script.py``, or None."""
    base = _basename(script)
    if base in SCRIPTS:
        return SCRIPTS[base]
    if base.endswith(".py") and _PROXY_RE.search(base):
        return PROXY
    return None


def program_kind(program: str) -> Optional[str]:
    """The launch kind of a program run directly (``toy_proxy_server.py``, ``vllm-router``)."""
    base = _basename(program)
    if _PROXY_RE.search(base) and (base.endswith(".py") or base == "vllm-router"):
        return PROXY
    return None


_ENDPOINT_OPTS = frozenset({"--host", "--port", "--base-url"})


def _endpoints(kind: str, args: Sequence[Word]) -> tuple[Optional[Word], Optional[Word], tuple[Upstream, ...]]:
    """host, port and (for proxies) upstream servers, from the arguments as written."""
    host = port = None
    groups: dict[str, dict[str, list[Word]]] = {}
    order: list[str] = []
    proxy = kind == PROXY
    n = len(args)
    for i in range(n):
        w = args[i]
        t = w.value
        if w.holes or t[:2] != "--":
            continue
        eq = t.find("=")
        opt = t if eq < 0 else t[:eq]
        if "_" in opt:
            opt = opt.replace("_", "-")
        if opt in _ENDPOINT_OPTS:
            if eq >= 0:
                val: Optional[Word] = w.slice(eq + 1, len(t))
            else:
                val = args[i + 1] if i + 1 < n else None
                if val is not None and val.known and val.value.startswith("--"):
                    val = None
            if val is None:
                continue
            if opt == "--host":
                host = val
            elif opt == "--port":
                port = val
            elif kind == BENCH_SERVE:
                host = host or val
            continue
        if not proxy:
            continue
        m = _UPSTREAM_RE.match(opt)
        if not m:
            continue
        if eq >= 0:
            vals = [w.slice(eq + 1, len(t))]
        else:
            vals = []
            j = i + 1
            while j < n and not args[j].value.startswith("--"):
                # an unknown word stays (a host vcfg cannot know is not localhost);
                # an empty unquoted one is gone, as in bash
                if not args[j].known or args[j].value or args[j].quoted:
                    vals.append(args[j])
                j += 1
        role = "prefill" if m.group(1).startswith("prefill") else "decode"
        what = m.group(2) or "url"
        what = {"addr": "url", "address": "url"}.get(what, what)
        if role not in groups:
            groups[role] = {}
            order.append(role)
        groups[role].setdefault(what, []).extend(vals)
    ups: list[Upstream] = []
    for role in order:
        g = groups[role]
        hosts, ports, urls = g.get("host", []), g.get("port", []), g.get("url", [])
        if urls:
            last: Optional[Upstream] = None
            for w in urls:
                if w.text is not None and w.text.isdigit() and last is not None and last.port is None:
                    ups[-1] = last = Upstream(role, last.host, w, last.url)
                else:
                    last = Upstream(role, None, None, w)
                    ups.append(last)
        for k in range(max(len(hosts), len(ports))):
            h = hosts[k] if k < len(hosts) else (hosts[-1] if hosts else None)
            p = ports[k] if k < len(ports) else None
            ups.append(Upstream(role, h, p, None))
    return host, port, tuple(ups)
