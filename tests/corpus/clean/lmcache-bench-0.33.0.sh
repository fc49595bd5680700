# vcfg-test: vllm=0.33.0
# LMCache CPU offload, configured in a YAML file that LMCache reads; the benchmark
# uses the same served name.
export LMCACHE_CONFIG_FILE=/etc/lmcache/cpu-offload.yaml
export VLLM_LOGGING_LEVEL=INFO

CUDA_VISIBLE_DEVICES=2 vllm serve Qwen/Qwen3-8B \
  --served-model-name qwen3-8b \
  --port 8600 \
  --max-model-len 40960 \
  --kv-transfer-config '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both"}' &

sleep 120
vllm bench serve \
  --backend openai-chat \
  --endpoint /v1/chat/completions \
  --model Qwen/Qwen3-8B \
  --served-model-name qwen3-8b \
  --port 8600 \
  --dataset-name random \
  --random-input-len 4096 \
  --random-output-len 128 \
  --num-prompts 200 \
  --request-rate 8
