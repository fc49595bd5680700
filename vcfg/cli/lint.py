"""``vcfg lint``: argv -> lint -> render -> exit code.

The rest of the command line is click (``vcfg/cli/commands.py``).  This command
reads its few options itself, from the table below, because it runs on every commit
(the pre-commit hook) and importing click, or even building an argparse parser,
costs more than the lint.  ``vcfg.cli.main`` sends ``vcfg lint ...`` here without
importing click; the click group lists the command and forwards to the same `run`.

Exit codes: 0 clean, 1 findings (errors or warnings), 2 usage or internal error.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from vcfg.errors import EXIT_ERROR, EXIT_OK, guarded, write
from vcfg.records import tuple_record

FORMATS = ("full", "concise", "json", "sarif", "github")
USAGE = "usage: vcfg lint [OPTIONS] PATHS..."


@tuple_record
class Option:
    name: str
    dest: str
    #: "value", "repeat" (a value, repeatable) or "flag"
    kind: str
    help: str
    metavar: str = ""
    choices: tuple[str, ...] = ()
    default: Any = None


OPTIONS = (
    Option("--vllm-version", "version", "value", "the release the scripts target", "VERSION"),
    Option("--format", "fmt", "value", "output format (default: full)", "FORMAT", FORMATS, "full"),
    Option("--select", "select", "value", "only these codes or prefixes (comma separated)", "CODES", default=""),
    Option("--ignore", "ignore", "value", "skip these codes or prefixes (comma separated)", "CODES", default=""),
    Option("--config", "config_path", "value", "a .vcfg.toml or pyproject.toml", "FILE"),
    Option("--knowledge", "knowledge", "repeat", "a folder of extra knowledge packs (repeatable)", "DIR"),
    Option("--exit-zero", "exit_zero", "flag", "exit 0 even when there are findings", default=False),
    Option("--fix", "fix", "flag", "apply the safe fixes, then report what is left", default=False),
    Option("--diff", "diff", "flag", "print the fixes as a unified diff; change nothing", default=False),
    Option("--unsafe-fixes", "unsafe_fixes", "flag", "with --fix or --diff: the unsafe fixes too", default=False),
)


class UsageError(Exception):
    pass


def help_text() -> str:
    rows = [("PATHS", "launch scripts, serve-config YAML files or folders; '-' reads stdin")]
    for o in OPTIONS:
        meta = "{" + ",".join(o.choices) + "}" if o.choices else o.metavar
        rows.append((f"{o.name} {meta}".strip(), o.help))
    rows.append(("-h, --help", "show this message and exit"))
    width = max(len(r[0]) for r in rows) + 2
    body = "\n".join(f"  {a.ljust(width)}{b}" for a, b in rows)
    return (
        f"{USAGE}\n\nLint launch scripts and `vllm serve --config` YAML files.\n\n{body}\n\n"
        "Exit 0 clean, 1 findings (errors or warnings), 2 usage or internal error."
    )


def parse_args(argv: Sequence[str]) -> Optional[dict[str, Any]]:
    """The options and paths in ``argv``, or None for ``--help``; `UsageError`."""
    by_name = {o.name: o for o in OPTIONS}
    values: dict[str, Any] = {o.dest: ([] if o.kind == "repeat" else o.default) for o in OPTIONS}
    paths: list[str] = []
    words = list(argv)
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if word == "--":
            paths.extend(words[i:])
            break
        if word in ("-h", "--help"):
            return None
        if not word.startswith("-") or word == "-":
            paths.append(word)
            continue
        name, eq, value = word.partition("=")
        opt = by_name.get(name)
        if opt is None:
            from difflib import get_close_matches

            near = get_close_matches(name, list(by_name), n=1)
            raise UsageError(f"no such option {name}" + (f" (did you mean {near[0]}?)" if near else ""))
        if opt.kind == "flag":
            if eq:
                raise UsageError(f"{name} takes no value")
            values[opt.dest] = True
            continue
        if not eq:
            if i >= len(words):
                raise UsageError(f"{name} needs a value")
            value = words[i]
            i += 1
        if opt.choices and value not in opt.choices:
            raise UsageError(f"{name}: {value!r} is not one of {', '.join(opt.choices)}")
        if opt.kind == "repeat":
            values[opt.dest].append(value)
        else:
            values[opt.dest] = value
    if not paths:
        raise UsageError("give at least one path to lint ('-' reads stdin)")
    values["paths"] = paths
    return values


def run(argv: Sequence[str]) -> int:
    """Run ``vcfg lint`` with ``argv`` (the words after ``lint``); the exit code."""
    try:
        args = parse_args(argv)
    except UsageError as e:
        write(f"{USAGE}\nvcfg lint: error: {e}\n(`vcfg lint --help` lists the options)", err=True)
        return EXIT_ERROR
    if args is None:
        write(help_text())
        return EXIT_OK
    return guarded(_lint, args)


def _lint(args: dict[str, Any]) -> int:
    from pathlib import Path

    from vcfg.lint.config import load_config
    from vcfg.lint.engine import lint_paths

    def codes(s: str) -> list[str]:
        return [c.strip() for c in s.split(",") if c.strip()]

    paths: list[str] = args["paths"]
    # like ruff: the config nearest the (first) linted file, else the working directory's
    first = Path(paths[0])
    start: Optional[Path] = None
    if paths[0] != "-" and first.exists():
        start = first.resolve() if first.is_dir() else first.resolve().parent
    config = load_config(explicit=Path(args["config_path"])) if args["config_path"] else load_config(start)
    if args["fix"] or args["diff"]:  # the fix code loads only here
        from vcfg.fix.report import run_fixes

        return run_fixes(args, lambda files, contents: lint_paths(
            files, args["version"], select=codes(args["select"]), ignore=codes(args["ignore"]),
            config=config, knowledge_dirs=[Path(k) for k in args["knowledge"]], contents=contents,
        ), render)
    result = lint_paths(
        paths,
        args["version"],
        select=codes(args["select"]),
        ignore=codes(args["ignore"]),
        config=config,
        knowledge_dirs=[Path(k) for k in args["knowledge"]],
    )
    write(render(result, args["fmt"]))
    for message in result.internal_errors:
        write(f"vcfg: internal error: {message} (please report it)", err=True)
    if result.internal_errors:
        return EXIT_ERROR
    return EXIT_OK if args["exit_zero"] else result.exit_code


def render(result: Any, fmt: str) -> str:
    """The findings in one of `FORMATS`."""
    if fmt == "full":
        from vcfg.render import full

        return full.render(result.diagnostics, result.summary, result.sources, colour=full.use_colour())
    if fmt == "sarif":
        from vcfg.lint.registry import all_rules
        from vcfg.render import sarif

        return sarif.render(result.diagnostics, result.summary, result.sources, rules=all_rules())
    import importlib

    mod = importlib.import_module(f"vcfg.render.{'json_' if fmt == 'json' else fmt}")
    return str(mod.render(result.diagnostics, result.summary, result.sources))
