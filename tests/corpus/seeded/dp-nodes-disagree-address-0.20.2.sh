# vcfg-test: vllm=0.20.2
# vcfg-expect: VC307 9:8
# The worker branch forgot the head address, so it looks for the head on 127.0.0.1.
if [ "$ROLE" = head ]; then
  vllm serve Qwen/Qwen3-235B-A22B --port 8000 -tp 4 \
    --data-parallel-size 4 --data-parallel-size-local 2 \
    --data-parallel-address 10.20.0.4 --data-parallel-rpc-port 13345 --enable-expert-parallel
else
  vllm serve Qwen/Qwen3-235B-A22B --headless -tp 4 \
    --data-parallel-size 4 --data-parallel-size-local 2 --data-parallel-start-rank 2 \
    --data-parallel-rpc-port 13345 --enable-expert-parallel
fi
