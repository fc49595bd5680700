# vcfg-test: vllm=0.33.0
# vcfg-expect: VC235 5:26
# vcfg-expect: VC236 6:26
# Detailed traces without a collector (VC235); speculative metrics without speculation (VC236).
vllm serve Qwen/Qwen3-8B --collect-detailed-traces all --port 8000
vllm serve Qwen/Qwen3-8B --per-request-spec-decode-metrics summary --port 8001
