# vcfg-test: vllm=0.33.0
# vcfg-expect: VC216 4:59
# The head of 2 x 8 ranks, with the two sizes swapped.
vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 8 --data-parallel-size-local 16 \
  --data-parallel-address 10.20.0.4 --enable-expert-parallel
