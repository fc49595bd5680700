#!/bin/bash
# Wrappers, prefixes one per line, set -a, export -n, env -u, bash -c and timeout.
set -a
VLLM_RPC_TIMEOUT=100000
set +a
export VLLM_ENGINE_READY_TIMEOUT_S=1200 PLAIN=1
export -n PLAIN
VLLM_USE_V1=1 \
  VLLM_ATTENTION_BACKEND=FLASHINFER \
  numactl --cpunodebind=0 --membind=0 taskset -c 0-15 \
  nohup vllm serve Qwen/Qwen3-8B --port 8100 > p.log 2>&1 &
env -u VLLM_RPC_TIMEOUT VLLM_HOST_IP=10.0.0.2 timeout 3600 vllm serve Qwen/Qwen3-8B --port 8200 &
timeout 1200 bash -c "until curl -s localhost:8100/v1/models > /dev/null; do sleep 1; done"
bash -c 'vllm bench serve --model Qwen/Qwen3-8B --port 8100 --num-prompts 10 --save-result'
docker run --gpus all -e VLLM_LOGGING_LEVEL=DEBUG -p 8000:8000 vllm/vllm-openai:v0.10.2 \
  --model Qwen/Qwen3-8B --port 8000 &
wait
