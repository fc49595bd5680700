# vcfg-test: vllm=0.33.0
# vcfg-expect: VC212 5:14
# The second of two nodes, counted from 1.
vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 --data-parallel-size 2 \
  --nnodes 2 --node-rank 2 --master-addr 10.20.0.4 --headless --enable-expert-parallel
