"""vcfg.launch.shape: what the run rules need to know about a script's control flow."""

from __future__ import annotations

from vcfg.launch.shell import parse_script

ROLE_SWITCH = b"""#!/bin/bash
stop() { kill "$PID"; }
if [ "$1" = prefill ]; then
  vllm serve m --port 8100 &
else
  vllm serve m --port 8200 &
fi
for i in 1 2; do
  vllm serve m --port 830$i &
done
wait
vllm serve m --port 8400
"""


def test_shape_of_a_script_with_background_launches():
    data = ROLE_SWITCH
    plan = parse_script(data, "run.sh")
    shape = plan.shape
    assert shape is not None and len(plan.invocations) >= 4
    starts = {bid: data[s:e].decode() for s, e, _node, bid in shape.branches}
    assert "8100" in starts["then"] and any("8200" in t for b, t in starts.items() if b.startswith("else_clause"))
    assert [data[s:e].decode().strip().startswith("do") for s, e in shape.loops] == [True]
    # the kill inside the function body is not a stop where it is written; `wait` is
    assert [data[x : x + 4] for x in shape.stops] == [b"wait"]


def test_no_shape_without_a_background_launch_and_another():
    assert parse_script(b"vllm serve m &\n", "one.sh").shape is None
    assert parse_script(b"vllm serve a\nvllm serve b\n", "two.sh").shape is None
