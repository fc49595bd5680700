# vcfg-test: vllm=0.11.2
# vcfg-expect: VC210 4:27
vllm serve deepseek-ai/DeepSeek-V3 --port 8000 \
  --data-parallel-size 16 --data-parallel-hybrid-lb \
  --data-parallel-address 10.20.0.4 --data-parallel-rpc-port 13345 \
  --enable-expert-parallel
