# vcfg-test: vllm=0.33.0
# vcfg-expect: VC230 4:26
# A model length of 0 (VC230): the bound is >= -1, the model validator wants >= 1.
vllm serve Qwen/Qwen3-8B --max-model-len 0
