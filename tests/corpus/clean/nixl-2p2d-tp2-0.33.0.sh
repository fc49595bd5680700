# vcfg-test: vllm=0.33.0
# 2P2D over NIXL on one 8-GPU host, TP 2 per instance; prefill instances are
# kv_producer and decode instances kv_consumer, each with its own handshake port.
set -euo pipefail

MODEL=${MODEL:-Qwen/Qwen3-30B-A3B-Instruct-2507}
GPUS_PER_INSTANCE=2
NUM_PREFILL=2
NUM_DECODE=2
PREFILL_PORTS=()
DECODE_PORTS=()

trap 'kill $(jobs -pr) 2>/dev/null || true' EXIT

for ((i = 0; i < NUM_PREFILL; i++)); do
  first=$((i * GPUS_PER_INSTANCE))
  port=$((8100 + i))
  CUDA_VISIBLE_DEVICES=$first,$((first + 1)) \
  VLLM_NIXL_SIDE_CHANNEL_PORT=$((5600 + i)) \
  vllm serve "$MODEL" \
    --port $port \
    --tensor-parallel-size $GPUS_PER_INSTANCE \
    --max-model-len 32768 \
    --block-size 128 \
    --gpu-memory-utilization 0.88 \
    --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer","kv_connector_extra_config":{"backends":["UCX"],"kv_lease_duration":60}}' \
    > "prefill_${i}.log" 2>&1 &
  PREFILL_PORTS+=("$port")
done

for ((i = 0; i < NUM_DECODE; i++)); do
  first=$(((NUM_PREFILL + i) * GPUS_PER_INSTANCE))
  port=$((8200 + i))
  CUDA_VISIBLE_DEVICES=$first,$((first + 1)) \
  VLLM_NIXL_SIDE_CHANNEL_PORT=$((5700 + i)) \
  vllm serve "$MODEL" \
    --port $port \
    --tensor-parallel-size $GPUS_PER_INSTANCE \
    --max-model-len 32768 \
    --block-size 128 \
    --gpu-memory-utilization 0.88 \
    --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer","kv_connector_extra_config":{"backends":["UCX"]}}' \
    > "decode_${i}.log" 2>&1 &
  DECODE_PORTS+=("$port")
done

python3 toy_proxy_server.py \
  --port 8000 \
  --prefiller-hosts localhost localhost \
  --prefiller-ports "${PREFILL_PORTS[@]}" \
  --decoder-hosts localhost localhost \
  --decoder-ports "${DECODE_PORTS[@]}" &

wait
