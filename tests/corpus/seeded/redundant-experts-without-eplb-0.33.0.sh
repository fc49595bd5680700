# vcfg-test: vllm=0.33.0
# vcfg-expect: VC222 4:65
vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 8 --enable-expert-parallel \
  --eplb-config '{"window_size": 1000, "num_redundant_experts": 32}' --port 8000
