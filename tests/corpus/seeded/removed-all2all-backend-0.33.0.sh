# vcfg-test: vllm=0.33.0
# vcfg-expect: VC223 4:21
vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 8 --enable-expert-parallel \
  --all2all-backend pplx --port 8000
