# vcfg-test: vllm=0.33.0
# vcfg-expect: VC006 8:28
# vcfg-expect: VC006 9:26
# Values outside the config field's bounds (VC006, at the value): gpu_memory_utilization is in
# (0, 1], tensor_parallel_size >= 1.
vllm serve Qwen/Qwen3-8B \
  --port 8000 \
  --gpu-memory-utilization 1.2 \
  --tensor-parallel-size 0
