# vcfg-test: vllm=0.33.0
# vcfg-expect: VC227 5:3
# A long-prefill threshold above the model length (VC227).
vllm serve Qwen/Qwen3-8B --max-model-len 8192 \
  --long-prefill-token-threshold 16384
