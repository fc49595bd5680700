# vcfg-test: vllm=0.33.0
# vcfg-expect: VC008 5:58
# A list option given one comma-joined word (VC008, at the word): this serves one model named
# "qwen3-8b,qwen3" instead of two names.
vllm serve Qwen/Qwen3-8B --port 8000 --served-model-name qwen3-8b,qwen3
