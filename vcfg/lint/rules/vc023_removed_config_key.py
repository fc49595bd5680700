"""VC023 removed-config-key: a key the config class had in an earlier release."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import FixInfo, Rule
from vcfg.lint.rules._config_json import config_objects, ignored_note, key_severity, key_span, removed_key
from vcfg.lint.rules._fix import delete_json_member, fix, rename_json_key

RULE = Rule(
    code="VC023",
    name="removed-config-key",
    summary="a key the option's config class had in an earlier release",
    severity="error",
    why=(
        "Config classes lose fields between releases: KVTransferConfig dropped "
        "kv_buffer_size, kv_ip, kv_rank and kv_parallel_size in 0.32, and the P2P-NCCL "
        "examples people copy still set them. From 0.16 a removed key stops vLLM at "
        "parse time; before 0.16 it was silently ignored (a warning then)."
    ),
    when_vllm_fails="at parse time from 0.16 (vllm exits 2); never before: the key is ignored",
    example=(
        "vllm serve facebook/opt-125m \\\n"
        '  --kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"kv_both","kv_buffer_size":5e9}\'\n'
    ),
    use_instead=(
        "vllm serve facebook/opt-125m \\\n"
        '  --kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"kv_both"}\'\n'
    ),
    fixes=(
        FixInfo(
            "safe",
            'a key the knowledge packs say the release reads nothing of (`migrate = "drop"`) '
            "is removed from the JSON, with its comma",
        ),
        FixInfo(
            "safe",
            'a key the packs call renamed (`migrate = "rename"`) gets its new name, unless the object has that key too',
        ),
    ),
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    for obj in config_objects(lc):
        cls = obj.cls
        for key in obj.value:
            gone = removed_key(lc, cls, key)
            if gone is None:
                continue
            sev = key_severity(cls)
            when = f" in vllm {gone.since}" if gone.since else ""
            notes: list[str] = []
            if sev == "warning":
                notes.append(ignored_note(lc.target))
            entry = gone.entry
            if entry is not None and entry.replacement:
                help = f"use {entry.replacement_text()} instead"
                if entry.note:
                    notes.append(entry.note)
            elif entry is not None and entry.note:
                help = f"{entry.note}: remove it"
            else:
                help = "remove it"
            fx = None
            if entry is not None and entry.migrate == "drop" and not obj.child:
                fx = fix([delete_json_member(lc, obj.ov, (*obj.path, key))], "safe", f"remove `{key}`")
            elif entry is not None and entry.migrate == "rename" and not obj.child:
                cls_name, _, new = entry.replacement[0].rpartition(".")
                # within the same object only, and not when the new key is there too
                if cls_name == cls.name and cls.field(new) is not None and new not in obj.value:
                    fx = fix([rename_json_key(lc, obj.ov, (*obj.path, key), new)], "safe", f"rename `{key}` to `{new}`")
            yield RULE.diag(
                key_span(lc, obj, key),
                f"`{key}` was removed from {cls.name}{when}",
                help=help,
                notes=tuple(notes),
                severity=sev,
                fix=fx,
            )
