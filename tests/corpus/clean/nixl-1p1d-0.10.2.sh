# vcfg-test: vllm=0.10.2
# One prefill and one decode instance on one 4-GPU host, KV moved over NIXL (UCX).
# NixlConnector of this release opens one handshake listener per TP worker,
# starting at VLLM_NIXL_SIDE_CHANNEL_PORT, so the two bases are TP apart.
set -euo pipefail

MODEL=${MODEL:-meta-llama/Llama-3.1-8B-Instruct}
PREFILL_PORT=8100
DECODE_PORT=8200
PROXY_PORT=8192

cleanup() {
  kill $(jobs -pr) 2>/dev/null || true
}
trap cleanup EXIT INT TERM

export VLLM_USE_V1=1
export VLLM_LOGGING_LEVEL=INFO
export UCX_TLS=cuda_ipc,cuda_copy,tcp

CUDA_VISIBLE_DEVICES=0,1 \
VLLM_NIXL_SIDE_CHANNEL_PORT=5557 \
vllm serve "$MODEL" \
  --port $PREFILL_PORT \
  --tensor-parallel-size 2 \
  --enforce-eager \
  --max-model-len 16384 \
  --gpu-memory-utilization 0.85 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}' \
  > prefill.log 2>&1 &

CUDA_VISIBLE_DEVICES=2,3 \
VLLM_NIXL_SIDE_CHANNEL_PORT=5559 \
vllm serve "$MODEL" \
  --port $DECODE_PORT \
  --tensor-parallel-size 2 \
  --enforce-eager \
  --max-model-len 16384 \
  --gpu-memory-utilization 0.85 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}' \
  > decode.log 2>&1 &

for port in $PREFILL_PORT $DECODE_PORT; do
  timeout 1200 bash -c "until curl -s localhost:${port}/v1/models > /dev/null; do sleep 2; done"
done

python3 toy_proxy_server.py \
  --port $PROXY_PORT \
  --prefiller-hosts localhost \
  --prefiller-ports $PREFILL_PORT \
  --decoder-hosts localhost \
  --decoder-ports $DECODE_PORT &

wait
