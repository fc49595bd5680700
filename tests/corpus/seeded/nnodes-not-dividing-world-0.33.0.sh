# vcfg-test: vllm=0.33.0
# vcfg-expect: VC211 6:3
# Two TP-8 replicas spread with --nnodes over three nodes: 16 GPUs do not split in three.
NODE_RANK=${NODE_RANK:-0}
vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 --data-parallel-size 2 \
  --nnodes 3 --node-rank "$NODE_RANK" --master-addr 10.20.0.4 --enable-expert-parallel
