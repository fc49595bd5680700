# vcfg-test: vllm=0.33.0
# vcfg-expect: VC109 5:36
# A yes-like value for a variable vLLM compares with "1" only: read as false,
# which turns off a default-on setting (VC109).
export VLLM_USE_STANDALONE_COMPILE=true
export VLLM_ALLOW_LONG_MAX_MODEL_LEN=1
vllm serve Qwen/Qwen3-8B --port 8100
