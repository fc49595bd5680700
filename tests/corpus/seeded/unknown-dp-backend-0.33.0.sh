# vcfg-test: vllm=0.33.0
# vcfg-expect: VC224 3:78
vllm serve Qwen/Qwen3-30B-A3B --data-parallel-size 4 --data-parallel-backend multiprocessing \
  --enable-expert-parallel --port 8000
