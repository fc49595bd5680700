# vcfg-test: vllm=0.23.0
# Native CPU offloading of the KV cache (64 GiB), chosen with --kv-offloading-size;
# the backend defaults to native in this release.
export VLLM_LOGGING_LEVEL=DEBUG
export CUDA_VISIBLE_DEVICES=4,5,6,7

vllm serve Qwen/Qwen3-32B \
  --tensor-parallel-size 4 \
  --port 9100 \
  --kv-offloading-size 64 \
  --max-model-len 131072 \
  --max-num-seqs 32 \
  --enable-prefix-caching \
  --reasoning-parser qwen3 \
  --hf-overrides '{"rope_scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}}'
