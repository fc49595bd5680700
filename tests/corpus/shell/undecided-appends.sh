#!/bin/bash
# Options appended in two `if`s on the caller's settings, to a variable the script never
# sets first (as vllm-gaudi's template_vllm_server.sh does): run it with CONTIGUOUS_PA=True
# and/or ASYNC_SCHEDULING=1.
MODEL=${MODEL:-Qwen/Qwen3-8B}
if [ "$CONTIGUOUS_PA" = "True" ]; then # contiguous paged attention
    EXTRA_ARGS+=" --no-enable-prefix-caching"
fi
if [ "${ASYNC_SCHEDULING:-0}" -gt 0 ]; then
    EXTRA_ARGS="$EXTRA_ARGS --async-scheduling"
fi
vllm serve "$MODEL" --port 8000 ${EXTRA_ARGS}
