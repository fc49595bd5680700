"""Issue 14: scripts where vcfg's reading of the shell gave a different answer from
bash's.  Each test is one example from the issue, asserting what bash runs (argv,
environment, which launches run on which path) and what the linter then says."""

from __future__ import annotations

import pytest

from vcfg.launch.model import PROXY, SERVE
from vcfg.launch.shell import parse_script
from vcfg.lint.engine import lint_paths


def serves(src: str, **kw):
    return [i for i in parse_script(src, "run.sh", **kw).invocations if i.kind == SERVE]


def texts(inv):
    return [w.text for w in inv.args]


def lint(tmp_path, text, version="0.33.0", name="run.sh"):
    p = tmp_path / name
    p.write_text(text)
    res = lint_paths([str(p)], version)
    assert not res.internal_errors, res.internal_errors
    return [(d.code, d.severity, d.span.line, d.span.col, d.message) for d in res.diagnostics]


def codes(found):
    return [c for c, *_ in found]


# --------------------------------------------------------------------------- quoting


@pytest.mark.parametrize(
    ("word", "bash"),
    [
        ('"$a $b"', "8010 8998"),
        ('"${a} ${b}"', "8010 8998"),
        ('"$a\t$b"', "8010\t8998"),
        ('"$a\n$b"', "8010\n8998"),
        ('"$a  $(echo x)"', "8010  x"),
        ('"$a $((b + 1))"', "8010 8999"),
        ('"x $a y"', "x 8010 y"),
    ],
)
def test_blanks_between_expansions_in_double_quotes_are_kept(word, bash):
    (inv,) = serves(f"a=8010; b=8998; vllm serve m --served-model-name {word}\n")
    assert texts(inv) == ["m", "--served-model-name", bash]


def test_the_blank_before_an_expansion_keeps_the_expansions_position():
    src = 'a=8010; b=8998; vllm serve m --x "$a $b"\n'
    (inv,) = serves(src)
    w = inv.args[2]
    # the blank maps to the blank inside the quotes, "8998" to where b is set
    assert w.char_span(4).col == src.index(" $b") + 1
    assert w.char_span(5).col == src.index("8998") + 1


def test_a_bare_comparison_operator_ending_a_command_is_a_word():
    # bash (a stub printing its argv): <serve><==> / <serve><m><--x><==> / <serve><a><==>,
    # <serve><b><c> / <serve><m><=~> / <serve><n><--y><==><--z><1>; tree-sitter-bash read
    # each as the start of a test (an ERROR node, or the next line's words as arguments)
    src = (
        "vllm serve ==\n"
        "vllm serve m --x ==\n"
        "vllm serve a ==\nvllm serve b c\n"
        "vllm serve m =~ ; vllm serve n --y == \\\n  --z 1\n"
        'echo "x ==\n" ; [[ $a == b ]] && vllm serve t\n'
    )
    plan = parse_script(src, "run.sh")
    assert plan.problems == ()
    found = [[(w.text, w.span.line, w.span.col) for w in inv.args] for inv in plan.invocations]
    assert found == [
        [("==", 1, 12)],
        [("m", 2, 12), ("--x", 2, 14), ("==", 2, 18)],
        [("a", 3, 12), ("==", 3, 14)],
        [("b", 4, 12), ("c", 4, 14)],
        [("m", 5, 12), ("=~", 5, 14)],
        [("n", 5, 30), ("--y", 5, 32), ("==", 5, 36), ("--z", 6, 3), ("1", 6, 7)],
        [("t", 8, 33)],
    ]
    # an operator bash reads as one is left alone: (( )) across lines, [[ ]]
    (inv,) = serves("if (( 1 ==\n 1 )); then vllm serve y; fi\n")
    assert texts(inv) == ["y"]


# --------------------------------------------------------------------------- eval and paths

EVAL_OPTIONAL = """\
MODEL=Qwen/Qwen3-0.6B
CMD="vllm serve $MODEL --port 8100 --tensor-parallel-size 2"
if [ -n "$EXTRA" ]; then
  CMD="$CMD --enforce-eager"
fi
eval "$CMD"
"""


def test_eval_of_a_string_with_an_optional_part_holds_each_path():
    invs = serves(EVAL_OPTIONAL)
    assert sorted(texts(i) for i in invs) == [
        ["Qwen/Qwen3-0.6B", "--port", "8100", "--tensor-parallel-size", "2"],
        ["Qwen/Qwen3-0.6B", "--port", "8100", "--tensor-parallel-size", "2", "--enforce-eager"],
    ]
    assert all(i.conditional and i.path for i in invs)
    assert len({i.path for i in invs}) == 2
    # the launch's words map back to where they are written
    assert all(i.args[0].span.line == 1 for i in invs)


def test_eval_with_a_known_caller_takes_the_one_path_bash_takes():
    invs = serves(EVAL_OPTIONAL, environ={"EXTRA": "1"})
    assert [texts(i)[-1] for i in invs] == ["--enforce-eager"]
    invs = serves(EVAL_OPTIONAL, environ={})
    assert [texts(i)[-1] for i in invs] == ["2"]


def test_a_launch_on_two_paths_does_not_clash_with_itself(tmp_path):
    src = EVAL_OPTIONAL.replace('eval "$CMD"', 'eval "$CMD" &\nwait')
    assert lint(tmp_path, src) == []


def test_a_finding_on_every_path_is_an_error_on_some_paths_a_warning(tmp_path):
    src = """\
CMD="vllm serve m --max-num-seqz 8"
if [ -n "$FAST" ]; then
  CMD="$CMD --gpu-memory-utilization 1.5"
fi
eval "$CMD"
"""
    found = lint(tmp_path, src)
    by_code = {c: (sev, line) for c, sev, line, _, _ in found}
    assert by_code["VC001"] == ("error", 1)  # both paths
    sev, line = by_code["VC006"]
    assert (sev, line) == ("warning", 3)  # only where $FAST is set
    res = lint_paths([str(tmp_path / "run.sh")], "0.33.0")
    vc006 = next(d for d in res.diagnostics if d.code == "VC006")
    assert any("line 2" in n for n in vc006.notes), vc006.notes


def test_direct_launch_with_an_optional_argument_holds_each_path():
    src = """\
EXTRA=""
if [ "$1" = eager ]; then EXTRA="--enforce-eager"; fi
vllm serve m $EXTRA
"""
    invs = serves(src)
    assert sorted(texts(i) for i in invs) == [["m"], ["m", "--enforce-eager"]]
    assert [texts(i) for i in serves(src, args=["eager"])] == [["m", "--enforce-eager"]]


def test_two_undecided_ifs_appending_to_a_variable_the_caller_may_set_hold_four_paths():
    # bash, run as its comment says (a stub printing its argv): <serve><Qwen/Qwen3-8B><--port><8000>
    # then <--no-enable-prefix-caching> with CONTIGUOUS_PA=True, <--async-scheduling> with
    # ASYNC_SCHEDULING=1, both with both; appended to the caller's EXTRA_ARGS (none there)
    from pathlib import Path

    corpus = Path(__file__).parent / "corpus"
    src = (corpus / "shell" / "undecided-appends.sh").read_text()
    base = ["Qwen/Qwen3-8B", "--port", "8000", None]  # None: the caller's $EXTRA_ARGS
    found = {inv.path: texts(inv) for inv in serves(src)}
    assert found == {
        "the test at line 6 is true and the test at line 9 is true": base
        + ["--no-enable-prefix-caching", "--async-scheduling"],
        "the `if` at line 6 takes no branch and the test at line 9 is true": base + ["--async-scheduling"],
        "the test at line 6 is true and the `if` at line 9 takes no branch": base + ["--no-enable-prefix-caching"],
        "the `if` at line 6 takes no branch and the `if` at line 9 takes no branch": base,
    }
    # the caller's environment known (as the bash oracle runs it): one launch, decided
    (inv,) = serves(src, environ={"CONTIGUOUS_PA": "True"})
    assert texts(inv) == base[:3] + ["--no-enable-prefix-caching"]
    # vllm-gaudi's template_vllm_server.sh: both appends, each on its own paths
    real = corpus / "real" / "bash" / "vllm-gaudi" / "template_vllm_server.sh"
    got = sorted(
        tuple(t for t in texts(inv) if t in ("--no-enable-prefix-caching", "--async_scheduling"))
        for inv in serves(real.read_text())
    )
    assert got == [
        (),
        ("--async_scheduling",),
        ("--no-enable-prefix-caching",),
        ("--no-enable-prefix-caching", "--async_scheduling"),
    ]


# --------------------------------------------------------------------------- strings with unknown parts

EVAL_UNKNOWN = """\
CMD="vllm serve m --port 8000 $EXTRA --kv-transfer-config '{\\"kv_port\\": $KVP}'"
if [ -n "$TP" ]; then
  CMD="$CMD --tensor-parallel-size 2"
fi
if [ -n "$EAGER" ]; then
  CMD="$CMD --enforce-eager"
fi
eval "$CMD"
"""


def test_eval_of_a_string_with_unknown_parts_reads_the_rest_on_each_path():
    """bash runs the launch with whatever $EXTRA and $KVP hold: vcfg reads it with those
    parts unknown (the unquoted one may split, the one inside single quotes is part of
    its word), on each path of both ifs."""
    invs = serves(EVAL_UNKNOWN)
    assert len(invs) == 4 and len({i.path for i in invs}) == 4
    longest = max(invs, key=lambda i: len(i.args))
    assert texts(longest) == [
        "m",
        "--port",
        "8000",
        None,
        "--kv-transfer-config",
        None,
        "--tensor-parallel-size",
        "2",
        "--enforce-eager",
    ]
    extra, kv = longest.args[3], longest.args[5]
    assert extra.may_split and extra.describe_unknown() == "$EXTRA is not set by this script"
    assert kv.value == '{"kv_port": }' and not kv.may_split
    assert kv.describe_unknown() == "$KVP is not set by this script"
    # the known characters keep their place in the file: `{` is in line 1
    src_line = EVAL_UNKNOWN.splitlines()[0]
    assert kv.char_span(0).line == 1 and kv.char_span(0).col == src_line.index("{") + 1
    assert longest.path == "the test at line 2 is true and the test at line 5 is true"
    # what vcfg could not compute is listed once, not once per path
    assert [u.kind for u in parse_script(EVAL_UNKNOWN, "run.sh").unknowns] == ["eval"]


def test_a_heredoc_config_inside_an_eval_string_keeps_its_lines(tmp_path):
    """A key on the third line of the script is reported there (the string's runs were
    merged across its newlines, and the key was placed at the end of line 2); with an
    unknown value in a quoted heredoc, the value is unknown and the other key is checked."""
    src = "eval \"cat > cfg.yaml <<'EOF'\nmax-model-len: $L\nmax-num-seqz: 4\nEOF\nvllm serve m --config cfg.yaml\"\n"
    for text in (src, src.replace("$L", "4096")):
        found = lint(tmp_path, text)
        assert [(c, line, col) for c, _, line, col, _ in found] == [("VC001", 3, 1)], found
    (wf,) = parse_script(src, "run.sh").written_files
    assert wf.content.value == "max-model-len: \nmax-num-seqz: 4\n"
    assert wf.content.describe_unknown() == "$L is not set by this script"


def test_bash_c_of_a_string_with_unknown_parts_is_read():
    (inv,) = serves('bash -c "vllm serve m2 --max-model-len $LEN --port 8001"\n')
    assert texts(inv) == ["m2", "--max-model-len", None, "--port", "8001"]


def test_a_string_that_is_all_unknown_stays_unknown():
    plan = parse_script('eval "$WHOLE"\nbash -c "$CMD"\n', "run.sh")
    assert plan.invocations == ()
    assert [(u.kind, u.span.line) for u in plan.unknowns] == [("eval", 1), ("eval", 2)]


def test_a_string_whose_unknown_part_may_be_what_makes_it_parse_stays_unknown():
    plan = parse_script('eval "vllm serve m --port 8000 $OPEN"\neval "if $C; then vllm serve m"\n', "run.sh")
    assert [texts(i) for i in plan.invocations] == [["m", "--port", "8000", None]]
    assert [u.span.line for u in plan.unknowns if u.kind == "eval"] == [1, 2]


def test_docker_run_with_unknown_options_and_a_shell_string_in_the_container(tmp_path):
    """opea launch_vllm_service_openvino.sh: `$docker_args` hides options, the image is
    known; the /bin/bash -c string runs in the container, where its export reaches vLLM."""
    src = (
        'image="vllm:openvino"\n'
        "docker run -d --rm -p $port:80 $docker_args -e HTTP_PROXY=$https_proxy \\\n"
        '  $image /bin/bash -c "cd / && export VLLM_CPU_KVCACHE_SPACE=50 && \\\n'
        '  python3 -m vllm.entrypoints.openai.api_server --model \\"$model\\" $vllm_args --port 80"\n'
    )
    (inv,) = serves(src)
    assert texts(inv) == ["--model", None, None, "--port", "80"]
    assert inv.wrappers[0] == "docker run" and not inv.inherits_env
    assert inv.env["VLLM_CPU_KVCACHE_SPACE"].value.text == "50" and inv.env["VLLM_CPU_KVCACHE_SPACE"].exported
    assert inv.env["HTTP_PROXY"].value.text is None
    # an unknown word where the image would be: no guess
    assert serves("docker run -d $IMAGE --model m --port 8000\n") == []
    # two such containers each have their own network: no port clash
    two = src.replace("docker run -d", "docker run") + src.replace("docker run -d", "docker run")
    assert "VC302" not in codes(lint(tmp_path, two.replace('--port 80"\n', '--port 80" &\n')))


# --------------------------------------------------------------------------- exit on some paths

EXIT_IN_BRANCH = """\
if [[ $1 == "decode" ]]; then
  CUDA_VISIBLE_DEVICES=1 vllm serve m --port 8200 &
  exit 0
fi
CUDA_VISIBLE_DEVICES=1 vllm serve m --port 8200 &
wait
"""


def test_exit_in_an_undecided_branch_ends_that_path(tmp_path):
    """bash runs the first launch or the second, never both: no clash."""
    assert len(serves(EXIT_IN_BRANCH)) == 2
    assert lint(tmp_path, EXIT_IN_BRANCH) == []
    # without the exit, both run on the decode path
    found = lint(tmp_path, EXIT_IN_BRANCH.replace("  exit 0\n", ""))
    assert [(c, line, col) for c, _, line, col, _ in found] == [("VC306", 4, 22), ("VC302", 4, 44)]


def test_what_an_exiting_branch_sets_is_not_seen_after_it():
    src = (
        'PORT=8100\nif [ -z "$MODEL" ]; then\n  echo "MODEL is required"; PORT=1\n  exit 1\nfi\n'
        "vllm serve m --port $PORT\n"
    )
    (inv,) = serves(src)
    assert texts(inv) == ["m", "--port", "8100"] and inv.path is None


def test_a_case_item_that_exits_and_one_that_starts_in_the_background(tmp_path):
    """`a) vllm serve m & ;;` starts in the background (the `&` before `;;`); the `*)`
    usage branch exits; after the case, path `a` runs a second server on the port."""
    src = (
        "case $2 in\n  a) vllm serve m --port 8300 & ;;\n  *) echo usage; exit 1 ;;\nesac\n"
        "vllm serve m --port 8300 &\nwait\n"
    )
    first, _ = serves(src)
    assert first.background
    found = lint(tmp_path, src)
    assert [(c, line, col) for c, _, line, col, _ in found] == [("VC306", 5, 6), ("VC302", 5, 21)]
    # every branch exits: nothing after the case runs (`*)` matches what no branch before
    # it did: no path takes no branch)
    ends = "case $2 in\n  a) echo a; exit 0 ;;\n  *) exit 1 ;;\nesac\nvllm serve m\n"
    assert parse_script(ends, "run.sh").invocations == ()


#: uccl-project/uccl's launch_vllm.sh, cut down: a `case` on the role sets one variable
#: per role and exits on any other; an `if` on the same role starts the head or a worker
ROLES = """\
ROLE="$1"
case "$ROLE" in
  head) API_SERVERS="${9:-1}" ;;
  worker) START_RANK="${9:-1}" ;;
  *) echo "role must be head or worker"; exit 1 ;;
esac
if [ "$ROLE" = "head" ]; then
  vllm serve m -tp 8 --data-parallel-size 2 --data-parallel-size-local 1 --data-parallel-address 10.0.0.1 \\
    --api-server-count="${API_SERVERS}"
else
  vllm serve m -tp 8 --data-parallel-size 2 --data-parallel-size-local 1 --data-parallel-address 10.0.0.1 \\
    --data-parallel-start-rank "${START_RANK}" --headless
fi
"""


def test_a_case_on_a_variable_decides_a_later_test_of_it(tmp_path):
    """Each `case` branch whose pattern is a plain word runs with the variable equal to
    it, so the later `if [ "$ROLE" = "head" ]` is decided on each path: the head runs
    with the head's variables only, the worker with the worker's (before: six launches,
    the impossible ones with rank 0 on both nodes, and a false VC308)."""
    got = [(i.span.line, texts(i)[-2:]) for i in serves(ROLES)]
    assert got == [(8, ["10.0.0.1", "--api-server-count=1"]), (11, ["1", "--headless"])]
    assert lint(tmp_path, ROLES) == []
    # a pattern with a glob pins nothing: on its path the `if` is undecided (both
    # launches), on the worker's it is decided (the worker only)
    globbed = ROLES.replace("  head)", "  hea*)")
    assert [i.span.line for i in serves(globbed)] == [8, 11, 11]


def test_what_a_list_part_that_may_not_run_sets_holds_on_its_paths_only(tmp_path):
    """`[[ -n "$P" ]] && ARGS+=(--tool-call-parser "$P")` then `enabled "$A" &&
    ARGS+=(--enable-auto-tool-choice)` (wade6716/vllm-multi-gpu-launcher): the second
    append does not happen on every path, and the first may have (no false VC229); the
    parts after it in the same list run where it ran (`cd / && export X=50 && vllm ...`)."""
    src = (
        'enabled() { [[ "$1" == 1 ]]; }\nP="${PARSER:-}"\nARGS=(m)\n'
        '[[ -n "$P" ]] && ARGS+=(--tool-call-parser "$P")\n'
        'enabled "$AUTO" && ARGS+=(--enable-auto-tool-choice)\nvllm serve "${ARGS[@]}"\n'
    )
    assert [texts(i)[-1:] for i in serves(src)] == [["--enable-auto-tool-choice"], [None]]
    assert lint(tmp_path, src) == []
    (inv,) = serves("cd /opt && export VLLM_LOGGING_LEVEL=DEBUG && vllm serve m\n")
    assert inv.env["VLLM_LOGGING_LEVEL"].value.text == "DEBUG"


def test_a_substring_whose_offset_and_length_are_variables_is_no_syntax_error(tmp_path):
    """`${NODES[@]:$off:$len}` (crazyguitar/pysheeet's vllm.sbatch) is valid bash that
    tree-sitter-bash cannot parse: no VC000, and the words after it are still read."""
    src = 'off=1; len=2\nsub=("${NODES[@]:$off:$len}")\nS="${T:$off}"\nvllm serve m --port 8000\n'
    assert lint(tmp_path, src) == []
    (inv,) = serves(src)
    assert texts(inv) == ["m", "--port", "8000"]


def test_docker_with_an_image_tag_or_a_container_vcfg_cannot_compute():
    """NVIDIA/dgx-spark-playbooks: `docker run ... nvcr.io/nvidia/vllm:${VERSION} vllm serve
    ...` (the image is known but for its tag) and `docker exec -it $CONTAINER /bin/bash -c
    '...vllm serve...'` (an unknown word, then a program: the container) are launches."""
    (inv,) = serves("docker run --gpus all -p 8000:8000 nvcr.io/nvidia/vllm:${V} vllm serve m --max-model-len 2048\n")
    assert texts(inv) == ["m", "--max-model-len", "2048"] and inv.wrappers[-1] == "docker run"
    (inv,) = serves("docker exec -it $C /bin/bash -c 'vllm serve m -tp 2'\n")
    assert texts(inv) == ["m", "-tp", "2"] and inv.wrappers[-1] == "docker exec"
    (inv,) = serves("docker run vllm/vllm-openai:${TAG} --model m\n")
    assert texts(inv) == ["--model", "m"]


def test_a_command_string_grown_on_more_paths_than_are_followed_keeps_its_common_words():
    """`CMD="vllm serve /repository --port 80"`, four `if ...; then CMD="$CMD --x"; fi`,
    then `eval $CMD` (hommayushi3/vllm-huggingface): sixteen paths, more than vcfg
    follows; the launch is still seen, with the words every path starts with and an
    unknown rest (before: no launch); three such ifs still give each path's launch."""
    flags = ["--enable-prefix-caching", "--enable-chunked-prefill", "--trust-remote-code", "--enforce-eager"]
    ifs = "".join(f'if [ "$A{k}" = true ]; then\n  CMD="$CMD {f}"\nfi\n' for k, f in enumerate(flags))
    src = 'CMD="vllm serve /repository --host 0.0.0.0 --port 80"\n' + ifs + "eval $CMD\n"
    (inv,) = serves(src)
    assert texts(inv) == ["/repository", "--host", "0.0.0.0", "--port", "80", None]
    # an unknown part every path holds at the same place is common too: the words after
    # it stay known (`--tensor-parallel-size '$NUM_SHARD' --dtype auto`)
    src2 = src.replace("--port 80", "--port 80 --tensor-parallel-size '$(nproc)' --dtype auto")
    (inv,) = serves(src2)
    assert texts(inv) == ["/repository", "--host", "0.0.0.0", "--port", "80", "--tensor-parallel-size", None,
                          "--dtype", "auto", None]  # fmt: skip
    # a fifth: the last decision's two paths, each with the earlier ones' words unknown
    # in the middle (an unknown between blanks is a field of its own, never dropped)
    five = src.replace("eval $CMD\n", 'if [ "$A4" = true ]; then\n  CMD="$CMD --x5"\nfi\neval $CMD\n')
    assert [texts(i)[4:] for i in serves(five)] == [["80", None, "--x5"], ["80", None]]
    three = src.replace('if [ "$A3" = true ]; then\n  CMD="$CMD --enforce-eager"\nfi\n', "")
    got = sorted(tuple(texts(i)[5:]) for i in serves(three))
    assert (
        len(got) == 8
        and got[0] == ()
        and ("--enable-prefix-caching", "--enable-chunked-prefill", "--trust-remote-code") in got
    )


def test_launches_started_by_srun_run_on_the_jobs_nodes(tmp_path):
    """`srun` starts its command on a node of the SLURM job: two servers on port 8000
    on two nodes do not clash, a removed option is still found, and the script's
    environment reaches the command (srun's default --export=ALL)."""
    src = (
        "export VLLM_LOGGING_LEVEL=DEBUG\n"
        'srun -N1 -w "$HEAD" vllm serve m --port 8000 --task generate &\n'
        'srun -N1 -w "$WORKER" vllm serve m --port 8000 &\nwait\n'
    )
    a, b = serves(src)
    assert a.wrappers == ("srun",) and a.inherits_env and a.env["VLLM_LOGGING_LEVEL"].value.text == "DEBUG"
    assert [(c, line) for c, _, line, _, _ in lint(tmp_path, src)] == [("VC002", 2)]


def test_eval_set_of_getopt_output_leaves_the_arguments_unknown():
    """`eval set -- "$(getopt ...)"` sets any number of arguments: after `shift`, `$#` is
    not known to be 0, so the usage exit is one path, not every path (ovg-project/kvcached)."""
    src = (
        'TEMP=$(getopt -o h --long port: -- "$@")\neval set -- "$TEMP"\n'
        'while true; do\n  case "$1" in\n    --port) port="$2"; shift 2 ;;\n    --) shift; break ;;\n'
        "    *) exit 1 ;;\n  esac\ndone\n"
        'if [[ $# -lt 1 ]]; then echo "engine?"; exit 1; fi\nvllm serve m --port "$port"\n'
    )
    (inv,) = serves(src)
    assert texts(inv) == ["m", "--port", None]


# --------------------------------------------------------------------------- functions

STOP_IN_FUNCTION = """\
k() { pkill -f python3; }
vllm serve m --port 8100 &
sleep 60
k
vllm serve m --port 8100 &
wait
"""


def test_a_kill_in_a_function_body_takes_effect_where_it_is_called(tmp_path):
    inline = STOP_IN_FUNCTION.replace("\nk\n", "\npkill -f python3\n")
    assert lint(tmp_path, inline) == []
    assert lint(tmp_path, STOP_IN_FUNCTION) == []


def test_a_function_never_called_stops_nothing(tmp_path):
    src = STOP_IN_FUNCTION.replace("\nk\n", "\n")
    assert {"VC302", "VC306"} <= set(codes(lint(tmp_path, src)))


def test_a_wait_in_a_function_called_between_launches(tmp_path):
    src = "finish() {\n  wait\n}\nvllm serve m --port 8100 &\nfinish\nvllm serve m --port 8100 &\nwait\n"
    assert lint(tmp_path, src) == []


RESTART_IN_MAIN = """\
serve_one() {
  pkill -f "vllm serve" || true
  vllm serve $1 --port 8000 &
  sleep 30
}
main() {
  serve_one a
  serve_one b
}
main "$@"
"""


def test_kills_and_launches_in_one_top_level_call_take_effect_in_order(tmp_path):
    """Every launch and kill runs inside `main`, one top-level statement: the kill at the
    start of the second `serve_one` stops the first server (xpyd-vllm-benchmarks.sh)."""
    assert lint(tmp_path, RESTART_IN_MAIN) == []
    # without the kill, the two servers clash on port 8000 (the launch's own line)
    found = lint(tmp_path, RESTART_IN_MAIN.replace('  pkill -f "vllm serve" || true\n', ""))
    assert [(c, line, col) for c, _, line, col, _ in found if c == "VC302"] == [("VC302", 2, 24)]
    # a kill before both launches stops neither: order counts, not the call
    before = "main() {\n  pkill -f vllm\n  vllm serve a --port 8000 &\n  vllm serve b --port 8000 &\n  wait\n}\nmain\n"
    found = lint(tmp_path, before)
    assert [(c, line, col) for c, _, line, col, _ in found if c == "VC302"] == [("VC302", 4, 23)]


# --------------------------------------------------------------------------- unknown is not equal


def test_two_unknown_proxy_hosts_are_not_one_host(tmp_path):
    src = (
        "python toy_proxy_server.py --port 9000 --prefiller-hosts ${IP1} --prefiller-ports 8100 "
        "--decoder-hosts ${IP3} --decoder-ports 8100\n"
    )
    (proxy,) = [i for i in parse_script(src, "run.sh").invocations if i.kind == PROXY]
    hosts = [u.host for u in proxy.upstreams]
    assert len(hosts) == 2 and all(h is not None and h.text is None for h in hosts)
    assert lint(tmp_path, src) == []


def test_two_known_equal_proxy_hosts_are_still_one_host(tmp_path):
    src = (
        "IP=10.0.0.5\npython toy_proxy_server.py --port 9000 --prefiller-hosts $IP --prefiller-ports 8100 "
        "--decoder-hosts $IP --decoder-ports 8100\n"
    )
    assert codes(lint(tmp_path, src)) == ["VC305"]


# --------------------------------------------------------------------------- VLLM_* names


def test_a_scripts_own_vllm_prefixed_variable_is_not_a_vllm_setting(tmp_path):
    src = "VLLM_PORT_BASE=8100\nvllm serve m --port $VLLM_PORT_BASE\n"
    assert lint(tmp_path, src) == []
    src = "export VLLM_PORT_BASE=8100\nvllm serve m --port $VLLM_PORT_BASE\n"
    assert lint(tmp_path, src) == []


def test_a_variable_vllm_reads_used_as_the_scripts_own_on_the_command_line(tmp_path):
    """`VLLM_PORT="$ENGINE_PORT"` then `--port="$VLLM_PORT"` (ovg-project/kvcached): the
    script's own variable, not a setting it forgot to export (exporting it would give
    vLLM's internal port the API server's); set and not read on the line, it is."""
    src = 'ENGINE_PORT=8000\nVLLM_PORT="$ENGINE_PORT"\nvllm serve m \\\n  --port="$VLLM_PORT"\n'
    assert lint(tmp_path, src) == []
    found = lint(tmp_path, src.replace('--port="$VLLM_PORT"', "--port=8000"))
    assert [(c, line, col) for c, _, line, col, _ in found] == [("VC104", 2, 1)]
    # passed through an array written elsewhere (wade6716/vllm-multi-gpu-launcher)
    src = 'VLLM_HOST="${VLLM_HOST:-127.0.0.1}"\nARGS=(m --host "$VLLM_HOST")\nvllm serve "${ARGS[@]}"\n'
    assert lint(tmp_path, src) == []
    # the same text typed again is not the variable
    found = lint(tmp_path, "VLLM_HOST=127.0.0.1\nvllm serve m --host 127.0.0.1\n")
    assert [(c, line) for c, _, line, _, _ in found] == [("VC104", 1)]


def test_a_near_miss_of_a_name_vllm_reads_is_still_reported(tmp_path):
    found = lint(tmp_path, "export VLLM_NIXL_SIDE_CHANEL_PORT=5601\nvllm serve m\n")
    assert [(c, line, col) for c, _, line, col, _ in found] == [("VC101", 1, 8)]
    found = lint(tmp_path, "VLLM_LOGGING_LEVEL=DEBUG\nvllm serve m\n")
    assert [(c, line, col) for c, _, line, col, _ in found] == [("VC104", 1, 1)]


def test_unset_in_an_if_is_not_an_unexported_assignment(tmp_path):
    src = 'if [ "$X" = 1 ]; then\n  unset VLLM_USE_V1\nfi\nvllm serve m\n'
    assert lint(tmp_path, src) == []
    (inv,) = serves(src)
    b = inv.env["VLLM_USE_V1"]
    assert not b.value.known and b.source == "caller"


# --------------------------------------------------------------------------- heredoc configs

HEREDOC_CONFIG = """\
L=$(python3 -c 'print(4096)')
cat > config.yaml <<EOT
max-model-len: $L
tensor-parallel-size: 2
gpu-memory-utilisation: 0.9
EOT
vllm serve m --config config.yaml
"""


def test_a_heredoc_config_with_an_unknown_value_is_read(tmp_path):
    found = lint(tmp_path, HEREDOC_CONFIG)
    # the unknown key-value pair stays unknown; the misspelt key is still found
    assert [(c, line, col) for c, _, line, col, _ in found] == [("VC001", 5, 1)]
    assert not any("not found" in m for *_, m in found)


def test_a_heredoc_config_value_that_is_unknown_stays_unknown():
    from vcfg.launch.args import parse_invocation
    from vcfg.lint.config import LintConfig
    from vcfg.lint.engine import make_target

    plan = parse_script(HEREDOC_CONFIG, "run.sh")
    (inv,) = plan.invocations
    parsed = parse_invocation(inv, make_target("0.33.0", LintConfig(), ()).catalog, plan, read_files=False)
    ov = parsed.get("max_model_len")
    assert ov is not None and ov.value is None and not ov.known
    assert parsed.get("tensor_parallel_size").value == 2


# --------------------------------------------------------------------------- subcommands


def test_an_unknown_vllm_subcommand_is_an_error_with_did_you_mean(tmp_path):
    found = lint(tmp_path, "vllm serv m --port 8000\n")
    assert [(c, sev, line, col) for c, sev, line, col, _ in found] == [("VC013", "error", 1, 6)]
    assert "`serve`" in lint_paths([str(tmp_path / "run.sh")], "0.33.0").diagnostics[0].help


def test_a_subcommand_glued_to_a_flag_is_an_error(tmp_path):
    found = lint(tmp_path, "vllm bench serve--save-result --model m\n")
    assert [(c, sev, line, col) for c, sev, line, col, _ in found] == [("VC013", "error", 1, 12)]
    d = lint_paths([str(tmp_path / "run.sh")], "0.33.0").diagnostics[0]
    assert "serve --save-result" in d.help


def test_known_subcommands_are_quiet(tmp_path):
    src = "vllm bench serve --model m --save-result\nvllm collect-env\nvllm chat\nvllm --version\n"
    assert lint(tmp_path, src) == []


# --------------------------------------------------------------------------- placeholders


def test_a_braced_doc_placeholder_is_a_placeholder(tmp_path):
    src = "vllm serve {your model directory} --port 8000\n"
    found = lint(tmp_path, src)
    assert [(c, line, col) for c, _, line, col, _ in found] == [("VC000", 1, 12)]
    assert "placeholder" in found[0][4]
    (inv,) = serves(src)
    assert inv.args[0].text is None  # the model is not `{your`


def test_brace_expansion_is_not_a_placeholder():
    (inv,) = serves("vllm serve m --x {a,b} --y {1..2}\n")
    assert texts(inv) == ["m", "--x", "a", "b", "--y", "1", "2"]


# --------------------------------------------------------------------------- found by the bash oracle


def test_a_launch_over_ssh_is_read_from_the_remote_command():
    src = (
        "H=10.0.0.3\nexport VLLM_X=1\n"
        'ssh -p 2222 $H "vllm serve m --port 8020 --kv-transfer-config \'{\\"kv_role\\":\\"kv_consumer\\"}\'" &\n'
    )
    (inv,) = serves(src)
    assert texts(inv) == ["m", "--port", "8020", "--kv-transfer-config", '{"kv_role":"kv_consumer"}']
    assert inv.wrappers[0] == "ssh" and not inv.inherits_env and inv.background
    # the JSON's characters map back into the ssh string
    line, col = inv.args[-1].char_span(0).line, inv.args[-1].char_span(0).col
    assert (line, col) == (3, src.splitlines()[2].index("{") + 1)


def test_printf_output_is_computed():
    (inv,) = serves("n=7\nvllm serve m --name \"run-$(printf %04d $n)-$(printf '%s_%s' a b)\"\n")
    assert texts(inv)[-1] == "run-0007-a_b"


def test_tilde_is_home_when_home_is_known():
    (inv,) = serves("vllm serve ~/models/m\n", environ={"HOME": "/home/u"})
    assert texts(inv) == ["/home/u/models/m"]
    (inv,) = serves("vllm serve ~/models/m\n")
    assert texts(inv) == [None]


def test_a_variable_after_letters_after_an_expansion_is_one_word():
    """tree-sitter-bash reads ``$D/p_$i.yaml`` as two words (and ``X=$D/p_$i`` as an
    assignment and a command ``i``); bash reads one word with ``$i`` in it."""
    src = (
        "i=3; D=/l\nX=$D/p_$i.y\nexport Z=$D/q_$i\n"
        "vllm serve m --config $D/p_$i.yaml --x $X --z $Z > $D/log_$i.txt 2>&1 &\n"
        "cat > $D/p_$i.yaml <<EOF\nport: 1\nEOF\n"
    )
    plan = parse_script(src, "run.sh")
    (inv,) = plan.invocations
    assert texts(inv) == ["m", "--config", "/l/p_3.yaml", "--x", "/l/p_3.y", "--z", "/l/q_3"]
    assert inv.redirects == ("> $D/log_$i.txt", "2>&1")
    assert not inv.env["i"].exported and inv.env["Z"].exported
    assert [w.path.text for w in plan.written_files] == ["/l/p_3.yaml"]
    # `$i` maps to where i is set
    w = inv.args[2]
    assert w.char_span(w.value.index("3")).col == 3


def test_continue_break_and_flags_in_an_unrolled_loop():
    """The argument filter of tpu-inference's run_dp_external_lb.sh: `if $skip_next`
    runs `true` or `false`, `continue` skips the rest of the iteration."""
    src = """\
EXTRA=()
skip_next=false
for arg in "$@"; do
  if $skip_next; then
    skip_next=false
    continue
  fi
  case "$arg" in
    --data-parallel-size) skip_next=true ;;
    --stop) break ;;
    *) EXTRA+=("$arg") ;;
  esac
done
vllm serve m "${EXTRA[@]}"
"""
    (inv,) = serves(src, args=["--data-parallel-size", "4", "--x", "1", "--stop", "--y"])
    assert texts(inv) == ["m", "--x", "1"]


def test_exit_return_and_decided_lists():
    src = """\
usage() { echo "usage: $0 model" >&2; exit 1; }
first() { vllm serve a; return; vllm serve never; }
[ $# -lt 1 ] && usage
first
(( $# > 1 )) && vllm serve two
[ "$1" = m ] || vllm serve not-m
vllm serve "$1"
"""
    assert [texts(i)[0] for i in serves(src, args=["m"])] == ["a", "m"]
    assert [texts(i)[0] for i in serves(src, args=["m", "x"])] == ["a", "two", "m"]
    assert [texts(i)[0] for i in serves(src, args=[])] == []


def test_a_known_callers_environment_reaches_the_launch():
    (inv,) = serves("vllm serve m\n", environ={"VLLM_ENGINE_READY_TIMEOUT_S": "6000"})
    b = inv.exported_env()["VLLM_ENGINE_READY_TIMEOUT_S"]
    assert b.value.text == "6000" and b.source == "caller"


def test_source_of_a_file_beside_the_script_is_read_never_run(tmp_path):
    (tmp_path / ".git").mkdir()
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "common.sh").write_text(
        "MODEL=Qwen/Qwen3-8B\nexport VLLM_LOGGING_LEVEL=DEBUG\n"
        "start() {\n  vllm serve $MODEL --port $1 --max-num-seqz 8 &\n}\n"
    )
    run = tmp_path / "scripts" / "run.sh"
    run.parent.mkdir()
    run.write_text('source "$(dirname "$0")/../lib/common.sh"\nstart 8100\nvllm serve $MODEL --port 8200\n')
    plan = parse_script(run.read_bytes(), str(run))
    assert [texts(i) for i in plan.invocations] == [
        ["Qwen/Qwen3-8B", "--port", "8100", "--max-num-seqz", "8"],
        ["Qwen/Qwen3-8B", "--port", "8200"],
    ]
    first = plan.invocations[0]
    assert first.span.file == str(run) and first.span.line == 2  # where it runs
    assert first.args[3].span.file.endswith("common.sh") and first.args[3].span.line == 4
    assert all(i.exported_env()["VLLM_LOGGING_LEVEL"].value.text == "DEBUG" for i in plan.invocations)
    assert not any(u.kind == "source" for u in plan.unknowns)
    # the finding in the sourced file is reported there
    res = lint_paths([str(run)], "0.33.0")
    vc001 = [d for d in res.diagnostics if d.code == "VC001"]
    assert [(d.span.file.rsplit("/", 1)[-1], d.span.line, d.span.col) for d in vc001] == [("common.sh", 4, 31)]


def test_source_outside_the_repository_stays_unknown(tmp_path):
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    (tmp_path / "outside.sh").write_text("MODEL=x\n")
    run = tmp_path / "repo" / "run.sh"
    run.write_text("source ../outside.sh\nsource ./missing.sh\nvllm serve $MODEL\n")
    plan = parse_script(run.read_bytes(), str(run))
    assert [u.kind for u in plan.unknowns if u.kind == "source"] == ["source", "source"]
    assert texts(plan.invocations[0]) == [None]


def test_positional_defaults_and_required_arguments():
    src = "ROLE=${1:?usage: $0 prefill|decode}\nP=${2:-8100}\nvllm serve m --role $ROLE --port $P\n"
    assert texts(serves(src, args=["decode"])[0]) == ["m", "--role", "decode", "--port", "8100"]
    assert texts(serves(src, args=["decode", "9"])[0])[-1] == "9"


def test_a_positional_default_is_the_model_bash_runs_without_arguments(tmp_path):
    """`${1:-X}` run without arguments is X, as `${MODEL:-X}` is when the caller sets
    nothing: the launches are read with it (an assumption) and clash as with a literal."""
    src = "MODEL=${1:-Qwen/Qwen3-8B}\nvllm serve $MODEL --port 8000 &\nvllm serve $MODEL --port 8000 &\nwait\n"
    a, b = serves(src)
    assert texts(a) == texts(b) == ["Qwen/Qwen3-8B", "--port", "8000"]
    assert a.args[0].assumptions == ("$1 is not set by the caller (default from ${1:-Qwen/Qwen3-8B})",)
    found = lint(tmp_path, src)
    assert [(c, line, col) for c, _, line, col, _ in found] == [("VC306", 3, 6), ("VC302", 3, 26)]
    assert found == lint(tmp_path, src.replace("${1:-Qwen/Qwen3-8B}", "Qwen/Qwen3-8B"))
    # an argument the caller gives wins; inside a function its arguments are its own
    assert texts(serves(src, args=["m2"])[0])[0] == "m2"
    fn = "f() { vllm serve ${1:-x} --port 8000; }\nf $UNKNOWN\n"
    assert [texts(i)[0] for i in serves(fn)] == [None]


def test_a_proxy_script_in_an_unknown_folder_is_a_proxy():
    src = 'D=$(cd "$(dirname "$0")" && pwd)\npython3 $D/toy_proxy_server.py --port 9000\n'
    (inv,) = parse_script(src, "run.sh").invocations
    assert inv.kind == PROXY and inv.entrypoint == "python toy_proxy_server.py"


def test_another_vllm_image_given_only_options_is_a_serve_launch():
    src = "docker run -d -e VLLM_SKIP_WARMUP=true opea/vllm-gaudi:comps --model m --port 80\n"
    (inv,) = serves(src)
    assert texts(inv) == ["--model", "m", "--port", "80"] and inv.env["VLLM_SKIP_WARMUP"].value.text == "true"
    # a command after the image is the container's command, as before
    assert serves("docker run vllm:openvino /bin/bash -c 'vllm serve m'\n")[0].entrypoint == "vllm serve"
    assert serves("docker run myimage:1 --model m\n") == []


def test_docker_run_entrypoint_runs_with_the_words_after_the_image():
    src = (
        "docker run --entrypoint vllm vllm/vllm-openai:v0.13.0 serve m --swap-space 4\n"
        'docker run --rm --entrypoint=/bin/bash vllm/vllm-openai:v0.13.0 -c "vllm serve m2 --port 8001"\n'
    )
    a, b = serves(src)
    assert texts(a) == ["m", "--swap-space", "4"] and texts(b) == ["m2", "--port", "8001"]
    assert a.image.text == b.image.text == "vllm/vllm-openai:v0.13.0" and a.wrappers[0] == "docker run"


def test_a_getopts_loop_without_arguments_never_runs():
    src = (
        'm=meta-llama/Llama-2-7b-hf\nwhile getopts ":m:" o; do case $o in m) m=$OPTARG;; esac; done\n'
        'docker run vllm:openvino /bin/bash -c "cd / && python3 -m vllm.entrypoints.openai.api_server --model $m"\n'
    )
    (inv,) = serves(src, args=[])
    assert texts(inv) == ["--model", "meta-llama/Llama-2-7b-hf"]
    # arguments unknown: the loop may set it; the bash -c string is read with that
    # part unknown, in the container docker runs
    plan = parse_script(src, "run.sh")
    (inv,) = plan.invocations
    assert texts(inv) == ["--model", None] and inv.wrappers[0] == "docker run"
    assert inv.args[1].describe_unknown() == "changed by the loop at line 2"
