# vcfg-test: vllm=0.33.0
# vcfg-expect: VC302 5:75
# Two servers on one host and one port (VC302, at the later port).
CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-8B --port 8100 &
CUDA_VISIBLE_DEVICES=1 vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8100 &
wait
