"""The click group: every command but `vcfg lint` (`vcfg/cli/lint.py`), which it forwards.

Exit codes: 0 ok, 1 findings, 2 usage or internal error.  A user mistake never shows
a traceback: library code raises `VcfgError`, which is printed as one line.
"""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn, Optional

import click

from vcfg import __version__
from vcfg.errors import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, VcfgError, exit_code_for, print_error, write


def fail(message: str, hint: Optional[str] = None) -> NoReturn:
    print_error(message, hint)
    sys.exit(EXIT_ERROR)


def project_config(start: Optional[str] = None) -> Any:
    """The project's ``[tool.vcfg]`` (or ``.vcfg.toml``) nearest ``start`` (a file or
    folder; default: the working directory), as `vcfg lint` finds it."""
    from pathlib import Path

    from vcfg.lint.config import load_config

    folder = None
    if start:
        p = Path(start)
        folder = p if p.is_dir() else p.parent
        if not folder.is_dir():
            folder = None
    return load_config(folder)


def project_version(version: Optional[str], start: Optional[str] = None) -> Optional[str]:
    """``--vllm-version`` if given, else the project's ``vllm-version`` (every command
    targets the release `vcfg lint` does), else None (the newest bundled)."""
    return version or project_config(start).vllm_version


def catalog_for(version: Optional[str], start: Optional[str] = None) -> Any:
    """The catalog for ``version`` (else the project's release); a note on stderr when
    it is another release's."""
    from vcfg.catalog import store

    cat, note = store.load(project_version(version, start))
    if note:
        click.echo(f"note: {note}", err=True)
    return cat


def echo_json(value: Any) -> None:
    from vcfg.render.json_ import dumps

    click.echo(dumps(value, indent=2))


class _Group(click.Group):
    """Turns `VcfgError` into one line and exit 2; usage errors keep click's exit 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException):
            raise
        except (Exception, KeyboardInterrupt) as e:  # the same lines and codes as `vcfg lint`
            sys.exit(exit_code_for(e))


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="vcfg")
def main() -> None:
    """Validate and explain vLLM launch configurations, before launch."""


# ----------------------------------------------------------------------------- catalog


@main.group(cls=_Group)
def catalog() -> None:
    """Build, list, show and compare catalogs of vLLM releases."""


@catalog.command("build")
@click.option("--vllm-version", "version", help="a release number; downloaded if not cached")
@click.option(
    "--source", "source", type=click.Path(), help="a vLLM source tree, git checkout or source tarball (.tar.gz)"
)
@click.option("--wheel", "wheel", type=click.Path(), help="a vLLM wheel file")
@click.option(
    "--plugin",
    "plugin",
    metavar="SPEC",
    help="a plugin's overlay instead: NAME==VERSION (downloaded), its wheel, sdist or folder",
)
@click.option(
    "-o", "--output", type=click.Path(), help="write the catalog here ('-' for stdout) instead of vcfg's cache"
)
def catalog_build(
    version: Optional[str],
    source: Optional[str],
    wheel: Optional[str],
    plugin: Optional[str],
    output: Optional[str],
) -> None:
    """Build a catalog from vLLM's source (the installed vLLM when nothing is named).

    Without -o the catalog goes to vcfg's cache, where lint, explain and schema find it
    by its version.  With --plugin, the overlay of a vLLM plugin (its variables,
    connectors and entry points), which lint uses when the plugin is named.
    """
    from vcfg.catalog import store
    from vcfg.catalog.extract.build import build_catalog
    from vcfg.catalog.extract.source import open_source

    if sum(bool(x) for x in (source, wheel, plugin)) > 1:
        raise click.UsageError("give at most one of --source, --wheel and --plugin")
    if plugin:
        _build_plugin(plugin, output)
        return
    src = open_source(source=source, wheel=wheel, version=None if (source or wheel) else version)
    cat = build_catalog(src, version=version if (source or wheel) else None)
    if (source or wheel) and not version and not src.version:
        click.echo(
            f"note: {src.description} names no version; built as {cat.vllm_version}, after every "
            "bundled release (pass --vllm-version to name it)",
            err=True,
        )
    label = f" ({cat.label})" if cat.label else ""
    summary = (
        f"vllm {cat.vllm_version}{label}: {len(cat.flags)} flags, {len(cat.env_vars)} env vars, "
        f"{len(cat.configs)} config classes, {len(cat.connectors)} connectors"
    )
    if output == "-":
        click.echo(store.dumps(cat, indent=2))
        return
    if output:
        store.write_text(output, store.dumps(cat, indent=2))
        click.echo(f"wrote {output}: {summary}", err=True)
    else:
        path = store.save_user_catalog(cat)
        click.echo(f"wrote {path}: {summary}", err=True)


def _build_plugin(spec: str, output: Optional[str]) -> None:
    import shutil
    from pathlib import Path

    from vcfg.catalog import plugins, store
    from vcfg.catalog.extract.plugin import build_plugin_catalog, open_plugin

    ps, tmp = open_plugin(spec)
    try:
        pc = build_plugin_catalog(ps)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    text = plugins.dumps(pc)
    summary = (
        f"{pc.label}: {len(pc.env_vars)} env vars, {len(pc.connectors)} connectors, "
        f"entry points {', '.join(pc.entry_names)}"
    )
    if output == "-":
        click.echo(text, nl=False)
        return
    path = Path(output) if output else plugins.user_dir() / f"{pc.name}-{pc.version}.json"
    store.write_text(path, text)
    plugins.clear_cache()
    click.echo(f"wrote {path}: {summary}", err=True)


@catalog.command("list")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option("--plugins", "only_plugins", is_flag=True, help="list the plugin overlays only")
def catalog_list(fmt: str, only_plugins: bool) -> None:
    """The bundled catalogs, then the plugin overlays (bundled and built) that a
    launch naming the plugin lays over its release."""
    from vcfg.catalog import plugins, store

    overlays = [
        {"name": n, "version": v, "origin": "bundled" if p.parent == plugins.BUNDLED_DIR else "built", "path": str(p)}
        for n, v, p in plugins.available()
    ]
    if fmt == "json":
        # the releases' list is the contract; the overlays are asked for with --plugins
        echo_json(overlays if only_plugins else store.bundled_versions())
        return
    if not only_plugins:
        for v in store.bundled_versions():
            click.echo(v)
        if overlays:
            click.echo("\nplugin overlays (laid over the release when a launch names the plugin):")
    for o in overlays:
        click.echo(f"{'' if only_plugins else '  '}{o['name']} {o['version']} ({o['origin']}: {o['path']})")


@catalog.command("show")
@click.option("--vllm-version", "version", help="default: the newest bundled release")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def catalog_show(version: Optional[str], fmt: str) -> None:
    """Everything a catalog holds."""
    from vcfg.catalog import store

    cat = catalog_for(version)
    if fmt == "json":
        click.echo(store.dumps(cat, indent=2))
        return
    from vcfg.catalog.text import render_catalog

    click.echo(render_catalog(cat))


@catalog.command("diff")
@click.argument("old")
@click.argument("new")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def catalog_diff(old: str, new: str, fmt: str) -> None:
    """What changed between two releases: flags, variables, fields, connectors."""
    from vcfg.catalog import store
    from vcfg.catalog.diff import diff_catalogs, render_diff

    a, b = catalog_for(old), catalog_for(new)
    d = diff_catalogs(a, b, history=store.history_between(a.vllm_version, b.vllm_version))
    if fmt == "json":
        echo_json(d.to_json())
    else:
        click.echo(render_diff(d))


# --------------------------------------------------------------------- other commands
# (bench, launch, lint, explain, schema: added by their issues, below this line)


# ----------------------------------------------------------------------------- schema


@main.command("schema")
@click.argument("kind")
@click.option("--vllm-version", "version", help="default: the newest bundled release")
@click.option(
    "--catalog",
    "catalog_file",
    type=click.Path(exists=True, dir_okay=False),
    help="use this catalog JSON (from `vcfg catalog build -o`) instead of a bundled one",
)
@click.option("--strict", is_flag=True, help="reject unknown keys where vLLM rejects them")
@click.option("--draft", type=click.Choice(["07", "2020-12"]), default="07", show_default=True)
@click.option(
    "--vllm-source",
    type=click.Path(exists=True),
    help="add vLLM's own help texts, read from this vLLM source tree or wheel",
)
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="write here, not stdout")
def schema_cmd(
    kind: str,
    version: Optional[str],
    catalog_file: Optional[str],
    strict: bool,
    draft: str,
    vllm_source: Optional[str],
    output: Optional[str],
) -> None:
    """JSON Schema of KIND: serve (the --config YAML), kv-transfer-config, env, or a
    config class name such as CompilationConfig."""
    from vcfg.catalog import store
    from vcfg.schema.api import load_catalog, make_schema
    from vcfg.schema.common import dumps

    cat, note = load_catalog(project_version(version) if not catalog_file else version, catalog_file)
    if note:
        click.echo(f"note: {note}", err=True)
    text = dumps(make_schema(kind, cat, strict=strict, draft=draft, vllm_source=vllm_source))
    if output:
        store.write_text(output, text)
        click.echo(f"wrote {output} ({len(text) // 1024} KiB, vllm {cat.vllm_version})", err=True)
    else:
        click.echo(text, nl=False)


@main.command("init-editor")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--vllm-version", "version", help="default: the newest bundled release")
@click.option(
    "--kind",
    type=click.Choice(["serve", "kv-transfer-config", "env"]),
    help="default: serve for YAML files, kv-transfer-config for JSON files",
)
@click.option("--strict", is_flag=True, help="use the strict schemas")
@click.option(
    "--schema-dir",
    default=".vcfg/schemas",
    show_default=True,
    help="where the schema files the modelines point to are written",
)
@click.option("--url", "base_url", help="point at schemas published under this URL; write none")
@click.option("--vscode", is_flag=True, help="print VS Code settings instead of editing files")
@click.option("--force", is_flag=True, help="replace a modeline that names another schema")
def init_editor_cmd(
    files: tuple[str, ...],
    version: Optional[str],
    kind: Optional[str],
    strict: bool,
    schema_dir: str,
    base_url: Optional[str],
    vscode: bool,
    force: bool,
) -> None:
    """Point editors at vcfg's schemas: a `# yaml-language-server: $schema=` line at the
    top of each YAML file (nothing else changes), or VS Code settings to paste.

    Exit 1 when a file already names another schema (see --force).
    """
    from vcfg.schema.api import load_catalog, make_schema
    from vcfg.schema.editor import init_editor

    cat, note = load_catalog(project_version(version, files[0] if files else None))
    if note:
        click.echo(f"note: {note}", err=True)
    result = init_editor(
        list(files),
        cat.vllm_version,
        lambda k, s: make_schema(k, cat, strict=s),
        kind=kind,
        strict=strict,
        schema_dir=schema_dir,
        base_url=base_url,
        vscode=vscode,
        force=force,
    )
    for line in result.actions:
        click.echo(line, err=True)
    for line in result.conflicts:
        click.echo(f"skipped {line}; use --force to replace it", err=True)
    if result.settings:
        click.echo("add to .vscode/settings.json:", err=True)
        echo_json(result.settings)
    sys.exit(EXIT_FINDINGS if result.conflicts else EXIT_OK)


# ----------------------------------------------------------------------------- lint


@main.command(
    "lint",
    add_help_option=False,
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def lint_cmd(args: tuple[str, ...]) -> None:
    """Lint launch scripts and `vllm serve --config` YAML files (`vcfg lint --help`)."""
    from vcfg.cli.lint import run

    sys.exit(run(args))


@main.command(
    "lsp",
    add_help_option=False,
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def lsp_cmd(args: tuple[str, ...]) -> None:
    """Serve the language server over stdio (pip install 'vcfg[lsp]'; docs/editors.md)."""
    from vcfg.lsp import run

    sys.exit(run(args))


# ----------------------------------------------------------------------------- upgrade


@main.command("upgrade")
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--from",
    "old",
    help="the release the files were written for (default: the one in effect "
    "for them: the project config's, else the installed vLLM's)",
)
@click.option("--to", "new", help="the release to migrate to (default: the newest bundled)")
@click.option("--write", is_flag=True, help="write the migrated files (default: print the diff only)")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option("--config", "config_path", type=click.Path(dir_okay=False), help="a .vcfg.toml or pyproject.toml")
@click.option("--knowledge", "knowledge", multiple=True, type=click.Path(), help="extra knowledge packs")
def upgrade_cmd(
    paths: tuple[str, ...],
    old: Optional[str],
    new: Optional[str],
    write: bool,
    fmt: str,
    config_path: Optional[str],
    knowledge: tuple[str, ...],
) -> None:
    """Rewrite launches for a newer vLLM: renamed and removed flags, variables that became
    flags, renamed connectors and JSON keys.  Prints a diff and what it could not migrate;
    exit 1 when something could not be migrated."""
    from pathlib import Path

    from vcfg.lint.config import load_config
    from vcfg.upgrade.migrate import resolve_versions, upgrade
    from vcfg.upgrade.report import render_json, render_text

    first = Path(paths[0])
    config = (
        load_config(explicit=Path(config_path))
        if config_path
        else load_config(first.resolve() if first.is_dir() else first.resolve().parent)
    )
    old, new = resolve_versions(old, new, config, paths)
    u = upgrade(list(paths), old, new, config=config, knowledge_dirs=[Path(k) for k in knowledge])
    problems: list[str] = []
    if write:
        from vcfg.fix.run import write_files

        problems = write_files(u.run)
    click.echo(render_json(u) if fmt == "json" else render_text(u, written=write and not problems))
    for p in problems:
        print_error(p)
    sys.exit(EXIT_ERROR if problems else (EXIT_FINDINGS if u.not_migrated else EXIT_OK))


# ----------------------------------------------------------------------------- connectors


@main.command("connectors")
@click.option("--vllm-version", "version", help="default: the newest bundled release")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text")
@click.option(
    "--plugin",
    "plugins",
    multiple=True,
    metavar="NAME",
    help="a vLLM plugin the launches run with (vllm-ascend); default: the project's `plugins`",
)
def connectors_cmd(version: Optional[str], fmt: str, plugins: tuple[str, ...]) -> None:
    """The KV connector registry of a release, plugin connectors included."""
    from vcfg.catalog.knowledge import load_packs
    from vcfg.catalog.plugins import find
    from vcfg.explain.connectors import connector_rows, render_text

    cat = catalog_for(version)
    config = project_config()
    named = [find(p) for p in (list(plugins) or config.plugins)]
    rows = connector_rows(cat, load_packs(config.knowledge), named)
    if fmt == "json":
        echo_json({"vllm_version": cat.vllm_version, "connectors": rows})
    else:
        click.echo(render_text(cat, rows, markdown=fmt == "markdown"))


# ----------------------------------------------------------------------------- launch


@main.group(cls=_Group)
def launch() -> None:
    """What vcfg understood of a launch script: launches, arguments, environment."""


def _release_catalog(inv: Any, cat: Any, version: Optional[str]) -> Any:
    """The catalog of the release a launch's image names, unless --vllm-version or the
    project config chose one."""
    from vcfg.launch.release import release_of

    if version:
        return cat
    from vcfg.lint.config import load_config

    if load_config().vllm_version:
        return cat
    rel = release_of(inv)
    if rel.version is None or rel.version == cat.vllm_version:
        return cat
    from vcfg.catalog import store

    try:
        return store.load(rel.version)[0]
    except VcfgError:  # older than every bundled catalog
        return cat


@launch.command("show")
@click.argument("path")
@click.option("--vllm-version", "version", help="resolve arguments against this release")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option("--why", is_flag=True, help="say which reader took the file and why, or why none did")
def launch_show(path: str, version: Optional[str], fmt: str, why: bool) -> None:
    """Every vLLM launch found in PATH, as vcfg (and vLLM) would see it."""
    from vcfg.launch.args import parse_invocation
    from vcfg.launch.model import SERVE, plan_to_json
    from vcfg.launch.read import choice_to_json, choose, describe_choice, read_bytes, read_plan
    from vcfg.launch.readers import ReadContext
    from vcfg.lint.deployment_view import launch_hosts

    cat = catalog_for(version, path)
    data = read_bytes(path)
    ctx = ReadContext(catalog=cat)
    choice = choose(path, data.decode("utf-8", "surrogateescape"), ctx, data[:256])
    if why:
        if fmt == "json":
            write(json.dumps(choice_to_json(choice), indent=2, ensure_ascii=False))
        else:
            write(describe_choice(choice))
        return
    plan = read_plan(path, data, ctx, choice)
    members, hosts = launch_hosts(path, cat.vllm_version)
    if fmt == "json":
        doc = plan_to_json(plan)
        doc["reader"] = choice_to_json(choice)
        for inv, out, (_, label, key) in zip(plan.invocations, doc["invocations"], hosts):
            if inv.kind == SERVE:
                out["parsed"] = parse_invocation(inv, _release_catalog(inv, cat, version), plan).to_json()
            out["host"] = {"key": key, "label": label}
        doc["deployment"] = members
        doc["vllm_version"] = cat.vllm_version
        from vcfg.render.json_ import dumps

        write(dumps(doc, indent=2))
        return
    write(f"{path}: {len(plan.invocations)} launch(es), checked against vllm {cat.vllm_version}")
    write("  " + describe_choice(choice, short=True))
    if len(members) > 1:
        write("deployment: " + ", ".join(members))
    for p in plan.problems:
        write(f"  problem {p.span.line}:{p.span.col}: {p.message}")
    from vcfg.launch.release import release_of

    for inv, (_, label, _) in zip(plan.invocations, hosts):
        bg = " (background)" if inv.background else ""
        lcat = _release_catalog(inv, cat, version)
        whence = "its image" if release_of(inv).pin is None else "the file's vllm== pin"
        on = f" (vllm {lcat.vllm_version}, from {whence})" if lcat is not cat else ""
        write(f"\nline {inv.span.line}: {inv.entrypoint}{bg}{on}")
        write(f"  host: {label}")
        if inv.kind == SERVE:
            pa = parse_invocation(inv, lcat, plan)
            if pa.model is not None:
                write(f"  model: {pa.model.value}")
            for ov in pa.occurrences:
                value = json.dumps(ov.value) if ov.known else "<unknown>"
                write(f"  {ov.option} = {value}" + ("" if ov.flag else "   (unknown option)"))
        else:
            write("  args: " + " ".join(w.text if w.text is not None else "<unknown>" for w in inv.args))
        env = inv.exported_env()
        if env:
            write(
                "  environment from the script: "
                + ", ".join(
                    f"{k}={b.value.text if b.value and b.value.text is not None else '<unknown>'}"
                    for k, b in sorted(env.items())
                )
            )
        unset = sorted(k for k, b in inv.env.items() if b.unset)
        if unset:
            write("  unset by the script: " + ", ".join(unset))


# ----------------------------------------------------------------------------- explain


@main.command(
    "explain",
    context_settings={"ignore_unknown_options": True, "allow_interspersed_args": True},
)
@click.argument("topic")
@click.option("--vllm-version", "version", help="default: the newest bundled release")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text")
@click.option("--no-help-text", is_flag=True, help="skip vLLM's own description")
@click.option(
    "--plugin",
    "plugins",
    multiple=True,
    metavar="NAME",
    help="a vLLM plugin the launches run with (vllm-ascend); default: the project's `plugins`",
)
def explain_cmd(topic: str, version: Optional[str], fmt: str, no_help_text: bool, plugins: tuple[str, ...]) -> None:
    """What TOPIC is, where vLLM defines it, how it flows, and its history.

    TOPIC: a flag (--kv-transfer-config, -tp), a variable (VLLM_RPC_TIMEOUT), a config
    field (KVTransferConfig.kv_role, kv_role) or class, a connector (NixlConnector),
    a plugin variable (FLAGCX_PATH) or a rule code (VC001).
    """
    from vcfg.explain import explain
    from vcfg.explain.render import render

    config = project_config()
    doc = explain(
        topic,
        project_version(version),
        with_help=not no_help_text,
        knowledge_dirs=config.knowledge,
        plugins=list(plugins) or config.plugins,
    )
    if fmt == "json":
        echo_json(doc)
    else:
        from vcfg.render.full import use_colour

        click.echo(render(doc, markdown=fmt == "markdown", colour=fmt == "text" and use_colour()))


# ------------------------------------------------------------------------------ bench


def _slo_options(f: Any) -> Any:
    f = click.option("--slo-itl-ms", type=float, help="ITL objective (ms): verdict on the mean ITL")(f)
    f = click.option("--slo-ttft-ms", type=float, help="TTFT objective (ms): verdict on the mean TTFT")(f)
    f = click.option(
        "--slo-tpot-ms",
        type=float,
        default=50.0,
        show_default=True,
        help="TPOT objective (ms): verdict on the mean TPOT",
    )(f)
    f = click.option(
        "--max-failed-pct",
        type=float,
        default=0.0,
        show_default=True,
        help="most failed requests a passing run may have, in % of those sent",
    )(f)
    f = click.option(
        "--min-goodput-pct",
        type=float,
        help="least share of sent requests good under the SLOs, in % (vLLM's goodput)",
    )(f)
    f = click.option(
        "--fail-on",
        type=click.Choice(["fail", "unknown", "never"]),
        default="unknown",
        show_default=True,
        help="exit 1 when a verdict fails (fail), also when one cannot be decided, "
        "such as an unknown failed count (unknown), or never",
    )(f)
    return f


def _bench_exit(analyses: Any, fail_on: str) -> int:
    if fail_on == "never":
        return EXIT_OK
    bad = ("fail",) if fail_on == "fail" else ("fail", "unknown")
    return EXIT_FINDINGS if any(a.outcome in bad for a in analyses) else EXIT_OK


@main.group(cls=_Group)
def bench() -> None:
    """Read `vllm bench serve` results (text report or --save-result JSON) and judge them."""


@bench.command("analyze")
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@_slo_options
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text")
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False),
    help="write a PNG of the TTFT and TPOT distributions (needs per-request data and the 'plot' extra)",
)
def bench_analyze(
    files: tuple[str, ...],
    slo_tpot_ms: float,
    slo_ttft_ms: Optional[float],
    slo_itl_ms: Optional[float],
    max_failed_pct: float,
    min_goodput_pct: Optional[float],
    fail_on: str,
    fmt: str,
    plot_path: Optional[str],
) -> None:
    """Derived metrics, verdicts and warnings for each result in FILES.

    Exit 1 when a verdict fails or, with --fail-on unknown (the default), cannot be
    decided; 0 otherwise.
    """
    from vcfg.bench import Slos, analyze_files
    from vcfg.bench import render as bench_render

    slos = Slos(
        tpot_ms=slo_tpot_ms,
        ttft_ms=slo_ttft_ms,
        itl_ms=slo_itl_ms,
        max_failed_pct=max_failed_pct,
        min_goodput_pct=min_goodput_pct,
    )
    analyses = analyze_files(list(files), slos)
    if plot_path:
        from vcfg.bench.plot import plot_distributions

        shown = plot_distributions(analyses, plot_path)
        click.echo(f"wrote {plot_path} ({shown} result(s))", err=True)
    if fmt == "json":
        docs = [a.to_json() for a in analyses]
        echo_json(docs[0] if len(docs) == 1 else docs)
    elif fmt == "markdown":
        click.echo(bench_render.render_markdowns(analyses), nl=False)
    else:
        click.echo(bench_render.render_texts(analyses), nl=False)
    sys.exit(_bench_exit(analyses, fail_on))


@bench.command("compare")
@click.argument("a", type=click.Path(allow_dash=True))
@click.argument("b", type=click.Path(allow_dash=True))
@_slo_options
@click.option(
    "--max-regression-pct",
    type=float,
    default=10.0,
    show_default=True,
    help="B worse than A by more than this (in %, or points for rates) is a regression",
)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text")
def bench_compare(
    a: str,
    b: str,
    slo_tpot_ms: float,
    slo_ttft_ms: Optional[float],
    slo_itl_ms: Optional[float],
    max_failed_pct: float,
    min_goodput_pct: Optional[float],
    fail_on: str,
    max_regression_pct: float,
    fmt: str,
) -> None:
    """Two results side by side, with the ratio B/A for each metric.

    Exit 1 when B regresses past --max-regression-pct on a metric with a better
    direction, or when B's verdict fails (see --fail-on); 0 otherwise.
    """
    from vcfg.bench import Slos, analyze_files
    from vcfg.bench import render as bench_render
    from vcfg.bench.compare import compare

    slos = Slos(
        tpot_ms=slo_tpot_ms,
        ttft_ms=slo_ttft_ms,
        itl_ms=slo_itl_ms,
        max_failed_pct=max_failed_pct,
        min_goodput_pct=min_goodput_pct,
    )
    sides = []
    for path in (a, b):
        found = analyze_files([path], slos)
        if len(found) != 1:
            raise VcfgError(
                f"{path} holds {len(found)} results; compare takes one per side",
                hint="split the file, or use `vcfg bench analyze` to see them all",
            )
        sides.append(found[0])
    c = compare(sides[0], sides[1], max_regression_pct)
    if fmt == "json":
        echo_json(c.to_json())
    elif fmt == "markdown":
        click.echo(bench_render.render_compare_markdown(c), nl=False)
    else:
        click.echo(bench_render.render_compare_text(c), nl=False)
    sys.exit(EXIT_FINDINGS if c.regressions else _bench_exit([c.b], fail_on))


# ------------------------------------------------------------------------------- plan


@main.command("plan")
@click.option("--model", "model_dir", type=click.Path(), help="a local model directory (with config.json)")
@click.option("--model-config", "model_config", type=click.Path(), help="a config.json file")
@click.option("--gpus", type=int, help="how many GPUs in all (default: --nodes x --gpus-per-node)")
@click.option("--gpus-per-node", type=int, help="GPUs of each node: print each node's launch command")
@click.option("--pd", is_flag=True, help="with --gpus-per-node: prefill on half the nodes, decode on the rest")
@click.option(
    "--head-address",
    default="10.0.0.1",
    show_default=True,
    help="node 0's address in the printed commands (the others follow it)",
)
@click.option("--gpu-memory", help="memory of one GPU (default: the project's gpu-memory, else 141GiB)")
@click.option("--nodes", type=int, default=1, show_default=True, help="nodes the GPUs are spread over")
@click.option("--max-model-len", type=int, help="default: the model's limit from config.json")
@click.option("--kv-cache-dtype", default="auto", show_default=True)
@click.option("--gpu-memory-utilization", type=float, default=0.9, show_default=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def plan_cmd(
    model_dir: Optional[str],
    model_config: Optional[str],
    gpus: Optional[int],
    gpus_per_node: Optional[int],
    pd: bool,
    head_address: str,
    gpu_memory: Optional[str],
    nodes: int,
    max_model_len: Optional[int],
    kv_cache_dtype: str,
    gpu_memory_utilization: float,
    fmt: str,
) -> None:
    """Tensor/pipeline/data/expert parallel layouts for a model on GPUS, with the
    memory each needs, ranked (see docs/plan.md).  Reads local files only.

    Exit 0 when a layout works, 1 when none does, 2 on bad input.
    """
    from vcfg.plan.layouts import PlanRequest, plan
    from vcfg.plan.memory import parse_size
    from vcfg.plan.model_facts import load_facts
    from vcfg.plan.render import render_json, render_text

    if gpus_per_node is not None:
        if gpus_per_node < 1:
            raise VcfgError(f"--gpus-per-node must be at least 1, got {gpus_per_node}")
        if gpus is not None and gpus != nodes * gpus_per_node:
            raise VcfgError(f"--gpus {gpus} is not --nodes {nodes} x --gpus-per-node {gpus_per_node}")
        gpus = nodes * gpus_per_node
    if gpus is None:
        raise VcfgError("give --gpus, or --nodes and --gpus-per-node")
    if pd and (gpus_per_node is None or nodes < 2):
        raise VcfgError("--pd needs --gpus-per-node and at least 2 nodes (prefill and decode nodes)")
    facts = load_facts(model=model_dir, config_file=model_config)
    project_memory = project_config().gpu_memory
    request = PlanRequest(
        gpus=gpus,
        gpu_memory=parse_size(gpu_memory) if gpu_memory else (project_memory or parse_size("141GiB")),
        nodes=nodes,
        max_model_len=max_model_len,
        kv_cache_dtype=kv_cache_dtype,
        gpu_memory_utilization=gpu_memory_utilization,
    )
    result = plan(facts, request)
    per_node = None
    if gpus_per_node is not None:
        from pathlib import Path

        from vcfg.plan.nodes import per_node_plan

        per_node = per_node_plan(
            facts,
            request,
            result,
            nodes,
            gpus_per_node,
            pd,
            head_address,
            model_dir or str(Path(model_config or ".").parent),
        )
    if fmt == "json":
        doc = render_json(result)
        if per_node is not None:
            doc["nodes"] = per_node.to_json()
        echo_json(doc)
    else:
        click.echo(render_text(result), nl=False)
        if per_node is not None:
            click.echo(per_node.text(), nl=False)
    ok = result.feasible and (per_node is None or per_node.launches)
    sys.exit(EXIT_OK if ok else EXIT_FINDINGS)


if __name__ == "__main__":
    main()
