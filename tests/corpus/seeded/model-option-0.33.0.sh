# vcfg-test: vllm=0.33.0
# vcfg-expect: VC010 5:35
# --model given to vllm serve (VC010); the api_server module takes --model and is
# fine.
CUDA_VISIBLE_DEVICES=0 vllm serve --model Qwen/Qwen3-8B --port 8000 &
CUDA_VISIBLE_DEVICES=1 python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-8B --port 8001 &
wait
