"""An explanation as text (terminal) or Markdown."""

from __future__ import annotations

import json
from typing import Any


def _v(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def render(doc: dict[str, Any], markdown: bool = False, colour: bool = False) -> str:
    """``colour``: bold headings and the title (terminal output only)."""
    bold = (lambda t: f"\x1b[1m{t}\x1b[0m") if colour and not markdown else (lambda t: t)
    h = (lambda t: f"## {t}") if markdown else (lambda t: bold(f"{t}:"))
    code = (lambda t: f"`{t}`") if markdown else (lambda t: t)
    out: list[str] = []
    title = f"{doc['name']}  ({doc['kind'].replace('_', ' ')}, vllm {doc['vllm_version']})"
    out.append(f"# {title}" if markdown else bold(title))
    if doc.get("version_note"):
        out.append(f"note: {doc['version_note']}")
    if doc.get("absent"):
        out.append("")
        out.append(doc["absent"])
        if doc.get("removed"):
            r = doc["removed"]
            if r.get("replacement"):
                names = r["replacement"]
                names = [names] if isinstance(names, str) else names
                out.append("use instead: " + " or ".join(code(str(n)) for n in names))
            if r.get("note"):
                out.append(r["note"])
    if "rule" in doc:
        r = doc["rule"]
        out += ["", f"{r['code']} {r['name']} [{r['severity']}]: {r['summary']}"]
        for key in ("why", "when_vllm_fails"):
            if r.get(key):
                out += ["", r[key]]
        if r.get("sources"):
            out += ["", h("Where vLLM checks it")]
            out += [f"  vLLM {x.split(':', 1)[0].removeprefix('vllm@')}: {x.split(':', 1)[1]}" for x in r["sources"]]
        if r.get("example"):
            out += ["", h("Example"), "```" if markdown else "", r["example"].rstrip(), "```" if markdown else ""]
        if r.get("use_instead"):
            out += [h("Use instead"), "```" if markdown else "", r["use_instead"].rstrip(), "```" if markdown else ""]
        return "\n".join(x for x in out if x is not None)
    f = doc.get("facts")
    if f:
        out += ["", h("What it is")]
        for k, v in f.items():
            if v is None or v == [] or v is False and k not in ("can_raise",):
                continue
            out.append(f"  {k.replace('_', ' ')}: {code(_v(v))}")
    if doc.get("defined_at"):
        out.append(f"  defined at: {doc['defined_at']}")
    if doc.get("class_at"):
        out.append(f"  class at: {doc['class_at']}")
    if doc.get("flow"):
        out += ["", h("How it flows into vLLM")]
        for st in doc["flow"]:
            out.append(f"  {st['stage']}: {st['what']}")
            for w in st.get("where", []):
                out.append(f"      {w}")
            reg = st.get("registry")
            if reg:
                out.append("      registered connectors:")
                for r in reg:
                    at = f", class at {r['class_at']}" if r.get("class_at") else ""
                    out.append(
                        f"        {r['name']}: {r['module']}.{r['class']} (registered at {r['registered_at']}{at})"
                    )
    if doc.get("surfaces"):
        out += ["", h("When a mistake surfaces")]
        out += [f"  - {s}" for s in doc["surfaces"]]
    rel = doc.get("related") or {}
    if rel:
        out += ["", h("Related")]
        for k, v in rel.items():
            if not v:
                continue
            if k == "removed_connectors":
                out.append(
                    "  connectors gone in this release: "
                    + ", ".join(f"{x['name']} (removed in {x['removed_in']})" for x in v)
                )
            elif isinstance(v, list) and v and isinstance(v[0], dict):
                out.append(f"  {k.replace('_', ' ')}:")
                for x in v:
                    extra = ", ".join(
                        f"{a}={_v(b)}" for a, b in x.items() if a != "name" and b not in (None, [], False)
                    )
                    out.append(f"    {x['name']}" + (f"  ({extra})" if extra else ""))
            else:
                out.append(f"  {k.replace('_', ' ')}: {', '.join(map(str, v))}")
    if doc.get("knowledge"):
        out += ["", h("Known facts (vcfg knowledge packs)")]
        out += _knowledge(doc["knowledge"])
    hist = doc.get("history")
    if hist:
        out += ["", h(f"History (bundled releases {hist.get('checked', '')})")]
        if hist.get("present_in"):
            out.append(f"  present in: {', '.join(hist['present_in'])}")
        if hist.get("added_in"):
            out.append(f"  added in: {hist['added_in']}")
        if hist.get("removed_in"):
            out.append(f"  removed in: {hist['removed_in']}")
        for c in hist.get("changes", []):
            if c["attribute"] == "fields":
                out.append(f"  {c['version']}: fields changed")
            else:
                out.append(f"  {c['version']}: {c['attribute']} {_v(c['old'])} -> {_v(c['new'])}")
    if doc.get("note"):
        out += ["", doc["note"]]
    if "help_text" in doc or "help_note" in doc:
        out += ["", h("vLLM's own description")]
        if doc.get("help_text"):
            out += ["  " + line for line in doc["help_text"].splitlines()]
        elif doc.get("help_note"):
            out.append(f"  ({doc['help_note']})")
        else:
            out.append("  (none in vLLM's source)")
    return "\n".join(out)


_SKIP = {"versions", "sources", "name", "note", "aliases", "case_sensitive", "unique_per_host"}


def _knowledge(k: dict[str, Any]) -> list[str]:
    """Connector facts: one line per role/key/port entry, its note under it."""
    out: list[str] = []
    for section in ("roles", "keys", "ports"):
        for entry in k.get(section, []):
            attrs = ", ".join(
                f"{a}={_v(b)}" for a, b in entry.items() if a not in _SKIP and b not in (None, [], False, "")
            )
            head = section.rstrip("s") + (f" {entry['name']}" if entry.get("name") else "")
            out.append(f"  {head}: {attrs}" if attrs else f"  {head}")
            if entry.get("note"):
                out.append(f"      {entry['note']}")
            if entry.get("versions"):
                out.append(f"      (holds for vllm {entry['versions']})")
    for key, value in k.items():
        if key not in ("roles", "keys", "ports") and key not in _SKIP and value not in (None, [], {}, ""):
            out.append(f"  {key.replace('_', ' ')}: {_v(value)}")
    return out
