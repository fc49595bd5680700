# vcfg-test: vllm=0.13.0
# vcfg-expect: VC214 6:28
vllm serve deepseek-ai/DeepSeek-V3 --headless \
  --data-parallel-size 16 --data-parallel-size-local 8 --data-parallel-start-rank 8 \
  --data-parallel-address 10.20.0.4 --data-parallel-rpc-port 13345 \
  --enable-expert-parallel --api-server-count 4
