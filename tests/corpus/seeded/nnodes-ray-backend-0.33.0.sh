# vcfg-test: vllm=0.33.0
# vcfg-expect: VC213 5:14
# Ray places the ranks itself; --nnodes is for per-node mp launches.
vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 --data-parallel-size 2 \
  --nnodes 2 --data-parallel-backend ray --enable-expert-parallel
