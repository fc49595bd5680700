# vcfg-test: vllm=0.20.2
# vcfg-expect: VC209 7:3
# Second node of a 2 x 8 data-parallel deployment; the start rank counts nodes, not ranks.
HEAD_IP=10.20.0.4
vllm serve deepseek-ai/DeepSeek-V3 --headless \
  --data-parallel-size 16 --data-parallel-size-local 8 \
  --data-parallel-start-rank 16 \
  --data-parallel-address $HEAD_IP --data-parallel-rpc-port 13345 \
  --enable-expert-parallel
