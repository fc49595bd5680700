#!/bin/bash
# A command built in a string, optional parts appended, run with eval (vLLM CI style).
set -e
MODEL="meta-llama/Llama-3.1-8B-Instruct"
TP=${TP:-2}
CMD="vllm serve $MODEL --port 8000 --tensor-parallel-size $TP"
if [ -n "${MAX_LEN:-}" ]; then
  CMD="$CMD --max-model-len $MAX_LEN"
fi
if [[ "${EAGER:-0}" == "1" ]]; then
  CMD+=" --enforce-eager"
fi
KV='{"kv_connector":"NixlConnector","kv_role":"kv_both"}'
CMD="$CMD --kv-transfer-config '$KV'"
echo "running: $CMD"
eval "$CMD 2>&1 | tee -a server.log &"
wait
