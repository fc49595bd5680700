# vcfg-test: vllm=0.33.0
# vcfg-expect: VC306 6:88
# Two instances share GPU 0 with 0.6 + 0.5 of its memory (VC306, at the later
# --gpu-memory-utilization value).
CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-1.7B --port 8001 --gpu-memory-utilization 0.6 &
CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-0.6B --port 8002 --gpu-memory-utilization 0.5 &
wait
