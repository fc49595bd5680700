"""Containers -> launches, for every reader of container formats (Kubernetes objects,
compose services, Helm values that hold container specs).

A container's argv is its ``command`` + ``args`` (Kubernetes: ``command`` replaces
the image's entrypoint, ``args`` its CMD; compose: ``entrypoint`` and ``command``).
Without a ``command`` the image's entrypoint runs: for the ``vllm/vllm-openai``
images that is ``vllm serve``.  ``$(VAR)`` in Kubernetes argv is replaced from the
container's env (left as written when the env does not define it, as the kubelet
does); ``valueFrom`` values are unknown, never empty.  A ``sh -c`` / ``bash -c``
string goes to the shell front end, with positions mapped back into the YAML.
"""

from __future__ import annotations

import re
from typing import Any, Optional

import yaml

from vcfg.launch.model import Hole, Invocation, Run, Span, Unknown, Word
from vcfg.launch.yaml_config import _node_span, _scalar_word, _TextLoc

#: the last part of an image name whose entrypoint is vLLM's API server: vllm/vllm-openai
#: and its variants, and builds of vLLM for other hardware named so (opea/vllm,
#: opea/vllm-gaudi, vllm-rocm, vllm-cpu ...); not vllm-router or other tools
_VLLM_IMAGE = re.compile(
    r"(^|/)vllm(-openai[\w.-]*|-(gaudi|rocm|cpu|openvino|xpu|tpu|hpu|neuron|ascend|arm64|cuda)[\w.-]*)?(:|@|$)", re.I
)
_SHELLS = {"sh", "bash", "dash", "zsh", "ash"}
#: vLLM's own image (Docker Hub's vllm/vllm-openai, under any registry host)
_OFFICIAL_IMAGE = re.compile(r"(^|/)vllm/vllm-openai[\w.-]*(:|@|$)", re.I)


def keyed(node: Any) -> dict[str, tuple[Any, Any]]:
    """A mapping node's scalar keys -> (key node, value node)."""
    out: dict[str, tuple[Any, Any]] = {}
    if isinstance(node, yaml.MappingNode):
        for kn, vn in node.value:
            if isinstance(kn, yaml.ScalarNode):
                out[kn.value] = (kn, vn)
    return out


def is_vllm_image(image: Optional[str]) -> bool:
    return bool(image and _VLLM_IMAGE.search(image.split("@")[0]))


def image_entrypoint_words(image: Word) -> list[Word]:
    """What a vLLM image runs when nothing replaces its entrypoint: ``vllm serve`` for
    vllm/vllm-openai, the API server module for other builds of vLLM (opea/vllm ...)
    and for vllm/vllm-openai up to 0.8.5 (`vcfg.launch.release.runs_api_server`),
    which take ``--model``."""
    from vcfg.launch.release import runs_api_server

    sp = image.span
    names = (
        ["python3", "-m", "vllm.entrypoints.openai.api_server"]
        if runs_api_server(image.text or "x")
        else ["vllm", "serve"]
    )
    return [Word(t, sp, t, (Run(0, len(t), sp, False),)) for t in names]


def list_words(loc: _TextLoc, node: Any) -> Optional[list[Word]]:
    if isinstance(node, yaml.SequenceNode):
        out = []
        for it in node.value:
            if isinstance(it, yaml.ScalarNode):
                out.append(_scalar_word(loc, it))
            else:
                return None
        return out
    return None


def _join(parts: list[Word], like: Word) -> Word:
    text = ""
    runs: list[Run] = []
    holes: list[Hole] = []
    for p in parts:
        runs.extend(Run(r.at + len(text), r.length, r.span, r.exact) for r in p.runs)
        holes.extend(Hole(h.at + len(text), h.reason, h.span, h.may_split) for h in p.holes)
        text += p.value
    return Word(text, like.span, like.raw, tuple(runs), tuple(holes), like.quoted)


_K8S_REF = re.compile(r"\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)")


def k8s_interpolate(w: Word, env: dict[str, Word], keep_undefined: bool = False) -> Word:
    """Kubernetes ``$(VAR)`` in command/args, from the container's env (``$$`` is a
    literal ``$``).  An undefined name: a hole (a controller may inject it), or the
    text as written when ``keep_undefined`` (a shell string: the shell then sees a
    command substitution)."""
    v = w.value
    if "$" not in v or w.holes:
        return w
    parts: list[Word] = []
    last = 0
    for m in _K8S_REF.finditer(v):
        if m.group(0) == "$$":
            parts.append(w.slice(last, m.start() + 1))
            last = m.end()
            continue
        name = m.group(1)
        if name not in env and keep_undefined:
            continue
        if m.start() > last:
            parts.append(w.slice(last, m.start()))
        if name in env:
            parts.append(env[name])
        else:
            sp = w.span_of(m.start(), m.end())
            parts.append(Word("", sp, "", (), (Hole(0, f"$({name}) is not in the container's env", sp),)))
        last = m.end()
    if not parts:
        return w
    if last < len(v):
        parts.append(w.slice(last, len(v)))
    return _join(parts, w)


def container_env(
    loc: _TextLoc,
    c: dict[str, tuple[Any, Any]],
    unknowns: list[Unknown],
    keys: tuple[str, ...] = ("env", "environment", "envs"),
) -> list[tuple[str, Word, Span]]:
    """``env`` lists (``name``/``value``/``valueFrom``) or maps, compose
    ``environment`` lists (``K=V``) or maps; ``envFrom``/``env_file`` are unknown."""
    out: list[tuple[str, Word, Span]] = []
    for key in keys:
        if key not in c:
            continue
        env = c[key][1]
        if isinstance(env, yaml.SequenceNode):
            for item in env.value:
                if isinstance(item, yaml.ScalarNode):  # compose: K=V
                    w = _scalar_word(loc, item)
                    k = w.value.find("=")
                    if k > 0:
                        out.append((w.value[:k], w.slice(k + 1, len(w.value)), _node_span(loc, item)))
                    continue
                m = keyed(item)
                name = m.get("name", (None, None))[1]
                if not isinstance(name, yaml.ScalarNode):
                    continue
                sp = _node_span(loc, item)
                value = m.get("value", (None, None))[1]
                if isinstance(value, yaml.ScalarNode):
                    out.append((name.value, _scalar_word(loc, value), sp))
                elif "valueFrom" in m:
                    vf = keyed(m["valueFrom"][1])
                    what = (
                        "a fieldRef"
                        if "fieldRef" in vf
                        else "a resourceFieldRef"
                        if "resourceFieldRef" in vf
                        else "a secret or config map"
                    )
                    out.append(
                        (name.value, Word("", sp, "", (), (Hole(0, f"{name.value} comes from {what}", sp),)), sp)
                    )
                else:
                    out.append((name.value, Word("", sp), sp))
        elif isinstance(env, yaml.MappingNode):
            for kn, vn in env.value:
                if isinstance(kn, yaml.ScalarNode) and isinstance(vn, yaml.ScalarNode):
                    out.append((kn.value, _scalar_word(loc, vn), _node_span(loc, kn)))
    for key in ("envFrom", "env_file"):
        if key in c:
            unknowns.append(Unknown("container", f"environment loaded from {key}", _node_span(loc, c[key][1])))
    return out


_COMPOSE_VAR = re.compile(r"\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def compose_interpolate(w: Word, split: bool = False) -> Word:
    """Compose's own ``${VAR}`` / ``${VAR:-default}`` in a value, done before the
    container starts: from the caller's environment (unknown here), so a default is
    taken as an assumption and a bare ``${VAR}`` is unknown.  ``split``: a word of a
    string command, which compose splits after it interpolates: the unknown value may
    be any number of words (``command: -m vllm... --port=5000 ${EXTRA_ARGS}``)."""
    v = w.value
    if "$" not in v or w.holes:
        return w
    parts: list[Word] = []
    last = 0
    notes: list[str] = []
    for m in _COMPOSE_VAR.finditer(v):
        if m.start() > last:
            parts.append(w.slice(last, m.start()))
        last = m.end()
        if m.group(0) == "$$":
            parts.append(w.slice(m.start(), m.start() + 1))
            continue
        name = m.group(1) or m.group(4)
        sp = w.span_of(m.start(), m.end())
        if m.group(2) and m.group(2).endswith("-"):
            k = m.start(3)
            parts.append(w.slice(k, k + len(m.group(3))) if m.group(3) else Word("", sp))
            notes.append(f"${{{name}}} is not set where compose runs: its default is assumed")
        else:
            parts.append(
                Word("", sp, "", (), (Hole(0, f"${{{name}}} comes from the environment compose runs in", sp, split),))
            )
    if last < len(v):
        parts.append(w.slice(last, len(v)))
    out = _join(parts, w)
    return out._replace(assumptions=tuple(notes)) if notes else out


def container_launches(
    loc: _TextLoc,
    node: Any,
    path: str,
    unknowns: list[Unknown],
    *,
    compose: bool = False,
    extra_env: list[tuple[str, Word, Span]] = (),  # type: ignore[assignment]
    image: Optional[Word] = None,
    image_entrypoint: bool = True,
) -> list[Invocation]:
    """The launches one container (a mapping node) runs.  ``image_entrypoint``
    False: an operator replaces the image's entrypoint (KubeRay runs ``ray start``)."""
    from vcfg.launch import shell

    c = keyed(node)
    env = list(extra_env) + container_env(loc, c, unknowns)
    if compose:
        env = [(k, compose_interpolate(w), sp) for k, w, sp in env]
    env_map = {k: w for k, w, _ in env}
    if "image" in c and isinstance(c["image"][1], yaml.ScalarNode):
        image = _scalar_word(loc, c["image"][1])
        if compose:
            image = compose_interpolate(image)
    workdir = None
    for key in ("workingDir", "working_dir"):
        if key in c and isinstance(c[key][1], yaml.ScalarNode):
            workdir = _scalar_word(loc, c[key][1])
    order = ("entrypoint", "command") if compose else ("command", "args")
    # each part: a list of words, or (compose) a string the way a shell splits it
    parts: list[tuple[bool, list[Word]]] = []
    span_key = None
    for key in order:
        if key not in c:
            continue
        kn, vn = c[key]
        span_key = span_key or kn
        ws = list_words(loc, vn)
        if ws is not None:
            parts.append((False, ws))
        elif isinstance(vn, yaml.ScalarNode) and vn.value:
            # a Kubernetes string is one word (a mistake, but it is what runs)
            parts.append((compose, [_scalar_word(loc, vn)]))
    replaced = ("entrypoint" in c) if compose else ("command" in c)
    if not replaced and image_entrypoint and image is not None and is_vllm_image(image.text):
        parts.insert(0, (False, image_entrypoint_words(image)))
        if ("command" if compose else "args") not in c and not _OFFICIAL_IMAGE.search(image.value):
            # nothing given: the image's own CMD runs, which only vLLM's image is known
            # to leave empty (ghcr.io/substratusai/vllm runs a script passing --model $MODEL)
            sp = image.span
            parts.append((False, [Word("", sp, "", (), (Hole(0, "the arguments of the image's own CMD", sp, True),))]))
    argv = [w for _, ws in parts for w in ws]
    if not argv:
        return []
    span = _node_span(loc, span_key if span_key is not None else node)
    in_shell = argv[0].text is not None and argv[0].text.rsplit("/", 1)[-1] in _SHELLS
    if not compose:
        argv = [k8s_interpolate(w, env_map, keep_undefined=in_shell) for w in argv]
        # a Go template a controller renders (KServe's LLMInferenceServiceConfig,
        # a Helm value): a placeholder, unknown
        argv = [mask_expressions(w, "go") if "{{" in w.value else w for w in argv]
    if compose:
        # compose splits a string command itself (quotes, no shell) and interpolates
        # ${VAR} from where it runs; a string a shell runs (sh -c) keeps its ${VAR}
        # for that shell to expand
        words = [(is_string, w) for is_string, ws in parts for w in (split_words(ws[0]) if is_string else ws)]
        argv = [
            w
            if k > 0 and words[k - 1][1].text in ("-c", "-lc", "-ec", "-xc", "-exc")
            else compose_interpolate(w, split=is_string)
            for k, (is_string, w) in enumerate(words)
        ]
        found = shell.classify_argv(argv, env, span, path)
    elif any(is_string for is_string, _ in parts):
        found = shell.classify_argv([], env, span, path, script=_as_script(parts, span))
    else:
        found = shell.classify_argv(argv, env, span, path)
    if not replaced and found:
        # the program is the image's: the launch is where its arguments are written
        return [i._replace(image=image, workdir=workdir, span=span) for i in found]
    return [i._replace(image=image, workdir=workdir) for i in found]


_SAFE = re.compile(r"^[A-Za-z0-9_@%+=:,./-]+$")


def _as_script(parts: list[tuple[bool, list[Word]]], span: Span) -> Word:
    """One shell string of list words (quoted where needed) and command strings."""
    pieces: list[Word] = []
    for is_string, ws in parts:
        for w in ws:
            if pieces:
                pieces.append(Word(" ", span, " ", (Run(0, 1, span, False),)))
            if is_string or (w.text is not None and _SAFE.match(w.value)):
                pieces.append(w)
            else:
                q = "'" + w.value.replace("'", "'\\''") + "'"
                pieces.append(Word(q, w.span, q, (Run(0, len(q), w.span, False),), w.holes))
    return _join(pieces, pieces[0])


_EXPR = {"gha": re.compile(r"\$\{\{.*?\}\}", re.S), "go": re.compile(r"\{\{.*?\}\}", re.S)}


_EXPR_WHAT = {
    "gha": "a GitHub Actions expression, known when the workflow runs",
    "go": "a Go template, known when it is rendered",
}


#: ``${{ env.NAME }}``
_ENV_EXPR = re.compile(r"\$\{\{\s*env\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


def mask_expressions(w: Word, kind: str, env: Optional[dict[str, Word]] = None) -> Word:
    """A script with GitHub Actions ``${{ ... }}`` (``kind="gha"``) or Go template
    ``{{ ... }}`` (``"go"``) expressions, each an unknown part of the script (a hole),
    so the shell reads the rest and leaves the expression's value unknown where it
    lands (a word, part of one, inside quotes or not).  ``env``: the step's ``env:``,
    whose known values ``${{ env.NAME }}`` is (GitHub puts the text in the script
    before the shell reads it)."""
    rx = _EXPR[kind]
    if not rx.search(w.value) or w.holes:
        return w
    parts: list[Word] = []
    last = 0
    for m in rx.finditer(w.value):
        if m.start() > last:
            parts.append(w.slice(last, m.start()))
        sp = w.span_of(m.start(), m.end())
        ref = _ENV_EXPR.fullmatch(m.group(0)) if env else None
        value = env.get(ref.group(1)) if env and ref else None
        if value is not None and value.text is not None and "${{" not in value.text:
            t = value.text
            parts.append(Word(t, sp, m.group(0), (Run(0, len(t), sp, False),) if t else ()))
        else:
            parts.append(Word("", sp, m.group(0), (), (Hole(0, f"{m.group(0)!r}: {_EXPR_WHAT[kind]}", sp),)))
        last = m.end()
    if last < len(w.value):
        parts.append(w.slice(last, len(w.value)))
    return _join(parts, w)


def script_launches(
    loc: _TextLoc,
    node: Any,
    path: str,
    env: list[tuple[str, Word, Span]],
    *,
    image: Optional[Word] = None,
    expressions: Optional[str] = None,
) -> list[Invocation]:
    """The launches of a shell script written as a YAML scalar (a ``run:`` step)."""
    from vcfg.launch import shell

    if not isinstance(node, yaml.ScalarNode) or not node.value.strip():
        return []
    w = _scalar_word(loc, node)
    if expressions:
        w = mask_expressions(w, expressions, {name: v for name, v, _ in env})
    found = shell.classify_argv([], env, _node_span(loc, node), path, script=w)
    return [i._replace(image=image) for i in found] if image is not None else found


def map_env(loc: _TextLoc, node: Any) -> list[tuple[str, Word, Span]]:
    """A mapping of NAME: value (a workflow's ``env:``, SkyPilot ``envs:``)."""
    out: list[tuple[str, Word, Span]] = []
    if isinstance(node, yaml.MappingNode):
        for kn, vn in node.value:
            if isinstance(kn, yaml.ScalarNode) and isinstance(vn, yaml.ScalarNode):
                if vn.tag == "tag:yaml.org,2002:null":
                    sp = _node_span(loc, kn)
                    out.append((kn.value, Word("", sp, "", (), (Hole(0, f"{kn.value} is given at launch", sp),)), sp))
                else:
                    out.append((kn.value, _scalar_word(loc, vn), _node_span(loc, kn)))
    return out


def split_words(w: Word) -> list[Word]:
    """A command string split the way compose (and shlex) split it: blanks separate
    words, quotes group and are removed, a backslash escapes the next character; no
    expansion.  Each character keeps its position."""
    v = w.value
    out: list[Word] = []
    pieces: list[tuple[int, int]] = []
    started = False
    i, n = 0, len(v)
    quote = ""
    while i < n:
        ch = v[i]
        if quote:
            if ch == quote:
                quote = ""
            elif ch == "\\" and quote == '"' and i + 1 < n and v[i + 1] in '"\\$`':
                pieces.append((i + 1, i + 2))
                i += 1
            else:
                pieces.append((i, i + 1))
            i += 1
            continue
        if ch in " \t\n":
            if started:
                out.append(_pieces_word(w, pieces))
            pieces, started = [], False
        elif ch in "'\"":
            quote, started = ch, True
        elif ch == "\\" and i + 1 < n:
            pieces.append((i + 1, i + 2))
            started = True
            i += 1
        else:
            pieces.append((i, i + 1))
            started = True
        i += 1
    if started:
        out.append(_pieces_word(w, pieces))
    return out


def _pieces_word(w: Word, pieces: list[tuple[int, int]]) -> Word:
    merged: list[tuple[int, int]] = []
    for a, b in pieces:
        if merged and merged[-1][1] == a:
            merged[-1] = (merged[-1][0], b)
        else:
            merged.append((a, b))
    if not merged:
        return Word("", w.span, "", (), (), True)
    parts = [w.slice(a, b) for a, b in merged]
    joined = _join(parts, parts[0])
    return joined._replace(span=w.span_of(merged[0][0], merged[-1][1]), raw=w.value[merged[0][0] : merged[-1][1]])
