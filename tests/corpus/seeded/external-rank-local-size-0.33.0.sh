# vcfg-test: vllm=0.33.0
# vcfg-expect: VC219 4:3
vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 16 --data-parallel-rank 8 \
  --data-parallel-size-local 8 --data-parallel-address 10.20.0.4 --enable-expert-parallel
