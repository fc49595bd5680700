# vcfg-test: vllm=0.20.2
# Data parallel over two 8-GPU nodes: 4 DP ranks of TP 2 on each node.  The same
# script runs on both nodes; NODE_RANK picks the branch.
NODE_RANK=${NODE_RANK:-0}
HEAD_IP=${HEAD_IP:-10.1.0.11}
MODEL=deepseek-ai/DeepSeek-V2-Lite

export VLLM_LOGGING_LEVEL=INFO
export NCCL_SOCKET_IFNAME=eth0
export GLOO_SOCKET_IFNAME=eth0

if [ "$NODE_RANK" -eq 0 ]; then
  vllm serve $MODEL \
    --trust-remote-code \
    --tensor-parallel-size 2 \
    --data-parallel-size 8 \
    --data-parallel-size-local 4 \
    --data-parallel-address $HEAD_IP \
    --data-parallel-rpc-port 13345 \
    --enable-expert-parallel \
    --api-server-count 2 \
    --port 8000
else
  vllm serve $MODEL \
    --trust-remote-code \
    --headless \
    --tensor-parallel-size 2 \
    --data-parallel-size 8 \
    --data-parallel-size-local 4 \
    --data-parallel-start-rank 4 \
    --data-parallel-address $HEAD_IP \
    --data-parallel-rpc-port 13345 \
    --enable-expert-parallel
fi
