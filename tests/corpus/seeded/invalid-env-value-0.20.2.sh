# vcfg-test: vllm=0.20.2
# vcfg-expect: VC102 7:25
# vcfg-expect: VC102 8:27
# vcfg-expect: VC102 9:37
# Values vLLM cannot parse (VC102, at the value): an integer with a unit, a bool-as-int given
# "true", and a value outside the choices (spawn, fork).
export VLLM_RPC_TIMEOUT=10min
export VLLM_USE_DEEP_GEMM=true
export VLLM_WORKER_MULTIPROC_METHOD=forkserver
vllm serve Qwen/Qwen3-8B --port 8000
