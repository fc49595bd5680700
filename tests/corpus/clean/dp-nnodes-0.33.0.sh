# vcfg-test: vllm=0.33.0
# Two nodes with --nnodes/--node-rank: vLLM derives each node's data-parallel ranks.
if [ "$NODE_RANK" = 0 ]; then
  vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 --data-parallel-size 2 \
    --nnodes 2 --node-rank 0 --master-addr 10.20.0.4 --enable-expert-parallel \
    --enable-eplb --eplb-config '{"num_redundant_experts": 32}'
else
  vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 --data-parallel-size 2 \
    --nnodes 2 --node-rank 1 --master-addr 10.20.0.4 --enable-expert-parallel \
    --enable-eplb --eplb-config '{"num_redundant_experts": 32}' --headless
fi
