"""``break``, ``continue`` and ``return`` in a branch vcfg cannot decide (a command's
status or output): the paths that jump leave where bash leaves, and meet the others
where bash brings them together (tests/corpus/shell/jumps-in-undecided-branches.sh is
the same under the bash oracle)."""

from __future__ import annotations

from vcfg.launch.model import SERVE
from vcfg.launch.shell import parse_script


def serves(src: str):
    return [i for i in parse_script(src, "run.sh", environ={}, args=[]).invocations if i.kind == SERVE]


def port(inv) -> str | None:
    ws = [w.text for w in inv.args]
    return ws[ws.index("--port") + 1]


def cuda(inv) -> str | None:
    b = inv.exported_env().get("CUDA_VISIBLE_DEVICES")
    return None if b is None else b.value.text


def test_a_break_on_some_paths_gives_the_launch_after_the_loop_once_per_path():
    src = (
        "GPU=none\n"
        "for g in 0 1 2; do\n"
        '  if [ -z "$(nvidia-smi -i $g)" ]; then\n'
        "    GPU=$g\n"
        "    break\n"
        "  fi\n"
        "done\n"
        "CUDA_VISIBLE_DEVICES=$GPU vllm serve m --port 8000\n"
    )
    got = [(cuda(i), i.path) for i in serves(src)]
    assert got == [
        ("0", "the test at line 3 is true (g=0)"),
        ("1", "the test at line 3 is true (g=1)"),
        ("2", "the test at line 3 is true (g=2)"),
        ("none", "the loop at line 2 runs without a `break`"),
    ]


def test_a_value_the_loop_changes_after_the_break_is_the_one_of_each_path():
    # bash (curl answers at once) runs --port 8900; before, vcfg read 8903 alone
    src = (
        "PORT=8900\n"
        "for i in 1 2 3; do\n"
        "  if curl -sf http://localhost:$PORT/health; then break; fi\n"
        "  PORT=$((8900 + i))\n"
        "done\n"
        'vllm serve m --port "$PORT"\n'
    )
    assert [port(i) for i in serves(src)] == ["8900", "8901", "8902", "8903"]


def test_after_a_continue_the_rest_of_the_body_is_conditional_the_next_run_is_not():
    src = (
        "for i in 0 1; do\n"
        "  vllm serve m --port $((8000 + i)) &\n"
        "  if curl -sf http://localhost:$((9000 + i))/health; then continue; fi\n"
        "  vllm serve m --port $((9000 + i)) &\n"
        "done\n"
        "vllm serve m --port 7000 &\n"
    )
    got = [(port(i), i.conditional) for i in serves(src)]
    assert got == [("8000", False), ("9000", True), ("8001", False), ("9001", True), ("7000", False)]


def test_after_a_break_on_some_paths_the_later_runs_are_conditional():
    src = (
        "for i in 0 1; do\n"
        "  vllm serve m --port $((8000 + i)) &\n"
        "  curl -sf http://localhost:9000/health && break\n"
        "done\n"
        "vllm serve m --port 7000 &\n"
    )
    got = [(port(i), i.conditional) for i in serves(src)]
    assert got == [("8000", False), ("8001", True), ("7000", False)]


def test_a_continue_carries_its_value_to_the_next_run():
    src = (
        "BASE=8800\n"
        "for i in 0 1; do\n"
        "  if grep -qs skip ./skip.txt; then BASE=8810; continue; fi\n"
        "  vllm serve m --port $((BASE + i)) &\n"
        "done\n"
    )
    got = sorted((port(i), i.path) for i in serves(src))
    assert got == [
        ("8800", None),
        ("8801", "the body runs to its end (i=0)"),
        ("8811", "the test at line 3 is true (i=0)"),
    ]


def test_break_2_leaves_both_loops_on_its_paths():
    src = (
        "for n in 0 1; do\n"
        "  for g in 0 1; do\n"
        "    if [ -e /dev/nvidia$n$g ]; then break 2; fi\n"
        "    vllm serve m --port $((8700 + n * 2 + g)) &\n"
        "  done\n"
        "  vllm serve m --port $((8600 + n)) &\n"
        "done\n"
        "vllm serve m --port 7000 &\n"
    )
    got = [(port(i), i.conditional) for i in serves(src)]
    assert got == [
        ("8700", True),
        ("8701", True),
        ("8600", True),
        ("8702", True),
        ("8703", True),
        ("8601", True),
        ("7000", False),
    ]


def test_a_return_on_some_paths_meets_the_end_of_the_function_after_the_call():
    src = (
        "pick() {\n"
        "  PORT=8600\n"
        '  if [ -n "$(ss -ltn)" ]; then PORT=8601; return; fi\n'
        "  vllm serve m --port 8500 &\n"
        "}\n"
        "pick\n"
        'vllm serve m --port "$PORT" &\n'
    )
    got = [(port(i), i.conditional, i.path) for i in serves(src)]
    assert got == [
        ("8500", True, None),
        ("8601", True, "the test at line 3 is true"),
        ("8600", True, "`pick` runs to its end"),
    ]


def test_a_return_in_a_sourced_file_ends_its_reading_on_that_path(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "env.sh").write_text('PORT=8000\nif [ -n "$(hostname)" ]; then return; fi\nPORT=9000\n')
    (tmp_path / "run.sh").write_text('source ./env.sh\nvllm serve m --port "$PORT"\n')
    plan = parse_script((tmp_path / "run.sh").read_bytes(), str(tmp_path / "run.sh"), environ={}, args=[])
    assert sorted(port(i) for i in plan.invocations if i.kind == SERVE) == ["8000", "9000"]


def test_a_loop_inside_an_undecided_branch_still_breaks_on_every_path_through_it():
    # the `break` runs on every path that reaches it: the second run never happens
    src = "if curl -sf localhost:1; then\n  for i in 1 2; do\n    vllm serve m --port 800$i &\n    break\n  done\nfi\n"
    got = [(port(i), i.conditional) for i in serves(src)]
    assert got == [("8001", True)]


def test_an_exit_in_a_function_an_undecided_branch_calls_ends_that_path():
    src = (
        'die() { echo "$*" >&2; exit 1; }\n'
        "P=8000\n"
        "if ! curl -sf localhost:1; then P=9000; die down; fi\n"
        'vllm serve m --port "$P"\n'
    )
    got = [(port(i), i.conditional, i.path) for i in serves(src)]
    assert got == [("8000", False, None)]


def test_every_path_jumping_leaves_nothing_after_it_in_the_body():
    src = (
        "for i in 0 1; do\n"
        "  if curl -sf localhost:1; then continue; else break; fi\n"
        "  vllm serve m --port 8000 &\n"
        "done\n"
        "vllm serve m --port 7000 &\n"
    )
    got = [(port(i), i.conditional) for i in serves(src)]
    assert got == [("7000", False)]
