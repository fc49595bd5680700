# vcfg-test: vllm=0.27.1
# vcfg-expect: VC211 3:45
vllm serve Qwen/Qwen3-235B-A22B -tp 4 -dp 3 --nnodes 8 --node-rank 0 \
  --master-addr 10.20.0.4 --enable-expert-parallel
