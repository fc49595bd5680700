# vcfg-test: vllm=0.33.0
# vcfg-expect: VC105 5:8
# A variable exported after the only launch, where it has no effect (VC105).
vllm serve Qwen/Qwen3-8B --port 8000 > server.log 2>&1 &
export VLLM_LOGGING_LEVEL=DEBUG
wait
