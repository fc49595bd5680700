# vcfg-test: vllm=0.13.0
# vcfg-expect: VC213 4:28
vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 --data-parallel-size 2 \
  --nnodes 2 --node-rank 0 --data-parallel-backend ray --enable-expert-parallel
