"""The language server: pygls wiring.  Every handler runs under `guard`: a failure is
logged (to stderr, or ``--log-file``) and answered with an empty result, so no
traceback ever reaches the client.

    vcfg lsp [--log-file FILE]        # stdio

Diagnostics are pushed (``textDocument/publishDiagnostics``) a debounce delay after
the last change, or pulled (``textDocument/diagnostic``) by a client that says it
can; both come from the same lint of the document's current text.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import logging
import os
import sys
import time
from typing import Any, Callable, Optional, Sequence

from lsprotocol import types as t
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from vcfg.lsp import actions as code_actions
from vcfg.lsp import completion, context, documents, hover
from vcfg.lsp import plugins as lsp_plugins
from vcfg.lsp.diagnostics import problem_diagnostic, to_lsp
from vcfg.lsp.settings import Settings, check_release, parse_client_settings

log = logging.getLogger("vcfg.lsp")

CMD_SET_RELEASE = "vcfg.setRelease"
CMD_RELEASES = "vcfg.releases"
CMD_LINT_STATS = "vcfg.stats"

_KINDS = {
    "flag": t.CompletionItemKind.Property,
    "value": t.CompletionItemKind.EnumMember,
    "env": t.CompletionItemKind.Variable,
    "key": t.CompletionItemKind.Field,
    "connector": t.CompletionItemKind.Class,
}


class _Protocol(LanguageServerProtocol):
    """pygls drops a request whose parameters do not deserialize, and the client waits
    for ever: answer it with InvalidParams first."""

    def structure_message(self, data: Any) -> Any:
        try:
            return super().structure_message(data)
        except Exception:
            if isinstance(data, dict) and "id" in data and "method" in data and "jsonrpc" in data:
                try:
                    self._send_response(
                        data["id"],
                        error=t.ResponseError(
                            code=t.ErrorCodes.InvalidParams, message=f"invalid parameters for {data['method']}"
                        ),
                    )
                except Exception:  # noqa: BLE001 - an id that cannot be answered
                    log.error("could not answer a malformed request")
            raise


class _OneLine(logging.Filter):
    """Log records without tracebacks (pygls writes some into the message itself);
    ``--debug`` keeps them."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        msg = record.getMessage()
        if "Traceback (most recent call last)" in msg or "\n" in msg:
            record.msg, record.args = msg.split("\n", 1)[0], ()
        return True


class VcfgServer(LanguageServer):
    def __init__(self) -> None:
        from vcfg import __version__

        super().__init__(
            "vcfg", __version__, text_document_sync_kind=t.TextDocumentSyncKind.Incremental, protocol_cls=_Protocol
        )
        self.settings = Settings()
        self.docs: dict[str, documents.Document] = {}
        self.pull = False
        self.encoding = "utf-16"
        #: (lint ms, lint to published ms, lint CPU ms) of the recent pushes (vcfg.stats)
        self.timings: collections.deque[tuple[float, float, float]] = collections.deque(maxlen=2000)
        #: the targets (catalog + knowledge) linted with so far: after each new one the
        #: heap is frozen (`gc.freeze`), so the collector never walks those catalogs again
        self.frozen: set[int] = set()

    def report_server_error(self, error: Exception, source: Any) -> None:
        # pygls would show the error text in a message box; log it instead
        log.error("server error (%s): %s", getattr(source, "__name__", source), type(error).__name__)

    # -- documents
    def text_of(self, uri: str) -> str:
        try:
            return self.workspace.get_text_document(uri).source
        except Exception:  # noqa: BLE001 - a document the client never opened
            return ""

    def line_map(self, doc: documents.Document, text: Optional[str] = None) -> documents.LineMap:
        """The document's lines, split once per text (requests come many per change)."""
        text = self.text_of(doc.uri) if text is None else text
        h = hash(text)
        if doc.lines is None or doc.lines[0] != h:
            doc.lines = (h, documents.LineMap(text, self.encoding))
        return doc.lines[1]

    def other_buffers(self, doc: documents.Document) -> Optional[dict[str, str]]:
        """The other open documents on disk paths (absolute path -> text): a launch's
        ``--config`` YAML, and the scripts of its deployment (a proxy, the starter
        that runs it, a sibling launch), are read from the editor's buffer, unsaved
        changes included, before the disk."""
        out = {d.path: self.text_of(u) for u, d in self.docs.items() if u != doc.uri and d.path.startswith("/")}
        return out or None

    def style_of(self, doc: documents.Document, lines: Sequence[str]) -> str:
        if not doc.yaml:
            return "bash"
        return "manifest" if context.yaml_is_manifest(lines) else "serve-config"

    def target_of(self, doc: documents.Document) -> Any:
        target, problems = self.settings.target_for(doc.path)
        for p in problems:
            if p not in doc.problems_shown:
                doc.problems_shown.add(p)
                self.window_show_message(t.ShowMessageParams(t.MessageType.Warning, f"vcfg: {p}"))
        return target, problems

    def lint(self, doc: documents.Document) -> tuple[list[t.Diagnostic], Any]:
        text = self.text_of(doc.uri)
        target, problems = self.target_of(doc)
        outcome = documents.lint(doc, text, target, id(target), self.other_buffers(doc))
        if id(target) not in self.frozen:  # its catalog, its indexes and the rules now loaded
            import gc

            self.frozen.add(id(target))
            gc.freeze()
        lm = self.line_map(doc, text)
        out = to_lsp(lm, outcome.result.diagnostics, doc.path, self.settings.client.rules_url)
        out.extend(problem_diagnostic(p) for p in problems)
        for message in outcome.result.internal_errors:
            log.error("internal error linting %s: %s", doc.path, message)
        return out, outcome

    def publish(self, uri: str) -> None:
        doc = self.docs.get(uri)
        if doc is None:
            return
        t0 = time.perf_counter()
        doc.pending = None
        diags, outcome = self.lint(doc)
        self.text_document_publish_diagnostics(
            t.PublishDiagnosticsParams(uri=uri, diagnostics=diags, version=doc.version)
        )
        if outcome.fresh:
            self.timings.append((outcome.elapsed_ms, (time.perf_counter() - t0) * 1000, outcome.cpu_ms))
            outcome.fresh = False

    def schedule(self, uri: str, delay_ms: Optional[int] = None) -> None:
        """Lint ``uri`` after the debounce delay (a newer change restarts it)."""
        doc = self.docs.get(uri)
        if doc is None or self.pull:
            return
        if doc.pending is not None:
            doc.pending.cancel()
        delay = (self.settings.client.debounce_ms if delay_ms is None else delay_ms) / 1000
        loop = asyncio.get_event_loop()
        doc.pending = loop.call_later(delay, guarded_call, self.publish, uri)

    def relint_all(self) -> None:
        for uri in list(self.docs):
            self.schedule(uri, 0)
        if self.pull:
            try:
                self.workspace_diagnostic_refresh(None)
            except Exception:  # noqa: BLE001 - a client without refresh support
                log.debug("no diagnostic refresh")


def guarded_call(fn: Callable[..., Any], *args: Any) -> Any:
    try:
        return fn(*args)
    except Exception as e:  # noqa: BLE001 - never a traceback to the client
        log.error("vcfg lsp: %s failed: %s: %s", getattr(fn, "__name__", fn), type(e).__name__, e)
        log.debug("traceback", exc_info=True)
        return None


def guard(default: Any = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A handler that logs any failure and answers ``default``."""

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def inner(*args: Any, **kw: Any) -> Any:
            try:
                return fn(*args, **kw)
            except Exception as e:  # noqa: BLE001
                log.error("vcfg lsp: %s failed: %s: %s", fn.__name__, type(e).__name__, e)
                log.debug("traceback", exc_info=True)
                return default() if callable(default) else default

        return inner

    return wrap


server = VcfgServer()


def _client_supports_pull(params: t.InitializeParams) -> bool:
    td = params.capabilities.text_document
    return bool(td is not None and td.diagnostic is not None)


def _apply_settings(ls: VcfgServer, raw: Any) -> None:
    settings, problems = parse_client_settings(raw)
    ls.settings.client = settings
    ls.settings.forget_configs()
    for p in problems:
        ls.window_show_message(t.ShowMessageParams(t.MessageType.Warning, f"vcfg: {p}"))


@server.feature(t.INITIALIZE)
@guard()
def initialize(ls: VcfgServer, params: t.InitializeParams) -> None:
    ls.pull = _client_supports_pull(params)
    enc = ls.workspace.position_encoding
    names: dict[str, str] = {t.PositionEncodingKind.Utf8: "utf-8", t.PositionEncodingKind.Utf32: "utf-32"}
    ls.encoding = names.get(enc or "", "utf-16")
    if params.initialization_options is not None:
        _apply_settings(ls, params.initialization_options)


def _asks_configuration(ls: VcfgServer) -> bool:
    ws = ls.client_capabilities.workspace
    return bool(ws is not None and ws.configuration)


async def _fetch_settings(ls: VcfgServer) -> None:
    """The ``vcfg`` section, for a client that keeps settings until asked (pull model);
    an empty answer keeps what the client sent before."""
    try:
        got = await ls.workspace_configuration_async(t.ConfigurationParams(items=[t.ConfigurationItem(section="vcfg")]))
    except Exception as e:  # noqa: BLE001 - a client that cannot answer
        log.info("no workspace/configuration answer: %s", type(e).__name__)
        return
    log.debug("workspace/configuration: %r", got)
    raw = got[0] if isinstance(got, (list, tuple)) and got else None
    if isinstance(raw, dict) and raw:
        guarded_call(_apply_settings, ls, raw)
        ls.relint_all()


@server.feature(t.INITIALIZED)
@guard()
def initialized(ls: VcfgServer, params: t.InitializedParams) -> None:
    if _asks_configuration(ls):
        asyncio.ensure_future(_fetch_settings(ls))


@server.feature(t.WORKSPACE_DID_CHANGE_CONFIGURATION)
@guard()
def did_change_configuration(ls: VcfgServer, params: t.DidChangeConfigurationParams) -> None:
    if params.settings is None or params.settings == {} and _asks_configuration(ls):
        asyncio.ensure_future(_fetch_settings(ls))
        return
    _apply_settings(ls, params.settings)
    ls.relint_all()


@server.feature(t.WORKSPACE_DID_CHANGE_WATCHED_FILES)
@guard()
def did_change_watched(ls: VcfgServer, params: t.DidChangeWatchedFilesParams) -> None:
    ls.settings.forget_configs()
    ls.relint_all()


@server.feature(t.TEXT_DOCUMENT_DID_OPEN)
@guard()
def did_open(ls: VcfgServer, params: t.DidOpenTextDocumentParams) -> None:
    td = params.text_document
    path = documents.uri_to_path(td.uri, td.language_id)
    ls.docs[td.uri] = documents.Document(td.uri, path, td.language_id, td.version)
    ls.schedule(td.uri, 0)


@server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
@guard()
def did_change(ls: VcfgServer, params: t.DidChangeTextDocumentParams) -> None:
    doc = ls.docs.get(params.text_document.uri)
    if doc is None:
        return
    doc.version = params.text_document.version
    if len(ls.text_of(doc.uri)) <= documents.LIVE_LIMIT:
        ls.schedule(doc.uri)
    here = os.path.dirname(doc.path)
    for uri, other in ls.docs.items():
        if uri == doc.uri or other.yaml:
            continue
        there = os.path.dirname(other.path)
        # a script may read a YAML buffer as its --config; the scripts of a
        # deployment (beside each other, or a starter in the parent folder) read
        # each other's buffers
        if doc.yaml or here == there or os.path.dirname(here) == there or os.path.dirname(there) == here:
            ls.schedule(uri)


@server.feature(t.TEXT_DOCUMENT_DID_SAVE)
@guard()
def did_save(ls: VcfgServer, params: t.DidSaveTextDocumentParams) -> None:
    uri = params.text_document.uri
    if uri.endswith(("pyproject.toml", ".vcfg.toml")):
        ls.settings.forget_configs()
        ls.relint_all()
    elif uri in ls.docs:
        ls.schedule(uri, 0)


@server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
@guard()
def did_close(ls: VcfgServer, params: t.DidCloseTextDocumentParams) -> None:
    doc = ls.docs.pop(params.text_document.uri, None)
    if doc is not None and doc.pending is not None:
        doc.pending.cancel()
    if not ls.pull:
        ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


def _empty_report() -> t.RelatedFullDocumentDiagnosticReport:
    return t.RelatedFullDocumentDiagnosticReport(items=[])


@server.feature(
    t.TEXT_DOCUMENT_DIAGNOSTIC,
    t.DiagnosticOptions(identifier="vcfg", inter_file_dependencies=False, workspace_diagnostics=False),
)
@guard(_empty_report)
def pull_diagnostics(ls: VcfgServer, params: t.DocumentDiagnosticParams) -> t.RelatedFullDocumentDiagnosticReport:
    doc = ls.docs.get(params.text_document.uri)
    if doc is None:
        return _empty_report()
    diags, _ = ls.lint(doc)
    return t.RelatedFullDocumentDiagnosticReport(items=diags)


class _Spot:
    """The lines around a client position (the most any request reads) and the
    position in them."""

    def __init__(
        self, target: Any, lines: list[str], line: int, col: int, style: str, first: int, encoding: str
    ) -> None:
        self.target, self.lines, self.line, self.col, self.style, self.first = target, lines, line, col, style, first
        self.lm = documents.LineMap("\n".join(lines), encoding)

    def position(self, col: int) -> t.Position:
        return t.Position(self.line + self.first, self.lm.to_client(self.line, col)[1])


def _spot(ls: VcfgServer, uri: str, pos: t.Position) -> Optional[_Spot]:
    doc = ls.docs.get(uri)
    if doc is None:
        return None
    lm = ls.line_map(doc)
    line, col = lm.from_client(pos.line, pos.character)
    target, _ = ls.target_of(doc)
    # the plugins the document loads (the project's, its VLLM_PLUGINS), as lint sees them
    if doc.plugins is None or doc.plugins[0] is not lm:
        doc.plugins = (lm, lsp_plugins.assignments(lm.lines) if "VLLM_PLUGINS" in ls.text_of(uri) else [])
    target = lsp_plugins.view_for(target, doc.plugins[1], line)
    first = max(0, line - context.WINDOW * 4)
    lines = [lm.line_text(i) for i in range(first, min(len(lm.lines), line + 60))]
    style = ls.style_of(doc, lm.lines[:400])
    return _Spot(target, lines, line - first, col, style, first, ls.encoding)


@server.feature(
    t.TEXT_DOCUMENT_COMPLETION,
    t.CompletionOptions(trigger_characters=["-", '"', "_", " ", "=", ":"], resolve_provider=False),
)
@guard(lambda: t.CompletionList(is_incomplete=False, items=[]))
def complete(ls: VcfgServer, params: t.CompletionParams) -> t.CompletionList:
    sp = _spot(ls, params.text_document.uri, params.position)
    if sp is None:
        return t.CompletionList(is_incomplete=False, items=[])
    cur = context.at(sp.lines, sp.line, sp.col, sp.style, completion.json_flags(sp.target.catalog))
    items, cut = completion.complete(cur, sp.target, sp.lines, sp.line)
    # replace the whole name the cursor is in, not only what is left of the cursor
    end = sp.col
    rest = sp.lines[sp.line] if sp.line < len(sp.lines) else ""
    while end < len(rest) and context.NAME_CHARS.match(rest[end]):
        end += 1
    rng = t.Range(sp.position(cur.start), sp.position(end))
    out = []
    for i, it in enumerate(items):
        out.append(
            t.CompletionItem(
                label=it.label,
                kind=_KINDS.get(it.kind, t.CompletionItemKind.Text),
                detail=it.detail or None,
                documentation=t.MarkupContent(t.MarkupKind.Markdown, it.doc) if it.doc else None,
                text_edit=t.TextEdit(rng, it.insert if it.insert is not None else it.label),
                filter_text=it.insert if it.insert is not None else None,
                sort_text=f"{0 if it.preferred else 1}{i:04d}",
                tags=[t.CompletionItemTag.Deprecated] if it.deprecated else None,
            )
        )
    return t.CompletionList(is_incomplete=cut, items=out)


@server.feature(t.TEXT_DOCUMENT_HOVER)
@guard()
def on_hover(ls: VcfgServer, params: t.HoverParams) -> Optional[t.Hover]:
    sp = _spot(ls, params.text_document.uri, params.position)
    if sp is None:
        return None
    found = hover.hover(sp.lines, sp.line, sp.col, sp.style, sp.target)
    if found is None:
        return None
    md, a, b = found
    rng = t.Range(sp.position(a), sp.position(b))
    return t.Hover(contents=t.MarkupContent(t.MarkupKind.Markdown, md), range=rng)


@server.feature(
    t.TEXT_DOCUMENT_CODE_ACTION,
    t.CodeActionOptions(code_action_kinds=[t.CodeActionKind.QuickFix, code_actions.FIX_ALL]),
)
@guard(list)
def on_code_action(ls: VcfgServer, params: t.CodeActionParams) -> list[t.CodeAction]:
    doc = ls.docs.get(params.text_document.uri)
    if doc is None:
        return []
    _, outcome = ls.lint(doc)
    lm = ls.line_map(doc)
    return code_actions.actions(
        doc.uri, doc.path, lm, outcome.result.diagnostics, params.context.diagnostics, params.range, params.context.only
    )


@server.command(CMD_SET_RELEASE)
@guard(lambda: {"ok": False})
def set_release(ls: VcfgServer, *args: Any) -> dict[str, Any]:
    """``{"version": "0.13.0", "uri": ..., "scope": "file"|"workspace"}`` or
    ``["0.13.0"]`` (the workspace); ``version`` null clears the choice."""
    arg: Any = args[0] if len(args) == 1 else list(args)
    if isinstance(arg, list) and len(arg) == 1:
        arg = arg[0]
    if isinstance(arg, str) or arg is None:
        arg = {"version": arg}
    if not isinstance(arg, dict):
        return {"ok": False, "error": "expected {version, uri?, scope?}"}
    version = arg.get("version")
    scope = arg.get("scope") or ("file" if arg.get("uri") else "workspace")
    if version is not None:
        from vcfg.errors import VcfgError

        try:
            check_release(str(version))
        except VcfgError as e:
            return {"ok": False, "error": e.message}
    if scope == "file":
        doc = ls.docs.get(str(arg.get("uri")))
        if doc is None:
            return {"ok": False, "error": "no such open document"}
        if version is None:
            ls.settings.file_release.pop(doc.path, None)
        else:
            ls.settings.file_release[doc.path] = str(version)
    else:
        ls.settings.workspace_release = str(version) if version is not None else None
    ls.relint_all()
    return {"ok": True, "version": version, "scope": scope}


@server.command(CMD_RELEASES)
@guard(lambda: {"bundled": []})
def releases(ls: VcfgServer, *args: Any) -> dict[str, Any]:
    from vcfg.catalog import store

    return {
        "bundled": store.bundled_versions(),
        "user": store.user_versions(),
        "loaded": ls.settings.loaded_releases(),
        "workspace": ls.settings.workspace_release,
    }


@server.command(CMD_LINT_STATS)
@guard(lambda: {})
def stats(ls: VcfgServer, *args: Any) -> dict[str, Any]:
    """What the server holds (for benchmarks and bug reports)."""
    import resource

    out: dict[str, Any] = {
        "documents": len(ls.docs),
        "releases": ls.settings.loaded_releases(),
        "max_rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        # how the last read of each script went (vcfg/launch/shell_reuse.py): "fresh",
        # or resumed at a top-level statement and taken over at a later one (or not);
        # and how many launch rule runs were kept from the lint before and run anew
        "reads": {u: list(d.reuse.shell.last) for u, d in ls.docs.items() if d.reuse is not None},
        "rules": {u: [d.reuse.rules.kept, d.reuse.rules.ran] for u, d in ls.docs.items() if d.reuse is not None},
        # how many lints were the last one moved, after an edit inside a comment line
        # (vcfg/lint/comment_reuse.py)
        "moved": {u: d.reuse.comments.taken for u, d in ls.docs.items() if d.reuse is not None},
    }
    if ls.timings:
        out["lint_ms"] = [round(x[0], 3) for x in ls.timings]
        out["publish_ms"] = [round(x[1], 3) for x in ls.timings]
        out["lint_cpu_ms"] = [round(x[2], 3) for x in ls.timings]
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    out["rss_kib"] = int(line.split()[1])
    except OSError:
        pass
    return out


def main(argv: Sequence[str] = ()) -> int:
    """``vcfg lsp [--log-file FILE] [--debug]``: serve over stdio until exit."""
    args = list(argv)
    level = logging.WARNING
    handler: logging.Handler = logging.StreamHandler(sys.stderr)
    while args:
        a = args.pop(0)
        if a in ("-h", "--help"):
            sys.stdout.write(
                "usage: vcfg lsp [--log-file FILE] [--debug]\n\n"
                "A language server for vLLM launch scripts, serve configs and manifests, "
                "over stdio (docs/editors.md).\n"
            )
            return 0
        if a == "--debug":
            level = logging.DEBUG
        elif a == "--log-file" and args:
            handler = logging.FileHandler(args.pop(0), encoding="utf-8")
        elif a.startswith("--log-file="):
            handler = logging.FileHandler(a.split("=", 1)[1], encoding="utf-8")
        elif a == "--stdio":
            pass  # what some clients pass; stdio is the only transport
        else:
            sys.stderr.write(f"vcfg lsp: unknown option {a!r}\n")
            return 2
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    if level != logging.DEBUG:
        handler.addFilter(_OneLine())
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level)
    logging.getLogger("pygls").setLevel(max(level, logging.ERROR))
    log.info("vcfg lsp %s starting (pygls, stdio)", server.version)
    server.start_io()
    return 0
