# vcfg-test: vllm=0.20.2
# vcfg-expect: VC215 4:29
vllm serve Qwen/Qwen3-30B-A3B --port 8000 --data-parallel-size 4 --data-parallel-size-local 2 \
  --data-parallel-hybrid-lb --data-parallel-external-lb --enable-expert-parallel
