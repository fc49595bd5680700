# vcfg-test: vllm=0.33.0
# vcfg-expect: VC307 13:64
# One script for both nodes of a 2 x 8 data-parallel deployment; NODE_RANK picks the branch.
MODEL=deepseek-ai/DeepSeek-V3
if [ "${NODE_RANK:-0}" -eq 0 ]; then
  vllm serve $MODEL --port 8000 \
    --data-parallel-size 16 --data-parallel-size-local 8 \
    --data-parallel-address 10.20.0.4 --data-parallel-rpc-port 13345 \
    --enable-expert-parallel
else
  vllm serve $MODEL --headless \
    --data-parallel-size 16 --data-parallel-size-local 8 --data-parallel-start-rank 8 \
    --data-parallel-address 10.20.0.4 --data-parallel-rpc-port 13346 \
    --enable-expert-parallel
fi
