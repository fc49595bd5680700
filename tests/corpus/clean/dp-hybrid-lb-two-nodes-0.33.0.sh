# vcfg-test: vllm=0.33.0
# Hybrid load balancing over two 8-GPU nodes: each node runs an API server in front
# of its own 8 data-parallel ranks (EP over all 16); a router in front spreads requests.
NODE_RANK=${NODE_RANK:-0}
export VLLM_LOGGING_LEVEL=INFO
vllm serve deepseek-ai/DeepSeek-V3 --port 8000 \
  --data-parallel-size 16 --data-parallel-size-local 8 \
  --data-parallel-start-rank $((NODE_RANK * 8)) --data-parallel-hybrid-lb \
  --data-parallel-address 10.20.0.4 --data-parallel-rpc-port 13345 \
  --enable-expert-parallel --all2all-backend deepep_low_latency
