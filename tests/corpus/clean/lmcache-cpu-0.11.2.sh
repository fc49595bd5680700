# vcfg-test: vllm=0.11.2
# KV cache offload to CPU RAM through LMCache on a single instance.  LMCache reads
# its own settings from LMCACHE_* variables; vLLM only needs the connector.
export LMCACHE_CHUNK_SIZE=256
export LMCACHE_LOCAL_CPU=True
export LMCACHE_MAX_LOCAL_CPU_SIZE=40.0
export VLLM_LOGGING_LEVEL=INFO

MODEL="${MODEL:-Qwen/Qwen3-8B}"
PORT="${PORT:-8000}"

CUDA_VISIBLE_DEVICES=0 vllm serve "$MODEL" \
  --port "$PORT" \
  --max-model-len 32768 \
  --gpu-memory-utilization 0.8 \
  --enable-prefix-caching \
  --reasoning-parser qwen3 \
  --kv-transfer-config '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both"}'
