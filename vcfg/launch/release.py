"""The vLLM release a launch runs, when its file says: the tag of a vLLM image, else a
``vllm==X.Y.Z`` pin in the file (``pip install vllm==0.9.2`` in a Dockerfile ``RUN`` or
a script, a requirements list the file writes).

``vllm/vllm-openai:v0.13.0`` (the same in compose, Kubernetes or ``docker run``)
runs vLLM 0.13.0; a patch build's tag (``v0.7.3.self.post1``) names its base
release.  A tag vcfg cannot map (``latest``, ``nightly``, a digest) says so, and the
launch is checked against the default release.  ``--vllm-version`` or the project
config, when given, win over the image (the lint engine decides).
"""

from __future__ import annotations

import re
from typing import Any, Optional

from vcfg.records import tuple_record
from vcfg.regex import lazy

#: images whose tag is a vLLM release: vllm/vllm-openai and its variants (-rocm,
#: -cpu), rebuilds of it under other owners (aibrix/vllm-openai), and the CPU images vLLM's
#: release pipeline publishes on ECR for each release (public.ecr.aws/q9t5s3a7/
#: vllm-cpu-release-repo:v0.10.1, the arm64 one vllm-arm64-cpu-release-repo)
_VLLM_REPO = re.compile(r"(^|/)(vllm-openai(-[a-z0-9]+)?|vllm(-arm64)?-cpu-release-repo)$", re.I)
_TAG_VERSION = re.compile(r"^v?(\d+\.\d+\.\d+)(?:$|[.+-])")


@tuple_record
class Release:
    #: "0.13.0", or None when the file does not say
    version: Optional[str]
    #: where it came from, or why the image names none
    note: str = ""
    image: Optional[str] = None
    #: the ``vllm==X`` pin it came from, when no image named it
    pin: Optional[str] = None
    #: the Dynamo release a Dynamo runtime image's tag names (one of the table's)
    dynamo: Optional[str] = None

    def source(self) -> str:
        """Where the release came from, for messages: the image, or the pin."""
        return f"the pin {self.pin}" if self.pin else f"the image {self.image}"


def image_release(image: Optional[str]) -> Release:
    """The release a vLLM image's tag names (None for any other image)."""
    if not image:
        return Release(None)
    ref = image.strip()
    name, _, digest = ref.partition("@")
    repo, tag = name, ""
    if ":" in name.rsplit("/", 1)[-1]:
        repo, _, tag = name.rpartition(":")
    if _DYNAMO_REPO.search(repo) and tag and "$" not in ref and "{{" not in ref:
        return _dynamo_release(ref, tag)
    if not _VLLM_REPO.search(repo):
        return Release(None, image=ref)
    if "$" in ref or "{{" in ref:
        return Release(None, f"the image {ref} is not known until it is expanded", ref)
    if not tag:
        what = "a digest" if digest else "no tag (latest)"
        return Release(None, f"the image {ref} has {what}, which names no release", ref)
    m = _TAG_VERSION.match(tag)
    if m is None:
        return Release(None, f"the image tag {tag!r} names no vLLM release", ref)
    return Release(m.group(1), f"from the image {ref}", ref)


#: NVIDIA's Dynamo runtime images with vLLM (nvcr.io/nvidia/ai-dynamo/vllm-runtime): the
#: tag is a Dynamo release, which ships the vLLM release its wheel's ``vllm`` extra pins
_DYNAMO_REPO = lazy(r"(^|/)ai-dynamo/vllm-runtime$", re.I)


def _dynamo_release(ref: str, tag: str) -> Release:
    from vcfg.launch.args.entry import dynamo_vllm

    dyn = tag[1:] if tag[:1] in "vV" else tag
    v = dynamo_vllm(dyn)
    if v is None:
        return Release(None, f"the image {ref} runs Dynamo {dyn}, whose vLLM release vcfg does not know", ref)
    return Release(v, f"from the image {ref} (Dynamo {dyn} ships vLLM {v})", ref, dynamo=dyn)


def dynamo_release(inv: Any) -> Optional[str]:
    """The Dynamo release a ``python -m dynamo.vllm`` worker's image runs, when its tag
    names one of the table's (`vcfg.launch.args.entry`); else None (every release's
    options are then accepted)."""
    image = getattr(inv, "image", None)
    if image is None or image.text is None:
        return None
    return image_release(image.text).dynamo


def release_of(inv: Any) -> Release:
    """The release a launch's image names, else its file's ``vllm==X`` pin
    (`Release(None)` when neither says)."""
    image = getattr(inv, "image", None)
    rel = Release(None)
    if image is not None:
        if image.text is None:
            rel = Release(None, "the image is not known: " + image.describe_unknown(), None)
        else:
            rel = image_release(image.text)
    pin = getattr(inv, "pin", None)
    if rel.version is None and pin is not None:
        m = _PIN.search(pin.value)
        if m is not None:
            return Release(m.group(1), f"from the pin {pin.value} (line {pin.span.line})", None, pin.value)
    return rel


#: ``vllm==0.9.2``, ``vllm[audio]==0.10.1``, ``"vllm == 0.8.5.post1"``; not
#: ``vllm-omni==``, not a lower bound
_PIN = re.compile(r"(?<![\w.-])vllm(?:\[[\w,\s-]*\])?\s*==\s*v?(\d+\.\d+\.\d+)(?![\d*])", re.I)
_PIN_BYTES = re.compile(_PIN.pattern.encode(), re.I)


#: ``vllm==${VLLM_VERSION}`` (``$VLLM_VERSION``), and the file's ``VLLM_VERSION=0.9.2``
_VAR_PIN_BYTES = re.compile(rb"(?<![\w.-])vllm(?:\[[\w,\s-]*\])?\s*==\s*\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?", re.I)
_SET_BYTES = rb"""(?:^|[\s;&|(])(?:export[ \t]+|ARG[ \t]+|ENV[ \t]+)?%s=["']?v?(\d+\.\d+\.\d+)["']?(?=[\s;&|)]|$)"""


def file_pin(data: bytes, path: str) -> Optional[Any]:
    """The one ``vllm==X.Y.Z`` release a file pins (a `Word` with its position), or
    None: no pin, or pins of different releases.  A pin through a variable the file
    sets once (``VLLM_VERSION=0.9.2`` ... ``pip install vllm==${VLLM_VERSION}``) is that
    release, written as ``vllm==0.9.2`` at the assignment's value."""
    if b"==" not in data:
        return None
    from vcfg.launch.model import LineIndex, Run, Word

    found = [(m.group(1), m.start(), m.end(), m.group(0), True) for m in _PIN_BYTES.finditer(data)]
    for m in _VAR_PIN_BYTES.finditer(data):
        sets = list(re.finditer(_SET_BYTES % re.escape(m.group(1)), data, re.M))
        if len({a.group(1) for a in sets}) == 1:
            a = sets[0]
            found.append((a.group(1), a.start(1), a.end(1), b"vllm==" + a.group(1), False))
    if not found or len({v for v, *_ in found}) != 1:
        return None
    _v, start, end, raw, exact = min(found, key=lambda f: f[1])
    sp = LineIndex(data, path).span(start, end)
    text = raw.decode("utf-8", "surrogateescape")
    return Word(text, sp, text, (Run(0, len(text), sp, exact),))


#: vllm/vllm-openai ran the API server module (``python3 -m
#: vllm.entrypoints.openai.api_server``, which takes --model) as its entrypoint up to at
#: least 0.8.5 (the Dockerfile's ENTRYPOINT as a maintainer quoted it on 2025-05-04,
#: vllm-project/vllm#17172; `vllm serve` only came with 0.5, vllm-project/vllm#6431);
#: later tags are taken to run `vllm serve`.
_API_SERVER_UNTIL = (0, 8, 5)


def runs_api_server(image: Optional[str]) -> bool:
    """Whether a vLLM image run with only arguments runs the API server module rather
    than ``vllm serve``: builds other than vllm/vllm-openai (opea/vllm, a vllm-cpu
    build), and vllm/vllm-openai tags up to 0.8.5."""
    if not image:
        return False
    if "vllm-openai" not in image:
        return True
    v = image_release(image).version
    if v is None:
        return False
    return tuple(int(x) for x in v.split(".")) <= _API_SERVER_UNTIL
