# vcfg-test: vllm=0.33.0
# vcfg-expect: VC209 11:3
# External load balancing over 4 data-parallel ranks, one launch per rank; the
# last rank is numbered 4, but ranks run 0..3.
export VLLM_LOGGING_LEVEL=INFO
for r in 0 1 2; do
  CUDA_VISIBLE_DEVICES=$r vllm serve Qwen/Qwen3-30B-A3B --data-parallel-size 4 \
    --data-parallel-rank $r --port $((8000 + r)) --enable-expert-parallel &
done
CUDA_VISIBLE_DEVICES=3 vllm serve Qwen/Qwen3-30B-A3B --data-parallel-size 4 \
  --data-parallel-rank 4 --port 8003 --enable-expert-parallel &
wait
