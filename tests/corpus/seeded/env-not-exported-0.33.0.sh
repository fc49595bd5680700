# vcfg-test: vllm=0.33.0
# vcfg-expect: VC104 6:1
# A plain assignment of a VLLM_* variable that the launch never sees (VC104); the
# MODEL shell variable is only used by the script and is fine.
MODEL=Qwen/Qwen3-8B
VLLM_LOGGING_LEVEL=DEBUG
vllm serve $MODEL --port 8000
