"""Arrays whose head is known and whose tail is not: a loop vcfg reads once (over
command output, the environment) appends to an array the script started with known
elements (vLLM's own sagemaker-entrypoint.sh: ``ARGS=(--port 8080)``, then one
``ARGS+=(...)`` per ``SM_VLLM_*`` variable).  The known head is read and linted; the
tail is unknown words, so the rules that need the whole argv stay silent."""

from __future__ import annotations

from pathlib import Path

from vcfg.launch.model import SERVE
from vcfg.launch.shell import parse_script
from vcfg.lint.engine import lint_paths

SAGEMAKER = Path(__file__).resolve().parent / "corpus" / "real" / "bash" / "vllm" / "sagemaker-entrypoint.sh"

LOOP = """\
#!/bin/bash
ARGS=(--port 8080 --max-num-seqs abc --prot 1)
while IFS='=' read -r key value; do
    ARGS+=("--${key}")
    if [ -n "$value" ]; then
        ARGS+=("$value")
    fi
done < <(env | grep "^SM_")
exec vllm serve "${ARGS[@]}"
"""


def serves(src: str):
    return [i for i in parse_script(src, "run.sh").invocations if i.kind == SERVE]


def shape(inv):
    """Each argv word: its text, or "*" for unknown words (as many as they may be)."""
    return [w.text if w.known else ("*" if w.may_split else "?") for w in inv.args]


def lint(tmp_path, text, version="0.33.0"):
    p = tmp_path / "run.sh"
    p.write_text(text)
    res = lint_paths([str(p)], version)
    assert not res.internal_errors, res.internal_errors
    return [(d.code, d.span.line, d.span.col) for d in res.diagnostics]


def test_the_sagemaker_entrypoint_keeps_its_known_head():
    src = SAGEMAKER.read_text()
    (inv,) = serves(src)
    assert inv.span.line == 24
    assert shape(inv) == ["--port", "8080", "*"]
    # the head's words keep their place in the file (line 9: ARGS=(--port 8080))
    assert (inv.args[0].char_span(0).line, inv.args[0].char_span(0).col) == (9, 7)
    assert (inv.args[1].char_span(0).line, inv.args[1].char_span(0).col) == (9, 14)


def test_the_sagemaker_entrypoint_lints_clean(tmp_path):
    assert lint(tmp_path, SAGEMAKER.read_text()) == []


def test_a_known_head_is_linted_and_the_unknown_tail_is_not(tmp_path):
    (inv,) = serves(LOOP)
    assert shape(inv) == ["--port", "8080", "--max-num-seqs", "abc", "--prot", "1", "*"]
    # the head's mistakes at their places on line 2; nothing about the tail (no VC001 on
    # what the loop appends), no required-option finding (the tail may hold it)
    assert lint(tmp_path, LOOP) == [("VC004", 2, 34), ("VC001", 2, 38)]


def test_an_array_of_a_whole_launch_appended_with_command_output():
    src = 'cmd=(vllm serve Qwen/Qwen3-8B --port 8000)\nfor f in $(ls /etc/x); do\n  cmd+=($(cat "$f"))\ndone\n"${cmd[@]}"\n'
    (inv,) = serves(src)
    assert shape(inv) == ["Qwen/Qwen3-8B", "--port", "8000", "*"]
    assert inv.span.line == 5


def test_a_loop_that_reassigns_the_array_leaves_it_unknown():
    # the loop may run (the array is then (--port 9)) or not ((--port 8080)): no head is
    # common to both
    src = 'ARGS=(--port 8080)\nwhile read -r x; do\n  ARGS=(--port 9)\ndone < <(env)\nvllm serve m "${ARGS[@]}"\n'
    (inv,) = serves(src)
    assert shape(inv) == ["m", "*"]


def test_a_loop_that_sets_an_element_leaves_the_head_unknown_inside_it():
    # `ARGS[0]=...` in the body: the head seen by a launch in the body is not kept
    src = 'ARGS=(--port 8080)\nwhile read -r x; do\n  ARGS[0]=--host\n  vllm serve m "${ARGS[@]}"\ndone < <(env)\n'
    (inv,) = serves(src)
    assert shape(inv) == ["m", "*"]


def test_branches_that_append_differently_give_a_launch_per_path():
    src = (
        'ARGS=(--port 8080)\nif [ "$1" = a ]; then ARGS+=(--max-model-len 4096); else ARGS+=(-tp 2 -pp 2); fi\n'
        'vllm serve m "${ARGS[@]}"\n'
    )
    assert [shape(inv) for inv in serves(src)] == [
        ["m", "--port", "8080", "--max-model-len", "4096"],
        ["m", "--port", "8080", "-tp", "2", "-pp", "2"],
    ]


def test_a_case_that_appends_in_its_branches_gives_a_launch_per_branch_with_the_variables_of_that_branch():
    """`EP_ARGS+=(...)` in each branch of a `case "$ROLE"` (uccl-project/uccl's
    launch_vllm_pd_intel_nic.sh): each launch has its branch's options, and a variable the
    same branch set, not another branch's; a path with no branch taken has neither."""
    src = (
        'ROLE=$1\nEP_ARGS=(-tp 2)\ncase "$ROLE" in\n'
        '  prefill) PORT=8100; EP_ARGS+=(--kv-transfer-config \'{"kv_role":"kv_producer"}\') ;;\n'
        "  decode) PORT=8200; EP_ARGS+=(--headless) ;;\n"
        'esac\nvllm serve m "${EP_ARGS[@]}" --port "$PORT"\n'
    )
    assert [shape(inv) for inv in serves(src)] == [
        ["m", "-tp", "2", "--kv-transfer-config", '{"kv_role":"kv_producer"}', "--port", "8100"],
        ["m", "-tp", "2", "--headless", "--port", "8200"],
        ["m", "-tp", "2", "--port", "?"],  # PORT: the caller's, if any
    ]


def test_an_array_set_again_after_the_branches_is_one_launch():
    src = (
        'if [ "$1" = a ]; then ARGS=(--port 1); else ARGS=(--port 2); fi\nARGS=(--port 3)\nvllm serve m "${ARGS[@]}"\n'
    )
    assert [shape(inv) for inv in serves(src)] == [["m", "--port", "3"]]


def test_length_and_indexes_past_the_head_are_unknown_within_it_known():
    src = (
        "ARGS=(--port 8080)\nwhile read -r k; do ARGS+=(--$k); done < <(env)\n"
        'vllm serve m --served-model-name "${#ARGS[@]}" --host "${ARGS[1]}" --api-key "${ARGS[2]}"\n'
    )
    (inv,) = serves(src)
    assert shape(inv) == ["m", "--served-model-name", "?", "--host", "8080", "--api-key", "?"]


def test_star_in_quotes_joins_the_unknown_tail_into_one_word():
    src = 'ARGS=(a b)\nwhile read -r k; do ARGS+=("$k"); done < <(env)\nvllm serve m --served-model-name "${ARGS[*]}"\n'
    (inv,) = serves(src)
    assert shape(inv) == ["m", "--served-model-name", "?"]
    assert inv.args[2].value.startswith("a b")


def test_array_slices_with_known_offsets_and_lengths():
    """`${A[@]:0:$N}`, `${A[@]:$OFF}` (ChristopherCho/MultiNode-vLLM-serve's port pool):
    the elements bash gives; an offset vcfg cannot compute leaves the slice unknown."""
    src = 'A=(a b c d)\nN=2\nvllm serve m --x "${A[@]:0:$N}" --y "${A[@]:$N}" --z "${A[@]: -1}" "${A[@]:$Q}"\n'
    (inv,) = serves(src)
    assert shape(inv)[1:] == ["--x", "a", "b", "--y", "c", "d", "--z", "d", "?"]
