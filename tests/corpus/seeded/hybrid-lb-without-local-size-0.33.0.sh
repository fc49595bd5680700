# vcfg-test: vllm=0.33.0
# vcfg-expect: VC210 5:27
# Hybrid LB: each node runs its own API server for its ranks.
vllm serve deepseek-ai/DeepSeek-V3 --port 8000 \
  --data-parallel-size 16 --data-parallel-hybrid-lb \
  --data-parallel-start-rank 8 \
  --data-parallel-address 10.20.0.4 --data-parallel-rpc-port 13345 \
  --enable-expert-parallel
