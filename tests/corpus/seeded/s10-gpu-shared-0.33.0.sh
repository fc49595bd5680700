# vcfg-test: vllm=0.33.0
# vcfg-expect: VC306 7:22
# user-pain 5.6 / section 10 (their VC045): two instances on GPU 0 with the default
# --gpu-memory-utilization 0.9 each (our VC306; nothing written, so at the later
# launch's CUDA_VISIBLE_DEVICES value).
CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-0.6B --port 8001 &
CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-1.7B --port 8002 &
wait
