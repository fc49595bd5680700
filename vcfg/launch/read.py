"""Which reader takes a file, and the launch plans of a run's files.

`choose` asks the readers whose patterns (or shebang interpreters) fit a file for
their evidence and keeps the most confident one; a file no reader claims has no
launch and nothing is reported about it.  Reader modules are imported only when a
file may be theirs (`vcfg.launch.readers.REGISTRY` is plain data), so the cold lint
of a bash script imports the bash reader and nothing else.

`read_files` reads a whole run: a YAML file that a launch of the run reads with
``--config`` is that launch's config (read as part of it, with no launch of its
own); other YAML files are serve configs only when their name and shape say so.
"""

from __future__ import annotations

import importlib
import os
import sys
from fnmatch import fnmatchcase
from types import ModuleType
from typing import Any, Optional, Sequence

from vcfg.fileio import MAX_BYTES  # noqa: E402  (re-exported)
from vcfg.launch.model import MAX_LAUNCHES, LaunchPlan, ParseProblem
from vcfg.launch.readers import REGISTRY, Evidence, ReadContext, shebang_interpreter
from vcfg.records import field, record
from vcfg.span import forget_source_text, source_text

#: suffixes of data formats that are never read as shell scripts, even when named
_NOT_SCRIPTS = {
    ".json",
    ".jsonl",
    ".toml",
    ".ini",
    ".cfg",
    ".conf",
    ".xml",
    ".csv",
    ".tsv",
    ".lock",
    ".py",
    ".txt",
    ".rst",
    ".html",
    ".js",
    ".ts",
    ".go",
    ".rs",
    ".c",
    ".h",
    ".cpp",
    ".java",
    ".png",
    ".jpg",
    ".jpeg",
    ".gif",
    ".svg",
    ".pdf",
    ".zip",
    ".gz",
    ".tar",
    ".whl",
    ".tpl",
}


@record
class Choice:
    """The reader chosen for a file (None: no reader claims it) and what each
    reader that looked at it said."""

    path: str
    reader: Optional[str]
    evidence: Optional[Evidence]
    #: (reader, evidence or None, why it was not asked) for every reader in the registry
    considered: list[tuple[str, Optional[Evidence], str]] = field(default_factory=list)


def special_kind(path: str) -> Optional[str]:
    """ "a FIFO", "a socket", "a character device", "a block device" for such a path
    (which opening could block on, or read without end), else None; never opens it."""
    import stat

    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    for test, what in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    ):
        if test(mode):
            return what
    return None


def read_bytes(path: str) -> bytes:
    """A file's first `MAX_BYTES` + 1 bytes ('-': stdin); VcfgError if unreadable, and
    at once, without opening it, for a FIFO, socket or device."""
    from vcfg.errors import VcfgError

    if path != "-" and (kind := special_kind(path)):
        raise VcfgError(f"{path}: {kind}, not a regular file; not read")
    try:
        if path == "-":
            import sys

            return sys.stdin.buffer.read(MAX_BYTES + 1)
        from vcfg.fileio import read_regular

        return read_regular(path, MAX_BYTES)
    except OSError as e:
        raise VcfgError(f"cannot read {path}: {e.strerror or e}") from e


_MODULES: dict[str, ModuleType] = {}


def reader_module(name: str) -> ModuleType:
    mod = _MODULES.get(name)
    if mod is None:
        mod = _MODULES[name] = importlib.import_module(f"vcfg.launch.readers.{name}")
    return mod


def all_readers() -> list[Any]:
    """Every reader's record, in registry order (imports every reader module)."""
    return [reader_module(name).READER for name, _, _ in REGISTRY]


def _fits(name: str, patterns: Sequence[str]) -> bool:
    low = name.lower()
    return any(_fit(low, p) for p in patterns)


#: pattern -> ("=", name) | ("end", suffix) | ("start", prefix) | ("glob", pattern)
_PATTERN_KIND: dict[str, tuple[str, str]] = {}


def _fit(low: str, pattern: str) -> bool:
    # "*.sh", "dockerfile" and "dockerfile.*" (every pattern a reader has) without
    # fnmatch's regular expressions: it compiles one per pattern at every start
    kind = _PATTERN_KIND.get(pattern)
    if kind is None:
        if not any(c in pattern for c in "*?[]"):
            kind = ("=", pattern)
        elif pattern[0] == "*" and not any(c in pattern[1:] for c in "*?[]"):
            kind = ("end", pattern[1:])
        elif pattern[-1] == "*" and not any(c in pattern[:-1] for c in "*?[]"):
            kind = ("start", pattern[:-1])
        else:
            kind = ("glob", pattern)
        _PATTERN_KIND[pattern] = kind
    how, arg = kind
    if how == "=":
        return low == arg
    if how == "end":
        return low.endswith(arg)
    if how == "start":
        return low.startswith(arg)
    return fnmatchcase(low, arg)


def candidates(path: str, head: bytes = b"") -> list[str]:
    """The readers that may take ``path``: its name fits their patterns, or it has
    no extension and its ``#!`` line names one of their interpreters."""
    name = os.path.basename(path)
    out = [mod for mod, patterns, _ in REGISTRY if _fits(name, patterns)]
    if not out and "." not in name.lstrip("."):
        prog = shebang_interpreter(head)
        if prog:
            out = [mod for mod, _, shells in REGISTRY if prog in shells]
    return out


def choose(path: str, text: str, ctx: Optional[ReadContext] = None, head: Optional[bytes] = None) -> Choice:
    """The reader for one file.  Readers whose patterns do not fit are not imported."""
    ctx = ctx if ctx is not None else ReadContext()
    if head is None:
        head = text[:256].encode("utf-8", "surrogateescape")
    asked = candidates(path, head)
    best: Optional[Evidence] = None
    considered: list[tuple[str, Optional[Evidence], str]] = []
    for mod, patterns, shells in REGISTRY:
        if mod not in asked:
            considered.append(
                (
                    mod,
                    None,
                    "the name does not fit "
                    + ", ".join(patterns)
                    + (f" and it has no #! line naming {', '.join(shells)}" if shells else ""),
                )
            )
            continue
        ev = reader_module(mod).detect(path, text, ctx)
        considered.append((mod, ev, "" if ev is not None else "asked: it found nothing it reads"))
        if ev is not None and ev.claims and (best is None or ev.confidence > best.confidence):
            best = ev
    if best is None and ctx.named and _script_fallback(path, asked):
        best = Evidence(
            "bash", 0.1, ("named on the command line, and no other reader claims it: read as a shell script",)
        )
    return Choice(path, best.reader if best else None, best, considered)


def _script_fallback(path: str, asked: list[str]) -> bool:
    """A file the user named whose name no reader's patterns fit is read as a shell
    script (a launcher called ``run`` or ``start.txt``), unless its suffix names a
    data format."""
    if asked or path in ("-", "<stdin>"):
        return not asked
    suffix = os.path.splitext(path)[1].lower()
    return suffix not in _NOT_SCRIPTS


def read_plan(path: str, data: bytes, ctx: Optional[ReadContext] = None, choice: Optional[Choice] = None) -> LaunchPlan:
    """The launch plan of one file: its reader's, or an empty plan if none claims it."""
    try:
        return _read_plan(path, data, ctx if ctx is not None else ReadContext(), choice)
    finally:
        forget_source_text()  # the file's text is not kept past its reading


def _read_plan(path: str, data: bytes, ctx: ReadContext, choice: Optional[Choice]) -> LaunchPlan:
    if choice is None:
        choice = choose(path, source_text(data), ctx, data[:256])
    if choice.evidence is None or choice.reader is None:
        return LaunchPlan(path, source_kind="none")
    plan = capped(reader_module(choice.reader).read(path, data, choice.evidence, ctx))
    yaml_docs = sys.modules.get("vcfg.launch.readers._yaml")
    if yaml_docs is not None and path in yaml_docs.STOPPED and plan.source_kind != "bash":
        plan = _stopped_note(plan, data, yaml_docs.STOPPED[path])
    if plan.invocations and b"==" in data:
        from vcfg.launch.release import file_pin

        pin = file_pin(data, path)  # `pip install vllm==0.9.2`: the release, unless an image says
        if pin is not None:
            plan = plan._replace(invocations=tuple(i._replace(pin=pin) for i in plan.invocations))
    return plan


def _stopped_note(plan: LaunchPlan, data: bytes, at: int) -> LaunchPlan:
    """The VC000 note of a YAML file whose documents stopped being read (`_yaml.MAX_CHARS`)."""
    from vcfg.launch.model import LineIndex
    from vcfg.launch.readers._yaml import MAX_CHARS

    b = len(data.decode("utf-8", "surrogateescape")[:at].encode("utf-8", "surrogateescape"))
    note = ParseProblem(
        "limit",
        f"only the YAML documents in the first {MAX_CHARS >> 20} MiB of this file are "
        "read: the ones after this one are not checked",
        LineIndex(data, plan.path).span(b, b),
    )
    return plan._replace(problems=(*plan.problems, note))


def capped(plan: LaunchPlan) -> LaunchPlan:
    """At most `MAX_LAUNCHES` launches of one file, whatever its reader (the shell
    reader stops there itself; the YAML readers stop soon after): the first one left
    out gets a VC000 note."""
    if len(plan.invocations) <= MAX_LAUNCHES:
        return plan
    first_out = plan.invocations[MAX_LAUNCHES]
    note = ParseProblem(
        "limit",
        f"more than {MAX_LAUNCHES:,} launches in this file: this one and the ones after it are not checked",
        first_out.span,
    )
    return plan._replace(invocations=plan.invocations[:MAX_LAUNCHES], problems=(*plan.problems, note))


def config_references(plan: LaunchPlan) -> dict[str, str]:
    """Absolute path -> where it is read, for each ``--config FILE.yaml`` a serve
    launch of ``plan`` names (the separate-word form vLLM expands; relative paths
    from the file's folder, as `vcfg.launch.args` reads them)."""
    from vcfg.launch.model import SERVE

    out: dict[str, str] = {}
    if plan.path.startswith("<"):
        return out
    base = os.path.dirname(os.path.abspath(plan.path))
    for inv in plan.invocations:
        if inv.kind != SERVE:
            continue
        args = inv.args
        for i in range(len(args) - 1):
            if args[i].text == "--config":
                target = args[i + 1].text
                if target and target.endswith((".yaml", ".yml")):
                    full = os.path.normpath(target if os.path.isabs(target) else os.path.join(base, target))
                    out.setdefault(full, f"{plan.path}:{args[i].span.line}")
    return out


def read_files(
    files: Sequence[tuple[str, bytes]],
    catalog: Any = None,
    *,
    named: Sequence[bool] = (),
    reuse: Any = None,
    configs: Optional[dict[Any, Any]] = None,
) -> list[LaunchPlan]:
    """The plans of a run's files, in order.  Files a serve config reader may take
    are read last, once every other file's ``--config`` references are known.
    ``reuse``: the last read of the one file given (`ReadContext.reuse`); ``configs``:
    the run's serve configs (`ReadContext.configs`)."""
    ctx = ReadContext(catalog=catalog, reuse=reuse, configs=configs)
    plans: list[Optional[LaunchPlan]] = [None] * len(files)
    later: list[int] = []
    for k, (path, data) in enumerate(files):
        ctx.named = named[k] if k < len(named) else True
        if "serve_config" in candidates(path, data[:256]):
            later.append(k)
            continue
        plan = plans[k] = read_plan(path, data, ctx)
        ctx.referenced.update(config_references(plan))
    for k in later:
        path, data = files[k]
        ctx.named = named[k] if k < len(named) else True
        plan = plans[k] = read_plan(path, data, ctx)
        ctx.referenced.update(config_references(plan))
    return [p for p in plans if p is not None]


def _reader_label(name: str) -> str:
    return name.replace("_", "-")


def describe_choice(choice: Choice, short: bool = False) -> str:
    """Which reader took the file and why, or why none did (``launch show --why``)."""
    ev = choice.evidence
    if ev is not None:
        head = f"read as {_reader_label(ev.reader)}: {'; '.join(ev.reasons)}"
    else:
        head = "no reader claims this file: no vLLM launch is read from it and nothing is reported"
    if short:
        return head
    lines = [f"{choice.path}: {head}"]
    for name, other, why_not in choice.considered:
        label = _reader_label(name)
        if ev is not None and other is ev:
            continue
        if other is None and why_not.startswith("asked: "):
            lines.append(f"  {label}: no: {why_not[len('asked: ') :]}")
        elif other is None:
            lines.append(f"  {label}: not asked: {why_not}")
        elif other.claims:
            lines.append(f"  {label}: also possible, less sure ({other.confidence:.1f}): " + "; ".join(other.reasons))
        else:
            lines.append(f"  {label}: no: {'; '.join(other.reasons)}")
    return "\n".join(lines)


def choice_to_json(choice: Choice) -> dict[str, Any]:
    def ev_json(ev: Optional[Evidence]) -> Optional[dict[str, Any]]:
        if ev is None:
            return None
        return {"reader": _reader_label(ev.reader), "confidence": ev.confidence, "reasons": list(ev.reasons)}

    return {
        "path": choice.path,
        "reader": _reader_label(choice.reader) if choice.reader else None,
        "evidence": ev_json(choice.evidence),
        "considered": [
            {
                "reader": _reader_label(name),
                "evidence": ev_json(ev),
                "not_asked": why if why and not why.startswith("asked: ") else None,
                "no": why[len("asked: ") :] if why.startswith("asked: ") else None,
            }
            for name, ev, why in choice.considered
        ],
    }


def parse_manifest(text: Any, path: str = "<manifest>", *, compose: bool = False) -> LaunchPlan:
    """Kubernetes (or, with ``compose``, Docker Compose) YAML -> `LaunchPlan`: the
    readers in `vcfg.launch.readers` do the work.  Never raises."""
    from vcfg.launch.yaml_config import _decode

    s, word = _decode(text)
    data = s.encode("utf-8", "surrogateescape")
    from vcfg.launch.readers import compose as compose_reader
    from vcfg.launch.readers import kubernetes as kubernetes_reader

    ev = compose_reader.detect(path, s, ReadContext())
    if compose or ev is not None:
        reader, read = compose_reader.READER, compose_reader.read
    else:
        ev = kubernetes_reader.detect(path, s, ReadContext())
        reader, read = kubernetes_reader.READER, kubernetes_reader.read
    ev = ev or Evidence(reader.name, 0.1, ("asked for",))
    return read(path, data, ev, ReadContext())
