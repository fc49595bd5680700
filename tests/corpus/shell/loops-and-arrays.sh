#!/bin/bash
# Instances from loops: a GPU list split with IFS, C-style loops, seq, brace ranges.
GPUS="4,5,6,7"
IFS=',' read -r -a GPU_ARRAY <<< "$GPUS"
NUM=${#GPU_ARRAY[@]}
for i in "${!GPU_ARRAY[@]}"; do
  port=$((8100 + i))
  side=$((5559 + i * 2))
  CUDA_VISIBLE_DEVICES=${GPU_ARRAY[$i]} VLLM_NIXL_SIDE_CHANNEL_PORT=$side \
    vllm serve Qwen/Qwen3-0.6B --port $port \
    --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}' &
done
for ((d = 0; d < 2; d++)); do
  vllm serve Qwen/Qwen3-0.6B --port $((8200 + d)) --data-parallel-rank $d &
done
for n in $(seq 1 $((NUM / 2))); do
  echo "group $n"
done
for p in {9000..9001}; do
  python3 toy_proxy_server.py --port $p --prefiller-hosts localhost localhost \
    --prefiller-ports 8100 8101 --decoder-hosts localhost --decoder-ports 8200 &
done
PROXY_ARGS=(--port 9100)
for i in 0 1; do
  PROXY_ARGS+=(--prefill "http://localhost:$((8100 + i))")
done
PROXY_ARGS+=(--decode http://localhost:8200)
python3 disagg_proxy_server.py "${PROXY_ARGS[@]}" &
EXTRA_FLAGS="--max-num-seqs 32 --block-size 16"
vllm serve Qwen/Qwen3-0.6B --port 8300 $EXTRA_FLAGS
wait
