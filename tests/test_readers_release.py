"""The release from the image: a launch's vLLM image tag chooses the catalog it is
checked against, unless the user pinned a release."""

import json

from vcfg.lint.config import LintConfig
from vcfg.lint.engine import lint_paths

POD = """\
apiVersion: v1
kind: Pod
spec:
  containers:
    - name: vllm
      image: vllm/vllm-openai:{tag}
      args: ["m", "--swap-space", "4"]
"""


def _codes(res):
    return [(d.code, d.span.line, d.span.col) for d in res.diagnostics if d.severity != "info"]


def test_the_image_tag_chooses_the_release(tmp_path):
    f = tmp_path / "pod.yaml"
    f.write_text(POD.format(tag="v0.13.0"))
    # --swap-space exists in 0.13.0 and was removed later
    res = lint_paths([str(f)], None, config=LintConfig())
    assert _codes(res) == [] and res.summary.vllm_version == "0.13.0"
    assert res.summary.version_note == "from the image vllm/vllm-openai:v0.13.0"
    # --vllm-version or the project config win over the image
    res = lint_paths([str(f)], "0.33.0", config=LintConfig())
    assert [c for c, _, _ in _codes(res)] == ["VC002"] and res.summary.vllm_version == "0.33.0"
    res = lint_paths([str(f)], None, config=LintConfig(vllm_version="0.33.0"))
    assert [c for c, _, _ in _codes(res)] == ["VC002"]


def test_an_unmappable_tag_says_so_and_uses_the_default(tmp_path):
    from vcfg.catalog import store

    f = tmp_path / "pod.yaml"
    f.write_text(POD.format(tag="nightly"))
    res = lint_paths([str(f)], None, config=LintConfig())
    assert res.summary.vllm_version == store.newest_bundled()
    assert "the image tag 'nightly' names no vLLM release" in res.summary.version_note


def test_the_summary_names_the_release_per_launch_where_they_differ(tmp_path):
    a = tmp_path / "a.yaml"
    a.write_text(POD.format(tag="v0.13.0"))
    b = tmp_path / "run.sh"
    b.write_text("vllm serve m --swap-space 4\n")
    res = lint_paths([str(a), str(b)], None, config=LintConfig())
    rel = {(r["path"], r["vllm_version"]) for r in res.summary.releases}
    newest = res.summary.vllm_version
    assert rel == {(str(a), "0.13.0"), (str(b), newest)}
    assert f"{a}:7 on 0.13.0" in res.summary.version_note
    # the launch on 0.13.0 is clean, the script on the newest release is not
    assert [(d.code, d.span.file) for d in res.diagnostics if d.severity != "info"] == [("VC002", str(b))]
    assert json.loads(json.dumps(res.summary.to_json()))["releases"] == res.summary.releases


def test_an_image_older_than_every_bundled_catalog(tmp_path):
    from vcfg.catalog import store

    f = tmp_path / "pod.yaml"
    f.write_text(POD.format(tag="v0.6.6"))
    res = lint_paths([str(f)], None, config=LintConfig())
    # the oldest bundled catalog is the nearest to 0.6.6, not the newest
    assert not res.internal_errors and res.summary.vllm_version == store.bundled_versions()[0]
    assert (
        f"names vllm 0.6.6, older than every bundled catalog: checked against the oldest, {store.bundled_versions()[0]}"
        in res.summary.version_note
    )


def test_docker_run_of_a_vllm_image_in_a_script_chooses_the_release(tmp_path):
    f = tmp_path / "run.sh"
    f.write_text("docker run --gpus all -p 8000:8000 vllm/vllm-openai:v0.13.0 m --swap-space 4\n")
    res = lint_paths([str(f)], None, config=LintConfig())
    assert _codes(res) == [] and res.summary.vllm_version == "0.13.0"
    assert res.summary.version_note == "from the image vllm/vllm-openai:v0.13.0"


DOCKERFILE = """\
FROM nvidia/cuda:12.4.1-devel-ubuntu22.04
RUN pip install --no-cache-dir vllm==0.13.0 huggingface_hub
ENTRYPOINT ["vllm", "serve", "m", "--swap-space", "4"]
"""


def test_a_pip_pin_chooses_the_release_when_no_image_tag_does(tmp_path):
    """`pip install vllm==0.13.0` in a Dockerfile or a script: the launches are checked
    against 0.13.0 (where --swap-space still exists); --vllm-version, the project config
    and a vLLM image's tag win."""
    d = tmp_path / "Dockerfile"
    d.write_text(DOCKERFILE)
    res = lint_paths([str(d)], None, config=LintConfig())
    assert _codes(res) == [] and res.summary.vllm_version == "0.13.0"
    assert res.summary.version_note == "from the pin vllm==0.13.0 (line 2)"
    assert [c for c, _, _ in _codes(lint_paths([str(d)], "0.33.0", config=LintConfig()))] == ["VC002"]
    assert [c for c, _, _ in _codes(lint_paths([str(d)], None, config=LintConfig(vllm_version="0.33.0")))] == ["VC002"]
    s = tmp_path / "serve.sh"
    s.write_text('pip install "vllm[audio]==0.13.0"\nvllm serve m --swap-space 4\n')
    res = lint_paths([str(s)], None, config=LintConfig())
    assert _codes(res) == [] and res.summary.vllm_version == "0.13.0"
    # the image's tag says otherwise: it wins
    s.write_text("pip install vllm==0.13.0\ndocker run vllm/vllm-openai:v0.33.0 m --swap-space 4\n")
    res = lint_paths([str(s)], None, config=LintConfig())
    assert _codes(res) == [("VC002", 2, 39)] and res.summary.vllm_version == "0.33.0"


def test_a_pin_through_a_variable_the_file_sets_once(tmp_path):
    """`VLLM_VERSION=0.13.0` then `pip install vllm==${VLLM_VERSION}` (bytedance/UI-TARS'
    README): the release is 0.13.0; a variable set to two releases, or not set by the
    file, pins nothing."""
    from vcfg.catalog import store

    s = tmp_path / "serve.sh"
    s.write_text("VLLM_VERSION=0.13.0\npip install vllm==${VLLM_VERSION}\nvllm serve m --swap-space 4\n")
    res = lint_paths([str(s)], None, config=LintConfig())
    assert _codes(res) == [] and res.summary.version_note == "from the pin vllm==0.13.0 (line 1)"
    for text in (
        'VLLM_VERSION="0.13.0"\n[ "$NEW" ] && VLLM_VERSION=0.14.0\npip install "vllm==$VLLM_VERSION"\n',
        "pip install vllm==${VLLM_VERSION}\n",
    ):
        s.write_text(text + "vllm serve m --swap-space 4\n")
        assert lint_paths([str(s)], None, config=LintConfig()).summary.vllm_version == store.newest_bundled(), text


def test_what_is_not_a_pin_of_one_release(tmp_path):
    from vcfg.catalog import store

    s = tmp_path / "serve.sh"
    for install in (
        "pip install 'vllm>=0.13.0'",
        "pip install vllm-omni==0.13.0",
        "pip install vllm==0.13.0 || pip install vllm==0.14.0",
        "VLLM_VERSION==0.13.0",
    ):
        s.write_text(f"{install}\nvllm serve m --swap-space 4\n")
        res = lint_paths([str(s)], None, config=LintConfig())
        assert res.summary.vllm_version == store.newest_bundled(), install
