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

FORMATS = ("full", "concise", "json", "sarif", "github", "auto")
SEVERITIES = ("error", "warning", "info")
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
    Option(
        "--format",
        "fmt",
        "value",
        "output format (default: full; auto: github under GitHub Actions)",
        "FORMAT",
        FORMATS,
        "full",
    ),
    Option("--select", "select", "value", "only these codes or prefixes (comma separated)", "CODES", default=""),
    Option("--ignore", "ignore", "value", "skip these codes or prefixes (comma separated)", "CODES", default=""),
    Option("--config", "config_path", "value", "a .vcfg.toml or pyproject.toml", "FILE"),
    Option("--knowledge", "knowledge", "repeat", "a folder of extra knowledge packs (repeatable)", "DIR"),
    Option(
        "--stdin-filename",
        "stdin_filename",
        "value",
        "the name '-' (stdin) is read as: its format and per-file settings follow it",
        "PATH",
    ),
    Option("--output-file", "output_file", "value", "write the report here instead of stdout", "FILE"),
    Option("--statistics", "statistics", "flag", "count the findings per code instead of listing them", default=False),
    Option(
        "--fail-on",
        "fail_on",
        "value",
        "exit 1 on findings of this severity or worse (default: warning)",
        "SEVERITY",
        SEVERITIES,
        "warning",
    ),
    Option("--exit-zero", "exit_zero", "flag", "exit 0 even when there are findings", default=False),
    Option(
        "--show-settings",
        "show_settings",
        "flag",
        "print the resolved settings and where each comes from, then exit",
        default=False,
    ),
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
    if not paths and not values["show_settings"]:
        raise UsageError("give at least one path to lint ('-' reads stdin)")
    if values["stdin_filename"] is not None and "-" not in paths:
        raise UsageError("--stdin-filename names standard input: give '-' as a path too")
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


def _codes(s: str) -> list[str]:
    return [c.strip() for c in s.split(",") if c.strip()]


def _lint(args: dict[str, Any]) -> int:
    import os
    from pathlib import Path

    from vcfg.lint.engine import lint_paths
    from vcfg.lint.registry import check_codes

    # a typo here would select nothing and switch the linter off: a usage error
    check_codes(_codes(args["select"]), "--select")
    check_codes(_codes(args["ignore"]), "--ignore")
    paths: list[str] = args["paths"]
    config = _config(args)
    if args["fmt"] == "auto":
        args["fmt"] = "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "full"
    if args["show_settings"]:
        from vcfg.cli.settings import show_settings

        write(show_settings(args, config))
        return EXIT_OK
    if args["fix"] or args["diff"]:  # the fix code loads only here
        from vcfg.fix.report import run_fixes

        return run_fixes(
            args,
            lambda files, contents: lint_paths(
                files,
                args["version"],
                select=_codes(args["select"]),
                ignore=_codes(args["ignore"]),
                config=config,
                knowledge_dirs=[Path(k) for k in args["knowledge"]],
                contents=contents,
            ),
            render,
        )
    result = lint_paths(
        paths,
        args["version"],
        select=_codes(args["select"]),
        ignore=_codes(args["ignore"]),
        config=config,
        knowledge_dirs=[Path(k) for k in args["knowledge"]],
        stdin_filename=args["stdin_filename"],
    )
    relative_paths(result)
    for message in result.path_notes:
        write(f"vcfg: note: {message}", err=True)
    if args["statistics"]:
        from vcfg.render.statistics import render as render_statistics

        report = render_statistics(result.diagnostics, result.summary)
    else:
        report = render(result, args["fmt"])
    if args["output_file"]:
        from vcfg.errors import VcfgError

        try:
            Path(args["output_file"]).write_text(report + "\n", encoding="utf-8")
        except OSError as e:
            raise VcfgError(f"cannot write {args['output_file']}: {e.strerror or e}") from e
    else:
        write(report)
    for message in result.path_errors:
        write(f"vcfg: error: {message}", err=True)
    for message in result.internal_errors:
        write(f"vcfg: internal error: {message} (please report it)", err=True)
    if result.internal_errors or result.path_errors:
        return EXIT_ERROR
    if args["exit_zero"]:
        return EXIT_OK
    worst = SEVERITIES.index(args["fail_on"])
    return 1 if any(SEVERITIES.index(d.severity) <= worst for d in result.diagnostics) else EXIT_OK


def _config(args: dict[str, Any]) -> Any:
    """The config named by --config, else the one nearest the (first) linted file (the
    name --stdin-filename gives '-'), else the working directory's, as ruff finds it."""
    from pathlib import Path

    from vcfg.lint.config import load_config

    if args["config_path"]:
        return load_config(explicit=Path(args["config_path"]))
    paths: list[str] = args["paths"]
    first_name = (args["stdin_filename"] or "") if paths[:1] == ["-"] else (paths[0] if paths else "")
    start: Optional[Path] = None
    first = Path(first_name) if first_name else None
    if first is not None and first.exists():
        start = first.resolve() if first.is_dir() else first.resolve().parent
    elif first is not None and first_name:  # a --stdin-filename need not exist
        start = first.resolve().parent if first.resolve().parent.is_dir() else None
    return load_config(start)


def relative_paths(result: Any) -> None:
    """Every path in the findings relative to the working directory (a file reached
    through a launch's --config may carry an absolute one): SARIF, github annotations
    and editors take them so."""
    import os

    from vcfg.records import replace

    cwd = os.getcwd()
    memo: dict[str, str] = {}

    def rel(p: str) -> str:
        if p not in memo:
            if p.startswith("<") or not p:
                memo[p] = p
            else:
                memo[p] = os.path.relpath(os.path.abspath(p), cwd).replace(os.sep, "/")
        return memo[p]

    result.diagnostics = [
        d if rel(d.span.file) == d.span.file else replace(d, span=d.span._replace(file=rel(d.span.file)))
        for d in result.diagnostics
    ]
    result.sources = {rel(k): v for k, v in result.sources.items()}


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
