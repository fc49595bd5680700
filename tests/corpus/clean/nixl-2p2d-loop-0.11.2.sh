# vcfg-test: vllm=0.11.2
# Two prefill and two decode instances on one 4-GPU host.  From this release the
# NIXL handshake listener is one port per data-parallel rank, so one port apart
# is enough between instances.
MODEL=${MODEL:-Qwen/Qwen2.5-7B-Instruct}
PREFILL_GPUS=(0 1)
DECODE_GPUS=(2 3)
PIDS=()

trap 'kill "${PIDS[@]}" 2>/dev/null' EXIT

for i in "${!PREFILL_GPUS[@]}"; do
  CUDA_VISIBLE_DEVICES=${PREFILL_GPUS[$i]} \
  VLLM_NIXL_SIDE_CHANNEL_PORT=$((5600 + i)) \
    vllm serve $MODEL \
    --port $((8100 + i)) \
    --enforce-eager \
    --block-size 16 \
    --gpu-memory-utilization 0.8 \
    --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both","kv_connector_extra_config":{"backends":["UCX"]}}' \
    > prefill_$i.log 2>&1 &
  PIDS+=($!)
done

for i in "${!DECODE_GPUS[@]}"; do
  CUDA_VISIBLE_DEVICES=${DECODE_GPUS[$i]} \
  VLLM_NIXL_SIDE_CHANNEL_PORT=$((5610 + i)) \
    vllm serve $MODEL \
    --port $((8200 + i)) \
    --enforce-eager \
    --block-size 16 \
    --gpu-memory-utilization 0.8 \
    --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both","kv_connector_extra_config":{"backends":["UCX"]}}' \
    > decode_$i.log 2>&1 &
  PIDS+=($!)
done

python3 toy_proxy_server.py --port 8192 \
  --prefiller-hosts localhost localhost --prefiller-ports 8100 8101 \
  --decoder-hosts localhost localhost --decoder-ports 8200 8201 &
PIDS+=($!)

wait
