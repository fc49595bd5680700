# vcfg-test: vllm=0.33.0
# Single-node serving with many options.  Also: the underscore spelling of an option
# is accepted, --disable-log-requests is a valid spelling again in this release, and
# VLLM_BUILD_COMMIT is one of its registered variables.
export VLLM_LOGGING_LEVEL=INFO
export VLLM_CACHE_ROOT=/scratch/vllm-cache
export HF_HUB_OFFLINE=1

VLLM_BUILD_COMMIT=abc1234 \
CUDA_VISIBLE_DEVICES=0,1,2,3 \
vllm serve deepseek-ai/DeepSeek-R1-Distill-Qwen-32B \
  --host 0.0.0.0 \
  --port 8000 \
  --served-model-name r1-32b \
  --tensor-parallel-size 4 \
  --dtype bfloat16 \
  --max-model-len 32k \
  --max-num-seqs 64 \
  --max-num-batched-tokens 8192 \
  --gpu-memory-utilization 0.92 \
  --enable-prefix-caching \
  --enable-chunked-prefill \
  --reasoning-parser deepseek_r1 \
  --speculative_config '{"method":"ngram","num_speculative_tokens":3}' \
  --disable-log-requests \
  --uvicorn-log-level info \
  --api-key "$API_KEY" \
  --seed 0 \
  --trust-remote-code
