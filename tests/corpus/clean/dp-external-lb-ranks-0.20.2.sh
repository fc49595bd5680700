# vcfg-test: vllm=0.20.2
# External load balancing: one launch per data-parallel rank on one 4-GPU node, each
# with its own HTTP port, behind the user's own balancer.
for r in 0 1 2 3; do
  CUDA_VISIBLE_DEVICES=$r vllm serve Qwen/Qwen3-30B-A3B --data-parallel-size 4 \
    --data-parallel-rank $r --port $((8000 + r)) --enable-expert-parallel > rank$r.log 2>&1 &
done
wait
