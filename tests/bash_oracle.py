"""The bash oracle: run a script under real bash in a sandbox where every program it
starts is a stub that records its argv, environment and working directory, then
compare each recorded vLLM launch with the launch plan vcfg reads from the script.

Sandbox (bubblewrap): the whole file system read-only, a fresh /tmp, one temporary
folder writable (the script's copy, the stubs and their records), no network (all
namespaces unshared), an empty environment but PATH, HOME and LANG.  PATH holds only
the stub folder: programs a script runs are stubs that exit 0 without output, except
the text tools a script needs to compute its own words (``cat``, ``seq``, ``sed``,
...), which are the real ones, and the wrappers that run a command (``nohup``,
``timeout``, ``numactl``, ``taskset``, ...), which run it.  A command nobody expected
(its name computed) is recorded too, by bash's ``command_not_found_handle``.

Comparison.  A recorded launch is a vLLM launch when its program is ``vllm``, a Python
running a ``vllm`` module or ``benchmark_serving.py``, or a container or remote
command (``docker run|exec``, ``ssh``, ``srun``, ...) whose words mention vllm.  vcfg's
launch and the record agree when every word vcfg knows equals bash's word, word for
word; a word vcfg marks unknown (a command's output: the stubs print nothing) matches
any word, and an unquoted unknown (``$EXTRA``) any number of words.  For direct
launches the environment must agree on every variable vLLM reads (the release's
``vllm/envs.py`` names, any ``VLLM_*`` and ``CUDA_VISIBLE_DEVICES``); a container's
own environment is not the ``docker`` process's, so container launches compare words
only.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

BWRAP = shutil.which("bwrap")
BASH = shutil.which("bash") or "/bin/bash"

#: real programs the scripts use to compute their own words; nothing here writes
#: outside the working folder or reaches the network
REAL = (
    "cat", "seq", "sed", "awk", "tr", "cut", "head", "tail", "grep", "wc", "sort", "uniq",
    "basename", "dirname", "mkdir", "touch", "tee", "rm", "cp", "mv", "ls", "env", "expr",
    "mktemp", "realpath", "readlink", "xargs", "bash", "sh", "printf", "echo", "true",
    "false", "test", "[", "id", "whoami", "date", "jq", "paste", "rev", "fold", "yes",
    "ln", "chmod", "cmp", "diff", "find", "getopt",
)  # fmt: skip
#: programs that always get a stub, whether or not the script names them statically
STUBS = (
    "vllm", "python", "python3", "python3.10", "python3.11", "python3.12", "docker", "podman",
    "kubectl", "nvidia-smi", "curl", "wget", "sleep", "kill", "pkill", "killall", "pgrep",
    "hostname", "ip", "ifconfig", "ssh", "scp", "srun", "sbatch", "ray", "pip", "uv", "git",
    "lsof", "ss", "netstat", "nc", "ping", "ps", "free", "nproc", "lscpu", "rocm-smi",
    "huggingface-cli", "hf", "vllm-router", "redis-server", "etcd", "nats-server",
    "mooncake_master", "tmux", "screen",
)  # fmt: skip
#: wrappers that run the rest of their arguments: name -> options that take a value
WRAPPERS = {
    "nohup": "",
    "setsid": "",
    "stdbuf": "-i -o -e",
    "nice": "-n",
    "ionice": "-c -n -p",
    "chrt": "",
    "unbuffer": "",
    "sudo": "-u -g -C -D -h -p -r -t -U",
    "numactl": "-N -m -C -i -p -P -w --cpunodebind --membind --physcpubind --interleave --preferred --cpubind",
    "timeout": "-s -k --signal --kill-after",
    "taskset": "",
    "time": "-f -o",
    # `uv run [options] CMD`: its other subcommands (`uv pip install`) run nothing
    "uv": "",
}

_JSON_ESCAPE = r"""
__j() { local s=$1; s=${s//\\/\\\\}; s=${s//\"/\\\"}; s=${s//$'\n'/\\n}; s=${s//$'\r'/\\r}; s=${s//$'\t'/\\t}; printf '"%s"' "$s"; }
__record() {
  local line first=1 n a
  line='{"argv":['
  for a in "$@"; do
    if [ $first = 1 ]; then first=0; else line+=','; fi
    line+=$(__j "$a")
  done
  line+='],"cwd":'$(__j "$PWD")',"env":{'
  first=1
  for n in $(compgen -e); do
    case $n in SHLVL|_|PWD|OLDPWD|__VCFG_REC) continue;; esac
    if [ $first = 1 ]; then first=0; else line+=','; fi
    line+=$(__j "$n")':'$(__j "${!n}")
  done
  line+='}}'
  printf '%s\n' "$line" > "$__rec_dir/$$-$RANDOM$RANDOM.json"
}
"""

_STUB = (
    """#!/bin/bash -p
__rec_dir="${0%/*}/../rec"
"""
    + _JSON_ESCAPE
    + """
__record "${0##*/}" "$@"
exit 0
"""
)

_WRAPPER = """#!/bin/bash -p
valued=" %s "
shift_mask() { :; }
name="${0##*/}"
while [ $# -gt 0 ]; do
  case $1 in
    --) shift; break;;
    --*=*) shift;;
    -*) if [[ $valued == *" $1 "* ]]; then shift 2; else shift; fi;;
    *) break;;
  esac
done
case $name in
  timeout|chrt) shift;;
  taskset) shift;;
  uv)
    [ "$1" = run ] || exit 0
    shift
    while [ $# -gt 0 ]; do
      case $1 in
        -n|--name|-p|--prefix|--with|--python|--project|--directory) shift 2;;
        -*) shift;;
        *) break;;
      esac
    done;;
esac
[ $# -gt 0 ] || exit 0
exec "$@"
"""

#: bash runs this before the script: commands not on PATH are recorded too
_PRELUDE = (
    """__rec_dir="$__VCFG_REC"; unset __VCFG_REC
"""
    + _JSON_ESCAPE
    + """
command_not_found_handle() { ( export __VCFG_NOT_FOUND=1; __record "$@" ); return 0; }
# the stubs exit at once, so `kill` acts as on a server that runs until killed: the
# first kill of a process succeeds, a later one fails (`kill -0` only asks); never the
# shell's own group
declare -gA __vcfg_killed
kill() {
  local t=() x rc=0 sig=0 probe=0
  while (($#)); do
    case $1 in
      --) shift; t+=("$@"); break;;
      -s|-n) [ "${2:-}" = 0 ] && probe=1; sig=1; shift 2;;
      -l|-L) return 0;;
      -*) if ((sig == 0 && ${#t[@]} == 0)); then sig=1; [ "$1" = -0 ] && probe=1; else t+=("$1"); fi; shift;;
      *) t+=("$1"); shift;;
    esac
  done
  # `kill -0` asks whether a process is alive: it is until it has been killed
  for x in "${t[@]}"; do
    case $x in 0|-*|"$$") continue;; "") rc=1; continue;; esac
    if [ -n "${__vcfg_killed[$x]:-}" ]; then rc=1; elif ((!probe)); then __vcfg_killed[$x]=1; fi
  done
  return $rc
}
# background stubs finish writing before the shell (and the sandbox) ends; a script's
# own EXIT trap runs after that
__vcfg_exit() { wait; }
builtin trap __vcfg_exit EXIT
trap() {
  local a
  for a in "${@:2}"; do
    if [ "$a" = EXIT ] || [ "$a" = 0 ]; then
      if [ "$1" = - ] || [ -z "$1" ]; then builtin trap __vcfg_exit EXIT; else builtin trap "wait; $1" "${@:2}"; fi
      return
    fi
  done
  builtin trap "$@"
}
"""
)


@dataclass
class BashRun:
    """What bash did with one script."""

    records: list[dict[str, Any]]
    returncode: Optional[int]  # None: timed out
    stderr: str
    env: dict[str, str]
    #: the script's path as bash ran it ($0)
    script_path: str = ""

    @property
    def reason(self) -> Optional[str]:
        """Why the script did not run to its end, or None."""
        if self.returncode is None:
            return "timed out (a loop that waits for something the stubs never give)"
        if self.returncode != 0:
            last = [line for line in self.stderr.splitlines() if line.strip()]
            return f"bash exited {self.returncode}: {last[-1] if last else 'no message'}"
        return None


def sandbox_available() -> Optional[str]:
    """None when the sandbox works here, else why not."""
    if BWRAP is None:
        return "bubblewrap (bwrap) is not installed"
    try:
        r = subprocess.run(
            [BWRAP, "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "true"],
            capture_output=True,
            timeout=20,
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"bwrap does not start: {e}"
    if r.returncode != 0:
        return f"bwrap does not start: {r.stderr.decode(errors='replace').strip()}"
    return None


def _command_names(data: bytes) -> set[str]:
    """Command names written literally in a script (its own and its eval strings')."""
    from vcfg.launch.shell import parse_tree

    names: set[str] = set()
    stack = [parse_tree(data).root_node]
    while stack:
        n = stack.pop()
        if n.type == "command_name":
            t = data[n.start_byte : n.end_byte].decode("utf-8", "replace")
            if re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*", t):
                names.add(t)
        stack.extend(n.children)
    # words that look like programs inside strings (eval "$CMD", bash -c "...")
    for m in re.finditer(rb"(?:^|[\s;&|(\"'`])([A-Za-z][A-Za-z0-9_.+-]*)", data):
        w = m.group(1).decode("utf-8", "replace")
        if w in STUBS or w in WRAPPERS:
            names.add(w)
    return names


def run_bash(
    script: Path,
    *,
    root: Optional[Path] = None,
    timeout: float = 20.0,
    extra_env: Optional[dict[str, str]] = None,
    args: tuple[str, ...] = (),
) -> BashRun:
    """Run ``script`` (with the folder ``root`` it lives in, copied) under bash in
    the sandbox.  Returns the records of every stubbed program it started."""
    root = root or script.parent
    with tempfile.TemporaryDirectory(prefix="vcfg-oracle-") as tmp:
        t = Path(tmp)
        work = t / "work"
        shutil.copytree(root, work, symlinks=True)
        bindir, rec, home = t / "bin", t / "rec", t / "home"
        for d in (bindir, rec, home):
            d.mkdir()
        data = script.read_bytes()
        names = _command_names(data) | set(STUBS) | set(WRAPPERS)
        for name in sorted(names):
            target = bindir / name
            if name in REAL:
                continue
            if name in WRAPPERS:
                target.write_text(_WRAPPER % WRAPPERS[name])
            else:
                target.write_text(_STUB)
            target.chmod(0o755)
        for name in REAL:
            real = shutil.which(name, path="/usr/local/bin:/usr/bin:/bin")
            if real and not (bindir / name).exists():
                (bindir / name).symlink_to(real)
        prelude = t / "prelude.sh"
        prelude.write_text(_PRELUDE)
        rel = script.relative_to(root)
        env = {"PATH": str(bindir), "HOME": str(home), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
        env.update(extra_env or {})
        cmd = [
            BWRAP,
            "--ro-bind",
            "/",
            "/",
            "--dev",
            "/dev",
            "--proc",
            "/proc",
            "--tmpfs",
            "/tmp",
            "--bind",
            str(t),
            str(t),
            "--unshare-all",
            "--die-with-parent",
            "--new-session",
            "--clearenv",
        ]
        for k, v in env.items():
            cmd += ["--setenv", k, v]
        cmd += [
            "--setenv",
            "__VCFG_REC",
            str(rec),
            "--chdir",
            str(work / rel.parent),
            BASH,
            "--norc",
            "--noprofile",
            "-c",
            f'. {json.dumps(str(prelude))}; . "$0"',
            str(work / rel),
            *args,
        ]
        # `. "$0"`: the script runs in the shell that holds the prelude's functions,
        # with $0 its path; `exit` in it ends that shell, as it would end the script
        try:
            p = subprocess.run(cmd, capture_output=True, timeout=timeout)
            rc: Optional[int] = p.returncode
            stderr = p.stderr.decode("utf-8", "replace")
        except subprocess.TimeoutExpired as e:
            rc = None
            stderr = (e.stderr or b"").decode("utf-8", "replace")
        records = []
        for f in sorted(rec.iterdir()):
            for line in f.read_text(encoding="utf-8", errors="replace").splitlines():
                if line.strip():
                    r = json.loads(line, strict=False)
                    r["cwd"] = _unmap(r["cwd"], work)
                    records.append(r)
        return BashRun(records, rc, stderr, env, str(work / rel))


def _unmap(path: str, work: Path) -> str:
    w = str(work)
    return "." + path[len(w) :] if path.startswith(w) else path


# --------------------------------------------------------------------------- comparison

_CONTAINER = ("docker", "podman", "ssh", "srun", "kubectl", "sudo", "tmux", "screen")
#: a redirection token of a ``sh -c`` string read with shlex (``>``, ``2>&1``, ``&>>``)
_REDIRECT = re.compile(r"\d*(>>?|<|&>>?)(&\d)?")
_PY = re.compile(r"python(\d+(\.\d+)?)?\Z")


def is_vllm_record(r: dict[str, Any]) -> bool:
    argv = r["argv"]
    prog = argv[0].rsplit("/", 1)[-1]
    if prog == "vllm":
        return True
    if _PY.match(prog):
        head = argv[1:4]
        return any(a.startswith(("vllm", "-mvllm")) for a in head) or any(
            a.endswith("benchmark_serving.py") for a in argv[1:3]
        )
    if prog == "tmux":
        # what the pane's shell runs: keys typed with Enter, or a session's command
        # (a session named vllm is no launch)
        words = tmux_words(argv)
        return bool(words) and is_vllm_record({"argv": words})
    if prog in _CONTAINER:
        if not any("vllm" in a for a in argv[1:]):
            return False
        if prog in ("docker", "podman") and argv[1:2] != ["run"]:
            # only `run` starts an image's server; `exec` runs its command (a launch only if
            # that is one: not `pgrep -f "vllm serve"`); `build`, `pull` ... start nothing
            return argv[1:2] == ["exec"] and any(
                is_vllm_record({"argv": c})
                for c in container_commands(argv)
                if c and c[0].rsplit("/", 1)[-1] not in _CONTAINER
            )
        if prog in ("docker", "podman") and any(a == "--entrypoint" or a.startswith("--entrypoint=") for a in argv):
            # the entrypoint replaces the image's server: a launch only if what it runs is one
            # (`--entrypoint /bin/bash IMAGE -c "ray start ..."` starts Ray, not vLLM)
            return any(
                is_vllm_record({"argv": c})
                for c in container_commands(argv)
                if c and c[0].rsplit("/", 1)[-1] not in _CONTAINER
            )
        return True
    return False


def ssh_remote_words(argv: list[str]) -> list[str]:
    """The words the remote shell runs for ``ssh [options] HOST WORDS...``: the words
    joined with spaces and read again (shlex: quotes, no expansions)."""
    import shlex

    i = 1
    while i < len(argv) and argv[i].startswith("-") and argv[i] != "--":
        i += 2 if len(argv[i]) == 2 and argv[i][1] in "BbcDEeFIiJLlmOoPpQRSWw" else 1
    if i < len(argv) and argv[i] == "--":
        i += 1
    try:
        return shlex.split(" ".join(argv[i + 1 :]))
    except ValueError:
        return argv[i + 1 :]


def tmux_words(argv: list[str]) -> list[str]:
    """The words the pane's shell runs for ``tmux [options] send-keys [-t T] KEYS... C-m``
    (the keys but the Enter ones, read again with shlex), or the command words of
    ``tmux new-session|new-window ... CMD...``."""
    import shlex

    enter = {"C-m", "Enter", "KPEnter", "C-j"}
    i = 1
    while i < len(argv) and argv[i].startswith("-"):
        i += 2 if argv[i] in ("-L", "-S", "-f", "-c", "-T") else 1
    sub, i = (argv[i] if i < len(argv) else ""), i + 1
    valued = (
        ("-t", "-N") if sub in ("send-keys", "send") else ("-c", "-e", "-F", "-n", "-s", "-t", "-x", "-y", "-l", "-p")
    )
    while i < len(argv) and argv[i].startswith("-"):
        i += 2 if argv[i] in valued else 1
    if sub in ("send-keys", "send"):
        if not argv[i:] or argv[-1] not in enter:
            return []  # typed, not run
        keys = [a for a in argv[i:] if a not in enter]
    elif sub in ("new-session", "new", "new-window", "neww", "split-window", "splitw"):
        keys = argv[i:]
    else:
        return []
    try:
        return shlex.split(" ".join(keys))
    except ValueError:
        return keys


def container_commands(argv: list[str]) -> list[list[str]]:
    """The commands a container or remote record may run: every suffix of its words
    (``docker run IMAGE ARGS``; with ``--entrypoint E``, E before each suffix), and each
    command of a ``sh -c STRING`` among them,
    read with shlex and split at ``&&``, ``||``, ``;`` and ``|``."""
    import shlex

    # a suffix starts at a program word, not at an option's value such as a volume
    # (`-v /home/vllm:/workspace/vllm`: not the program `vllm`)
    out = [argv[s:] for s in range(len(argv)) if ":" not in argv[s]]
    # `docker run --entrypoint E IMAGE WORDS`: E runs with the words after the image
    for k, a in enumerate(argv[:-1]):
        if a == "--entrypoint" or a.startswith("--entrypoint="):
            ep = argv[k + 1] if a == "--entrypoint" else a.split("=", 1)[1]
            out.extend([ep] + argv[s:] for s in range(k + 2, len(argv)))
            break
    for k, a in enumerate(argv[:-1]):
        if a.rsplit("/", 1)[-1] in ("bash", "sh") and argv[k + 1] == "-c" and k + 2 < len(argv):
            try:
                toks = shlex.split(argv[k + 2])
            except ValueError:
                continue
            cmd: list[str] = []
            skip = False
            for t in toks + [";"]:
                if skip:  # the file of a redirection
                    skip = False
                elif t in ("&&", "||", ";", "|", "&"):
                    if cmd:
                        out.append(cmd)
                    cmd = []
                elif _REDIRECT.fullmatch(t):
                    skip = not t.endswith(("&1", "&2")) and t[-1] in "<>"
                else:
                    cmd.append(t)
    return out


def program_index(inv: Any) -> int:
    """Where the program (``vllm``, ``python3``, ``docker``) sits in ``inv.command``."""
    words = inv.command
    start = len(words) - len(inv.args) - 1
    for k in range(start, -1, -1):
        t = words[k].text
        if t is None:
            continue
        b = t.rsplit("/", 1)[-1]
        if b == "vllm" or _PY.match(b) or b in ("docker", "podman"):
            return k
    return 0


def _pattern(w: Any) -> "re.Pattern[str]":
    """A regex for a vcfg word: its known characters, anything at each hole."""
    parts = []
    pos = 0
    for h in sorted(w.holes, key=lambda h: h.at):
        parts.append(re.escape(w.value[pos : h.at]))
        parts.append(".*")
        pos = h.at
    parts.append(re.escape(w.value[pos:]))
    return re.compile("".join(parts), re.S)


def words_match(mine: list[Any], bash: list[str]) -> bool:
    """vcfg's words against bash's, unknowns as wildcards (unquoted ones for any count)."""
    memo: dict[tuple[int, int], bool] = {}

    def go(i: int, j: int) -> bool:
        key = (i, j)
        if key in memo:
            return memo[key]
        if i == len(mine):
            res = j == len(bash)
        else:
            w = mine[i]
            if w.known:
                res = j < len(bash) and bash[j] == w.value and go(i + 1, j + 1)
            elif w.may_split:
                pat = _pattern(w)
                res = False
                for k in range(j, len(bash) + 1):
                    if pat.fullmatch(" ".join(bash[j:k])) and go(i + 1, k):
                        res = True
                        break
            else:
                res = j < len(bash) and bool(_pattern(w).fullmatch(bash[j])) and go(i + 1, j + 1)
        memo[key] = res
        return res

    return go(0, 0)


def vllm_reads(name: str, catalog_names: set[str]) -> bool:
    return name in catalog_names or name.startswith("VLLM_") or name == "CUDA_VISIBLE_DEVICES"


def env_differences(inv: Any, env: dict[str, str], catalog_names: set[str]) -> list[str]:
    """Variables vLLM reads on which vcfg's environment and bash's differ."""
    mine = inv.exported_env()
    out = []
    names = {n for n in set(mine) | set(env) if vllm_reads(n, catalog_names)}
    for n in sorted(names):
        b = mine.get(n)
        if b is None:
            if n in env and not inv.env_unknowns:
                out.append(f"{n}: bash passes {env[n]!r}, vcfg says it is not set")
            continue
        if not b.value.known:
            continue
        if n not in env:
            out.append(f"{n}: vcfg says {b.value.value!r}, bash does not pass it")
        elif env[n] != b.value.value:
            out.append(f"{n}: vcfg says {b.value.value!r}, bash passes {env[n]!r}")
    return out


@dataclass
class Comparison:
    """One script: bash's vLLM launches against vcfg's."""

    path: str
    agreed: int = 0
    #: launches bash ran that vcfg read with some unknown words (wildcards)
    with_unknowns: int = 0
    words: int = 0
    unknown_words: int = 0
    env_checked: int = 0
    disagreements: list[str] = field(default_factory=list)
    #: vcfg's launches bash did not run on its path (conditional ones are fine)
    not_run: list[str] = field(default_factory=list)

    @property
    def launches(self) -> int:
        return self.agreed + len([d for d in self.disagreements if d.startswith("launch")])


def compare(path: str, run: BashRun, plan: Any, catalog_names: set[str]) -> Comparison:
    from vcfg.launch.model import BENCH_SERVE, SERVE, VLLM_OTHER

    cmp = Comparison(path)
    invs = [i for i in plan.invocations if i.kind in (SERVE, BENCH_SERVE, VLLM_OTHER)]
    used: set[int] = set()
    for r in (r for r in run.records if is_vllm_record(r)):
        argv = r["argv"]
        container = argv[0].rsplit("/", 1)[-1] in _CONTAINER
        hit = None
        for k, inv in enumerate(invs):
            if k in used:
                continue
            mine = list(inv.command[program_index(inv) :])
            if argv[0] == "ssh":
                ok = words_match(mine, ssh_remote_words(argv))
            elif argv[0] == "tmux":
                ok = words_match(mine, tmux_words(argv))
            elif container:
                ok = any(words_match(mine, cand) for cand in container_commands(argv))
            else:
                ok = words_match(mine, argv)
            if ok and (container or not env_differences(inv, r["env"], catalog_names)):
                hit = k
                break
        if hit is None:
            # the nearest launch by words, for the message
            why = ""
            for inv in invs:
                mine = list(inv.command[program_index(inv) :])
                if words_match(mine, argv):
                    why = "; ".join(env_differences(inv, r["env"], catalog_names))
                    break
            shown = " ".join(argv)
            cmp.disagreements.append(
                f"launch bash ran, vcfg read differently or not at all: {shown[:300]}" + (f" ({why})" if why else "")
            )
            continue
        used.add(hit)
        inv = invs[hit]
        cmp.agreed += 1
        mine = list(inv.command[program_index(inv) :])
        cmp.words += len(mine)
        unknown = sum(1 for w in mine if not w.known)
        cmp.unknown_words += unknown
        if unknown:
            cmp.with_unknowns += 1
        if not container:
            cmp.env_checked += 1
    for k, inv in enumerate(invs):
        if k in used:
            continue
        text = " ".join(w.text if w.text is not None else "<?>" for w in inv.command)
        where = f"line {inv.span.line}"
        if inv.conditional or inv.function is not None or inv.path:
            cmp.not_run.append(f"{where}: {text[:200]} (on a path bash did not take)")
        elif run.reason:
            cmp.not_run.append(f"{where}: {text[:200]} (bash stopped before it: {run.reason})")
        else:
            cmp.disagreements.append(f"vcfg reads a launch bash did not run, {where}: {text[:300]}")
    return cmp


# --------------------------------------------------------------------------- the corpus

CORPUS = Path(__file__).parent / "corpus"


def corpus_scripts() -> list[Path]:
    """Every shell script of tests/corpus (clean, seeded and real)."""
    return sorted(p for p in CORPUS.rglob("*.sh") if p.is_file())


def target_version(path: Path) -> Optional[str]:
    m = re.search(rb"# vcfg-test: vllm=([0-9.]+)", path.read_bytes()[:200])
    return m.group(1).decode() if m else None


#: scripts that need arguments (and variables) from their caller: how their own usage
#: text or comments say to run them
CALLS: dict[str, list[tuple[tuple[str, ...], dict[str, str]]]] = {
    "real/bash/tpu-inference/run_dp_external_lb.sh": [
        (
            (
                "google/gemma-4-26B-A4B-it",
                "--max-model-len=1524",
                "--max-num-seqs=1024",
                "--data-parallel-size",
                "4",
                "--tensor-parallel-size",
                "2",
            ),
            {"VLLM_ENGINE_READY_TIMEOUT_S": "6000", "MOE_REQUANTIZE_WEIGHT_DTYPE": "float8_e4m3fn"},
        ),
        (("serve", "Qwen/Qwen3-0.6B"), {}),
    ],
    # its usage: `<prefiller | decoder> [model]` (spaces around the bar)
    "real/bash/vllm-gaudi/disagg_vllm_launcher_gaudi_lm.sh": [(("prefiller",), {}), (("decoder",), {})],
    # its own example: COORDINATOR_IP=10.0.0.1 START_RANK=8 ./launch_server.sh
    "real/bash/vllm/wide_ep_launch_server.sh": [((), {"COORDINATOR_IP": "10.0.0.1", "START_RANK": "8"})],
    # its comment: run with CONTIGUOUS_PA=True and/or ASYNC_SCHEDULING=1
    "shell/undecided-appends.sh": [
        ((), {"CONTIGUOUS_PA": "False", "ASYNC_SCHEDULING": "0"}),
        ((), {"CONTIGUOUS_PA": "True"}),
        ((), {"ASYNC_SCHEDULING": "1"}),
        ((), {"CONTIGUOUS_PA": "True", "ASYNC_SCHEDULING": "1"}),
    ],
    # its usage: <role> <node1 ip> [rpc port] [model] [backend] [dp] [local dp] [tp] [api servers|start rank]
    "real/bash/uccl/launch_vllm.sh": [
        (("head", "10.0.0.1"), {}),
        (("worker", "10.0.0.1", "13345", "m", "allgather_reducescatter", "2", "1", "8", "1"), {}),
    ],
    # its usage: <role> <prefill head ip> <decode head ip> [start rank]
    "real/bash/uccl/launch_vllm_pd_intel_nic.sh": [
        (("prefill-head", "10.0.0.1", "10.0.0.2"), {}),
        (("decode-worker", "10.0.0.1", "10.0.0.2", "1"), {}),
        (("proxy", "10.0.0.1", "10.0.0.2"), {}),
    ],
    # its usage: [--port P] [--model M] [--tp N] vllm|sglang
    "real/bash/kvcached/start_server.sh": [(("--port", "8000", "--tp", "2", "vllm"), {})],
    # MODEL_PATH and VLLM_API_KEY are required (it refuses to start without them)
    "real/bash/vllm-multi-gpu-launcher/launch_vllm.sh": [((), {"MODEL_PATH": "/models/m", "VLLM_API_KEY": "k"})],
    # its options: -m model (-t tensor parallel size); the rest from its .env (not here); one
    # GPU, so one pane (vcfg reads the loop over a slice of the ports once)
    "real/bash/MultiNode-vLLM-serve/main.sh": [
        (
            ("-m", "/models/m"),
            {"START_PORT": "8000", "NUM_GPUS_PER_NODE": "1", "LOG_DIR": "/tmp/logs", "TMUX_SESSION_NAME": "vllm"},
        )
    ],
    # its usage: docker_image head_node_address --head|--worker path_to_hf_home
    "real/negative/docker-run/vllm-run_cluster.sh": [
        (("vllm/vllm-openai:v0.10.2", "10.0.0.1", "--head", "/data/hf"), {}),
        (("vllm/vllm-openai:v0.10.2", "10.0.0.1", "--worker", "/data/hf"), {}),
    ],
}

_USAGE = re.compile(r"usage:.*?\b([A-Za-z0-9_-]+(?:\|[A-Za-z0-9_-]+)+)", re.I)


def check_script(path: Path) -> list[tuple[BashRun, Comparison]]:
    """Run one corpus script under bash and compare vcfg's reading of it.  A script
    that stops with a usage message naming its roles (``usage: run.sh prefill|decode``)
    is run once per role, with the role as its argument."""
    from vcfg.launch.shell import parse_script
    from vcfg.lint.config import LintConfig
    from vcfg.lint.engine import make_target

    cat = make_target(target_version(path), LintConfig(), ()).catalog
    names = {e.name for e in cat.env_vars}
    label = str(path.relative_to(CORPUS))
    calls = CALLS.get(label)
    if calls is None:
        run = run_bash(path)
        m = _USAGE.search(run.stderr) if run.returncode else None
        calls = [((alt,), {}) for alt in m.group(1).split("|")] if m else [((), {})]
    out = []
    for args, env in calls:
        if args or env:
            run = run_bash(path, args=args, extra_env=env)
        # read where the script lives (a `source` of a file beside it is read from
        # there); bash ran a copy, so $0 differs: the scripts' launches do not use it
        plan = parse_script(path.read_bytes(), str(path), environ=run.env, args=list(args))
        shown = f"{label} {' '.join(args)}".strip()
        out.append((run, compare(shown, run, plan, names)))
    return out


def main() -> int:
    """``python tests/bash_oracle.py``: the agreement table over the corpus."""
    why = sandbox_available()
    if why:
        print(f"cannot run the oracle: {why}")
        return 2
    totals = dict(scripts=0, launches=0, agreed=0, with_unknowns=0, words=0, unknown_words=0, env=0)
    cannot: list[tuple[str, str]] = []
    bad = 0
    for path in corpus_scripts():
        totals["scripts"] += 1
        for run, c in check_script(path):
            if run.reason:
                cannot.append((c.path, run.reason))
            totals["launches"] += c.launches
            totals["agreed"] += c.agreed
            totals["with_unknowns"] += c.with_unknowns
            totals["words"] += c.words
            totals["unknown_words"] += c.unknown_words
            totals["env"] += c.env_checked
            for d in c.disagreements:
                bad += 1
                print(f"DISAGREE {c.path}: {d}")
    print(json.dumps(totals))
    for p, r in cannot:
        print(f"CANNOT RUN {p}: {r}")
    return 1 if bad else 0


if __name__ == "__main__":
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    raise SystemExit(main())
