# vcfg-test: vllm=0.33.0
# vcfg-expect: VC221 3:79
CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-30B-A3B --enable-expert-parallel --enable-eplb --port 8000
