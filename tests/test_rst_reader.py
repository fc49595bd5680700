"""reStructuredText: launches in code-block/code/sourcecode/prompt directives and in
``::`` literal blocks, at their lines and columns in the .rst file (the body is
indented: the columns are the file's own), read as Markdown's blocks are."""

from __future__ import annotations

import subprocess
import sys

from vcfg.launch.read import read_plan
from vcfg.launch.readers import rst
from vcfg.lint.engine import lint_paths


def _lint(path) -> list[tuple[str, int, int]]:  # type: ignore[no-untyped-def]
    res = lint_paths([str(path)], "0.33.0")
    return [(d.code, d.span.line, d.span.col) for d in res.diagnostics if d.severity in ("error", "warning")]


def _write(tmp_path, text: str, name: str = "doc.rst"):  # type: ignore[no-untyped-def]
    p = tmp_path / name
    p.write_text(text)
    return p


def test_code_block_bash_with_options_positions_indented(tmp_path):
    p = _write(
        tmp_path,
        "Title\n=====\n\n.. code-block:: bash\n   :caption: serve.sh\n   :linenos:\n\n"
        "   vllm serve facebook/opt-125m \\\n      --max-modle-len 4096\n\nAfter.\n",
    )
    plan = read_plan(str(p), p.read_bytes())
    assert plan.source_kind == "rst"
    (inv,) = plan.invocations
    assert (inv.span.line, inv.span.col) == (8, 4)
    assert _lint(p) == [("VC001", 9, 7)]


def test_block_kinds_code_sourcecode_and_console_prompts(tmp_path):
    p = _write(
        tmp_path,
        ".. code:: sh\n\n    vllm serve a --enforce-eagre\n\n"
        ".. sourcecode:: shell\n\n  vllm serve b --max-num-seqz 8\n\n"
        ".. code-block:: console\n\n    $ vllm serve c --port 8001 --tensor-parallel-size x\n    INFO: started\n",
    )
    assert _lint(p) == [("VC001", 3, 18), ("VC001", 7, 16), ("VC004", 11, 55)]


def test_a_body_ends_at_the_first_line_indented_no_more_than_its_directive(tmp_path):
    # the list item's directive is at column 3: `after` (column 3) ends its body,
    # though its first line is indented 6
    text = (
        "- item\n\n  .. code-block:: bash\n\n"
        "      vllm serve m \\\n"
        "        --max-num-seqz 8\n"
        "  after: vllm serve x --not-an-option\n"
    )
    p = _write(tmp_path, text)
    assert rst.blocks(text.encode()) == [("bash", 5, 6, text.index("      vllm"))]
    assert _lint(p) == [("VC001", 6, 9)]


def test_a_literal_block_is_read_like_an_unlabelled_fence(tmp_path):
    text = "Run this::\n\n  vllm serve m2 --gpu-memory-utilization 1.5\n\nand then\n\n::\n\n    vllm serve m3 --max-modle-len 1\n"
    p = _write(tmp_path, text)
    assert [b[:3] for b in rst.blocks(text.encode())] == [("", 3, 3), ("", 9, 9)]
    assert _lint(p) == [("VC006", 3, 42), ("VC001", 9, 19)]


def test_highlight_names_the_literal_blocks_language(tmp_path):
    text = ".. highlight:: python\n\nExample::\n\n    vllm serve m --max-modle-len 1\n"
    p = _write(tmp_path, text)
    assert rst.blocks(text.encode())[0][0] == "python"
    assert read_plan(str(p), p.read_bytes()).invocations == ()


def test_a_prompt_directive_holds_commands_without_prompts(tmp_path):
    p = _write(tmp_path, ".. prompt:: bash $\n\n   vllm serve m --max-modle-len 1\n")
    assert _lint(p) == [("VC001", 3, 17)]


def test_other_languages_and_directives_are_not_read(tmp_path):
    text = (
        ".. code-block:: python\n\n   import os  # vllm serve m --x::\n\n"
        ".. note::\n\n   vllm serve in prose --max-modle-len\n"
    )
    p = _write(tmp_path, text)
    assert read_plan(str(p), p.read_bytes()).invocations == ()
    assert _lint(p) == []


def test_a_yaml_block_goes_to_the_yaml_reader_of_its_format(tmp_path):
    text = (
        "dstack\n======\n\n.. code-block:: yaml\n\n"
        "   type: service\n"
        "   env:\n"
        "     - MODEL=NousResearch/Llama-2-7b-chat-hf\n"
        "   commands:\n"
        "     - vllm serve $MODEL --port 8000 --max-num-seqz 8\n"
    )
    p = _write(tmp_path, text)
    (inv,) = read_plan(str(p), p.read_bytes()).invocations
    assert inv.span.line == 10
    assert _lint(p) == [("VC001", 10, 38)]


def test_a_block_of_options_is_an_argument_list(tmp_path):
    p = _write(tmp_path, "Options:\n\n.. code-block:: bash\n\n   --max-model-len 4096\n   --max-num-seqz 8\n")
    assert _lint(p) == [("VC001", 6, 4)]


def test_each_block_is_an_example_of_its_own(tmp_path):
    # the same port (and GPU) in two blocks is two examples, not a conflict; in one block it is
    p = _write(
        tmp_path,
        ".. code-block:: bash\n\n   vllm serve a --port 8000 &\n\n"
        ".. code-block:: bash\n\n   vllm serve b --port 8000 &\n   vllm serve c --port 8000 &\n",
    )
    assert sorted((c, ln) for c, ln, _ in _lint(p)) == [("VC302", 8), ("VC306", 8)]


def test_syntax_problems_only_in_shell_labelled_blocks_with_a_launch(tmp_path):
    p = _write(tmp_path, "Out::\n\n   | a | b (\n\n.. code-block:: bash\n\n   vllm serve m --port 'x\n")
    assert [(c, ln) for c, ln, _ in _lint(p)] == [("VC000", 7)]


def test_detect_says_why(tmp_path):
    p = _write(tmp_path, "Just prose.\n")
    ev = rst.detect(str(p), p.read_text(), None)  # type: ignore[arg-type]
    assert ev is not None and not ev.claims


def test_a_bash_lint_does_not_import_the_rst_reader(tmp_path):
    sh = tmp_path / "a.sh"
    sh.write_text("vllm serve m\n")
    code = (
        "import sys\nfrom vcfg.lint.engine import lint_paths\n"
        f"lint_paths([{str(sh)!r}], '0.33.0')\n"
        "print(sorted(m for m in sys.modules if m.startswith('vcfg.launch.readers.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "rst" not in out and "_blocks" not in out, out
