# vcfg-test: vllm=0.27.1
# A TP 16 decode instance over two 8-GPU nodes (multi-node TP with --nnodes), the
# other half started headless on the second node; KV arrives over NIXL.
NODE_RANK=${NODE_RANK:-0}
MASTER=10.2.0.21
MODEL=deepseek-ai/DeepSeek-V3

export VLLM_NIXL_SIDE_CHANNEL_HOST=$(hostname -i)
export NCCL_IB_HCA=mlx5

if [ "$NODE_RANK" = "0" ]; then
  vllm serve $MODEL \
    --tensor-parallel-size 16 \
    --nnodes 2 --node-rank 0 \
    --master-addr $MASTER --master-port 29501 \
    --port 8200 \
    --trust-remote-code \
    --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}'
else
  vllm serve $MODEL \
    --tensor-parallel-size 16 \
    --nnodes 2 --node-rank 1 \
    --master-addr $MASTER --master-port 29501 \
    --headless \
    --trust-remote-code \
    --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}'
fi
