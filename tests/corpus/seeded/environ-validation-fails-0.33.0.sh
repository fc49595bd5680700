# vcfg-test: vllm=0.33.0
# vcfg-expect: VC232 4:8
# An unknown VLLM_* name with --fail-on-environ-validation stops the engine config (VC232).
export VLLM_ENGINE_READY_TIMEOUT=1200
vllm serve Qwen/Qwen3-8B --fail-on-environ-validation
