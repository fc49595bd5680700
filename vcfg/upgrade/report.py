"""What ``vcfg upgrade`` prints: the diff, then what it migrated, what it could not (with
the reason and where to read about it) and the defaults that changed under the launch."""

from __future__ import annotations

import json
from typing import Any

from vcfg.upgrade.migrate import Upgrade


def _value(v: Any) -> str:
    if v is None:
        return "None"
    return json.dumps(v, ensure_ascii=False)


def render_text(u: Upgrade, *, written: bool = False) -> str:
    from vcfg.fix.run import unified_diff

    out: list[str] = []
    diff = unified_diff(u.run)
    if diff:
        out.append(diff.rstrip("\n"))
        out.append("")
    changed = [f.path for f in u.run.files if f.changed]
    verb = "rewrote" if written else ("would rewrite" if changed else "nothing to rewrite in")
    out.append(
        f"vllm {u.old} -> {u.new}: {verb} {len(changed) if changed else len(u.run.files)} "
        f"file{'s' * ((len(changed) or len(u.run.files)) != 1)}"
        + ("" if written or not changed else " (--write writes them)")
    )
    if u.migrated:
        out += ["", f"migrated ({len(u.migrated)}):"]
        for i in u.migrated:
            out.append(f"  {i.path}:{i.line}:{i.column}: {_strip(i.message)}: {i.detail}")
            if i.sources:
                out.append(f"      see {', '.join(i.sources)}")
    if u.not_migrated:
        out += ["", f"could not migrate ({len(u.not_migrated)}):"]
        for i in u.not_migrated:
            out.append(f"  {i.path}:{i.line}:{i.column}: {i.code} {_strip(i.message)}")
            if i.detail:
                out.append(f"      {i.detail}")
            if i.alternatives:
                out.append(
                    "      could take its place: "
                    + ", ".join(f"{n} ({src})" if src else n for n, src in i.alternatives)
                )
            if i.sources:
                out.append(f"      see {', '.join(i.sources)}")
    if u.preexisting:
        out += ["", f"mistakes the files already had for {u.old} ({len(u.preexisting)}; `vcfg lint` explains them):"]
        for i in u.preexisting:
            out.append(f"  {i.path}:{i.line}:{i.column}: {i.code} [{i.severity}] {_strip(i.message)}")
    if u.defaults:
        out += [
            "",
            f"defaults that changed ({len(u.defaults)}; the launch leaves them unset, so it behaves "
            "differently: reported, not changed):",
        ]
        width = max(len(d.name) for d in u.defaults)
        for d in u.defaults:
            since = f" (in {d.since})" if d.since else ""
            out.append(
                f"  {d.path}: {d.name.ljust(width)}  {_value(d.old)} -> {_value(d.new)}{since}"
                + (f"  {d.source}" if d.source else "")
            )
    return "\n".join(out)


def _strip(message: str) -> str:
    return message.replace("`", "")


def render_json(u: Upgrade) -> str:
    from vcfg.fix.run import unified_diff

    doc = u.to_json()
    doc["diff"] = unified_diff(u.run)
    return json.dumps(doc, indent=2, ensure_ascii=False)
