#!/bin/bash
# One script for both roles: run as `role-switch.sh prefill` or `role-switch.sh decode`.
set -euo pipefail
ROLE=${1:?usage: $0 prefill|decode}
case "$ROLE" in
  prefill) PORT=8100; KV_ROLE=kv_producer; GPU=0 ;;
  decode) PORT=8200; KV_ROLE=kv_consumer; GPU=1 ;;
  *) echo "unknown role $ROLE" >&2; exit 1 ;;
esac
export CUDA_VISIBLE_DEVICES=$GPU
ARGS=(Qwen/Qwen3-8B --port "$PORT")
ARGS+=(--kv-transfer-config "{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"$KV_ROLE\"}")
if [ "$ROLE" = decode ]; then
  ARGS+=(--max-num-seqs 128)
fi
exec vllm serve "${ARGS[@]}"
