# vcfg-test: vllm=0.33.0
# vcfg-expect: VC215 5:3
# One rank per launch (external LB) copied from a hybrid-LB script: the start rank stayed.
vllm serve Qwen/Qwen3-30B-A3B --port 8001 --data-parallel-size 4 --data-parallel-rank 1 \
  --data-parallel-start-rank 1 --data-parallel-address 10.20.0.4 --enable-expert-parallel
