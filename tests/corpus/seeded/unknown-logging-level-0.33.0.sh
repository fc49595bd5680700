# vcfg-test: vllm=0.33.0
# vcfg-expect: VC110 4:27
# A logging level Python's logging does not know (VC110).
export VLLM_LOGGING_LEVEL=LOUD
vllm serve Qwen/Qwen3-8B --port 8000
