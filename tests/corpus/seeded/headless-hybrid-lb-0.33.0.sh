# vcfg-test: vllm=0.33.0
# vcfg-expect: VC225 5:3
vllm serve deepseek-ai/DeepSeek-V3 --headless \
  --data-parallel-size 16 --data-parallel-size-local 8 --data-parallel-start-rank 8 \
  --data-parallel-hybrid-lb \
  --data-parallel-address 10.20.0.4 --enable-expert-parallel
