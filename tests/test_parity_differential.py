"""Engine parity (#16), the differential test: vcfg's verdict against vLLM's own code.

For each release (0.33.0, installed in the oracle venv, and 0.13.0, its Python tree put
ahead on PYTHONPATH as in tests/test_fidelity.py), ``tests/parity_cases.py`` generates
launches from the release's catalog and by hand; ``tests/oracle/parity_driver.py``, one
long-lived process per release, runs each through vLLM's real parser, the serve
command's checks and ``create_engine_config()`` on small local model folders; vcfg
lints each launch as a script.  A launch is refused by vLLM if any of those stages
raises, by vcfg if it reports an error.

A vcfg error where vLLM's engine config is built is an agreement only if the rule is in
``LATER_STAGE``, which names the later stage where vLLM fails (the driver stops before
the port is bound, processes start or weights load) and why.  A refusal the CPU oracle
makes only because it is a CPU (``PLATFORM_ONLY``) is left out of the count, listed.
Known disagreements are listed with their reason in ``KNOWN``; the report lists every
miss and false alarm either way.  The test asserts agreement >= 99% over at least
1,000 launches per release and that every example of issue #16 is refused by both.

    VCFG_CACHE_DIR=~/.cache/vcfg pytest -m slow tests/test_parity_differential.py -s

writes ``$VCFG_CACHE_DIR/parity/report-<release>.md`` (docs/fidelity.md).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import parity_cases  # noqa: E402
from parity_cases import Case  # noqa: E402

from vcfg.catalog import store  # noqa: E402
from vcfg.lint.config import LintConfig  # noqa: E402
from vcfg.lint.engine import lint_paths  # noqa: E402

ORACLE_DIR = Path(__file__).parent / "oracle"
DRIVER = ORACLE_DIR / "parity_driver.py"
RELEASES = ("0.33.0", "0.13.0")
#: issue #16 asks for 99%; measured 99.7% (0.33.0, 7 misses) and 99.6% (0.13.0, 5 misses)
#: on 2026-12-02 (docs/fidelity.md): the test holds that floor, rounded down
THRESHOLD = 0.995
MIN_CASES = 1000

#: examples of the issue vcfg does not refuse yet, (release, example) -> why; the test
#: fails when one is found (remove it here) or when another is missed
EXAMPLES_NOT_YET: dict[tuple[str, str], str] = {
    (
        "0.33.0",
        "kv-cache-dtype float16 on bf16",
    ): "VC261 only warns with --dtype auto: on a GPU without bfloat16 vLLM casts the model "
    "to float16, where a float16 KV cache is accepted; the CPU oracle keeps bfloat16",
}

#: (rule code, subject pattern or None, the stage at which vLLM fails, why), for a vcfg
#: error on a launch whose engine config vLLM builds: the driver stops before that
LATER_STAGE: list[tuple[str, Optional[str], str, str]] = [
    (
        "VC102",
        None,
        "first read of the variable",
        "envs.py parses the value when a module reads it, after the engine config",
    ),
    ("VC027", None, "engine start-up", "an unregistered connector is looked up when the KV connector is created"),
    (
        "VC231",
        None,
        "engine start-up",
        "the scheduler creates the connector for any --kv-transfer-config "
        "(v1/core/sched/scheduler.py:111 @0.13.0, :175 @0.33.0) and one without kv_connector "
        "stops it: 'Connector name is not set' (kv_connector/factory.py:108 @0.13.0); 0.33 "
        "already fails in the engine config",
    ),
    (
        "VC014",
        r"^--reasoning-parser$",
        "start-up, once the engine runs (0.13)",
        "0.13's serve check reads structured_outputs_config before --reasoning-parser is "
        "copied into it; the parser is looked up when the OpenAI server's handlers are built",
    ),
]

#: a refusal the CPU oracle makes because it runs on a CPU (or without a compiled op):
#: a GPU deployment would not see it.  Pattern on the oracle's message -> why.
PLATFORM_ONLY: dict[str, str] = {
    r"not supported on current platform": "a CPU-platform restriction",
    r"not supported on CPU": "a CPU-platform restriction",
    r"No module named 'compressed_tensors'": "an optional package the oracle venv lacks",
    r"requires Model Runner V2": "Model Runner V2 needs Triton, absent on the CPU oracle",
    r"Model Runner V1 does not support": "Model Runner V2 needs Triton, absent on the CPU oracle",
    r"Couldn't instantiate the backend tokenizer": "the model folders hold no tokenizer",
    r"failed to be inspected": "the model class is inspected in a subprocess the CPU oracle cannot run",
    r"only available on (CUDA|ROCm)": "a backend of another platform",
    r"requires NVIDIA": "a CUDA-only feature",
    r"invalid choice: 'cuda'": "the accelerator's device type among the choices (the CPU oracle has none)",
    r"prefix-cache on the CPU backend is not compatible": (
        "the CPU platform refuses any KV cache dtype but auto with chunked prefill or prefix "
        "caching (platforms/cpu.py:196 @0.13.0)"
    ),
    r"Too large swap space": (
        "the oracle machine's memory: 4 GiB of swap per GPU of the node against the host's RAM "
        "(config/cache.py:229 @0.13.0), which vcfg cannot know"
    ),
}

#: known disagreements: pattern on "<kind> <subject> <oracle message>" -> reason.  Each
#: is listed in the report; they still count against the threshold.
_MODEL = "needs the model's config.json: a model-config check (VC260-VC279), not yet in vcfg"
KNOWN: dict[str, str] = {
    r'kv_cache_dtype="float16" is incompatible with dtype="bfloat16"': (
        "VC261 warns, not errs: with --dtype auto a GPU without bfloat16 (V100, T4) runs the "
        "bfloat16 model in float16, where the float16 cache is accepted; the CPU oracle keeps "
        "bfloat16"
    ),
    r'kv_cache_dtype="\w+" is incompatible with dtype': _MODEL,
    r"max_num_batched_tokens \(\d+\) is smaller than max_model_len": _MODEL,
    r"Unsupported speculative method: 'mtp'": _MODEL,
    r"Non-MoE models do not support external data parallel": _MODEL,
    r"Decode context parallelism for GQA/MQA requires": _MODEL,
    r"is not supported for architecture": (
        "needs the model class's capabilities (supports_replayssm, config/vllm.py:3475 "
        "@0.33.0), which config.json does not state"
    ),
    r"Cannot find the config file for awq|quantization method specified in the model config|"
    r"Quantization method specified in the model config": _MODEL,
    r"num_speculative_tokens must be provided with speculative model unless the draft model config": (
        "with a draft model named: depends on its config (n_predict), which vcfg does not read "
        "(without one VC233 finds it)"
    ),
    r"Unable to use nsight profiling unless workers run with Ray": (
        "depends on the executor vLLM picks (Ray or not), which vcfg does not decide"
    ),
    r"--grpc-port requires VLLM_USE_RUST_FRONTEND": (
        "depends on VLLM_USE_RUST_FRONTEND in the environment the script inherits (not set in "
        "the script), which vcfg does not know"
    ),
    r"out-of-range (-tp|--tensor-parallel-size|--pipeline-parallel-size)[\s\S]*max_num_batched_tokens\s+Input should be": (
        "0.13 has no bound on the sizes (ge=1 from 0.23.0); the CPU oracle's batch defaults "
        "scale with the world size (engine/arg_utils.py:1838 @0.13.0) and fall below 1, a GPU's "
        "do not: where a GPU deployment fails is not known, so vcfg does not judge it"
    ),
}


@dataclass
class Row:
    case: Case
    oracle: dict[str, Any]
    findings: list[tuple[str, str, str]]  # (code, severity, message)

    @property
    def vllm_refuses(self) -> bool:
        return self.oracle.get("ok") is False

    @property
    def vcfg_refuses(self) -> bool:
        return any(sev == "error" for _, sev, _ in self.findings)

    @property
    def errors(self) -> list[str]:
        return sorted({c for c, sev, _ in self.findings if sev == "error"})

    @property
    def platform_only(self) -> Optional[str]:
        msg = self.oracle.get("message") or ""
        if not self.vllm_refuses:
            return None
        return next((why for pat, why in PLATFORM_ONLY.items() if re.search(pat, msg)), None)

    @property
    def later(self) -> Optional[tuple[str, str]]:
        if self.vllm_refuses or not self.vcfg_refuses:
            return None
        excuses = [
            next(
                (
                    (st, why)
                    for code, pat, st, why in LATER_STAGE
                    if code == c and (pat is None or re.search(pat, self.case.subject))
                ),
                None,
            )
            for c in self.errors
        ]
        return excuses[0] if excuses and all(excuses) else None

    @property
    def verdict(self) -> str:
        """agree, later (vcfg error, vLLM fails after the engine config), miss, false
        alarm, platform (left out), unknown (the oracle timed out)."""
        if self.oracle.get("ok") is None:
            return "unknown"
        if self.platform_only and not self.vcfg_refuses:
            return "platform"
        if self.vllm_refuses == self.vcfg_refuses:
            return "agree"
        if self.later:
            return "later"
        return "miss" if self.vllm_refuses else "false alarm"


# --------------------------------------------------------------------------- the two sides


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VLLM_") and k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(extra)
    return env


def run_oracle(python: Path, version: str, cases: list[Case], work: Path, installed: str) -> dict[str, dict[str, Any]]:
    src, dst = work / f"in-{version}.jsonl", work / f"out-{version}.jsonl"
    src.write_text("".join(json.dumps(c.as_json()) + "\n" for c in cases), encoding="utf-8")
    extra = {}
    tree = None
    if version != installed:
        tree = Path(os.environ["VCFG_CACHE_DIR"]) / "vllm-src" / version
        if not (tree / "vllm").is_dir():
            from vcfg.catalog.extract.source import from_version

            from_version(version)
        extra["PYTHONPATH"] = str(tree)
    proc = subprocess.run(
        [str(python), str(DRIVER), str(src), str(dst)],
        capture_output=True,
        text=True,
        timeout=3600,
        env=_clean_env(**extra),
    )
    if proc.returncode != 0:
        pytest.fail(f"parity_driver.py failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    lines = [json.loads(ln) for ln in dst.read_text(encoding="utf-8").splitlines()]
    head = lines[0]
    if tree is not None:
        assert Path(head["vllm_path"]).resolve() == (tree / "vllm").resolve(), head
    assert head["warm_up"]["ok"] is True, head
    return {r["id"]: r for r in lines if "id" in r}


def script(case: Case) -> str:
    env = "".join(f"export {k}={shlex.quote(v)}\n" for k, v in case.env)
    return "#!/bin/bash\n" + env + "vllm serve " + " ".join(shlex.quote(a) for a in case.argv) + "\n"


def run_vcfg(version: str, cases: list[Case], work: Path) -> dict[str, list[tuple[str, str, str]]]:
    d = work / f"scripts-{version}"
    d.mkdir(parents=True, exist_ok=True)
    paths = {}
    for c in cases:
        p = d / f"launch-{c.id}.sh"
        p.write_text(script(c), encoding="utf-8")
        paths[str(p)] = c.id
        for a in c.argv:  # a finding may sit in the --config file the launch reads
            if a.endswith(".yaml"):
                paths[a] = c.id
    r = lint_paths(list(paths), version, config=LintConfig())
    assert r.internal_errors == [], r.internal_errors[:3]
    out: dict[str, list[tuple[str, str, str]]] = {c.id: [] for c in cases}
    for diag in r.diagnostics:
        out[paths[diag.span.file]].append((diag.code, diag.severity, diag.message))
    return out


# --------------------------------------------------------------------------- the report


def known_reason(row: Row) -> Optional[str]:
    text = f"{row.case.kind} {row.case.subject} {row.oracle.get('message') or ''}"
    return next((why for pat, why in KNOWN.items() if re.search(pat, text)), None)


def summary(rows: list[Row]) -> dict[str, Any]:
    by = Counter(r.verdict for r in rows)
    counted = len(rows) - by["platform"] - by["unknown"]
    agree = by["agree"] + by["later"]
    return {
        "launches": len(rows),
        "counted": counted,
        "agree": agree,
        "agreement": agree / counted if counted else 0.0,
        **dict(by),
    }


def _oracle_text(o: dict[str, Any]) -> str:
    if o.get("ok"):
        return "accepted (engine config built)"
    first = (o.get("message") or "").strip().splitlines()
    msg = " ".join(x.strip() for x in first[:3])[:220]
    return f"{o.get('stage')}: {o.get('error')}: {msg}"


def write_report(version: str, rows: list[Row], path: Path) -> None:
    s = summary(rows)
    out = [
        f"# Engine parity, vLLM {version}",
        "",
        f"{s['launches']} launches; {s['counted']} counted "
        f"({s.get('platform', 0)} left out as CPU-only refusals, {s.get('unknown', 0)} timed out); "
        f"agreement {s['agree']}/{s['counted']} = {100 * s['agreement']:.2f}%",
        "",
        "| verdict | launches |",
        "|---|---|",
    ]
    out += [f"| {k} | {v} |" for k, v in sorted(Counter(r.verdict for r in rows).items())]
    kinds = Counter((r.case.kind, r.verdict) for r in rows)
    out += ["", "| kind | agree | later | miss | false alarm | platform |", "|---|---|---|---|---|---|"]
    for kind in sorted({k for k, _ in kinds}):
        out.append(
            f"| {kind} | "
            + " | ".join(str(kinds[(kind, v)]) for v in ("agree", "later", "miss", "false alarm", "platform"))
            + " |"
        )
    for title, verdict in (
        ("Misses (vLLM refuses, vcfg passes)", "miss"),
        ("False alarms (vcfg errors, vLLM builds the engine config)", "false alarm"),
        ("vcfg errors vLLM meets later", "later"),
        ("Left out: refusals of the CPU oracle only", "platform"),
    ):
        sel = [r for r in rows if r.verdict == verdict]
        out += ["", f"## {title}: {len(sel)}", ""]
        for r in sel:
            why = (
                (known_reason(r) or "not yet explained")
                if verdict in ("miss", "false alarm")
                else (f"{r.later[0]}: {r.later[1]}" if r.later else r.platform_only)
            )
            out.append(
                f"- `{r.case.id}` {r.case.kind} `{r.case.subject}`: "
                f"`{shlex.join(r.case.argv[1:])}`"
                + (f" env `{' '.join(f'{k}={v}' for k, v in r.case.env)}`" if r.case.env else "")
                + f"\n  - vLLM: {_oracle_text(r.oracle)}"
                + f"\n  - vcfg: {', '.join(f'{c} {m}' for c, sev, m in r.findings if sev == 'error') or 'no error'}"
                + f"\n  - reason: {why}"
            )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def differential(version: str, python: Path, work: Path, installed: str) -> list[Row]:
    # the scripts, their --config files and the models are one project: a launch's
    # --config outside its repository is not followed (docs/file-policy.md)
    (work / ".git").mkdir(exist_ok=True)
    models = parity_cases.write_models(work / "models")
    cases = parity_cases.materialise(
        parity_cases.generate(store.load_exact(version), models), work / f"configs-{version}"
    )
    oracle = run_oracle(python, version, cases, work, installed)
    vcfg = run_vcfg(version, cases, work)
    return [Row(c, oracle[c.id], vcfg[c.id]) for c in cases]


# --------------------------------------------------------------------------- the test


@pytest.fixture(scope="session")
def oracle_venv_python() -> Path:
    """The oracle venv's python, built by setup_env.sh when missing (test_fidelity.py)."""
    from test_fidelity import build_oracle_venv

    os.environ.setdefault("VCFG_CACHE_DIR", os.path.join(os.path.expanduser("~"), ".cache", "vcfg"))
    return build_oracle_venv()


@pytest.mark.slow
@pytest.mark.parametrize("version", RELEASES)
def test_engine_parity(version: str, oracle_venv_python: Path, tmp_path: Path) -> None:
    from test_fidelity import installed_oracle_version

    rows = differential(version, oracle_venv_python, tmp_path, installed_oracle_version())
    report = Path(os.environ["VCFG_CACHE_DIR"]) / "parity" / f"report-{version}.md"
    write_report(version, rows, report)
    s = summary(rows)
    print(f"\n{version}: {s} -> {report}")
    examples = [r for r in rows if r.case.example]
    assert len({r.case.example for r in examples}) >= 20
    # every example is refused by 0.33.0 (the release); in an older release
    # only those its vLLM refuses are expected of vcfg
    missed_rows = [
        r for r in examples if not r.vcfg_refuses and (r.vllm_refuses or version == installed_oracle_version())
    ]
    known_misses = {ex for (ver, ex) in EXAMPLES_NOT_YET if ver == version}
    missed = [
        f"{r.case.example}: vLLM {_oracle_text(r.oracle)}; vcfg {r.errors}"
        for r in missed_rows
        if r.case.example not in known_misses
    ]
    fixed = known_misses - {r.case.example for r in missed_rows}
    assert not fixed, f"found now: remove from EXAMPLES_NOT_YET: {sorted(fixed)}"
    assert s["counted"] >= MIN_CASES, s
    assert s["agreement"] >= THRESHOLD, f"{s}; see {report}"
    assert not missed, "\n".join(missed)
