# vcfg-test: vllm=0.33.0
# vcfg-expect: VC214 7:28
# Worker node of a two-node deployment; the API server count belongs on the head.
vllm serve deepseek-ai/DeepSeek-V3 --headless \
  --data-parallel-size 16 --data-parallel-size-local 8 --data-parallel-start-rank 8 \
  --data-parallel-address 10.20.0.4 --data-parallel-rpc-port 13345 \
  --enable-expert-parallel --api-server-count 8
