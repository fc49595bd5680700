# vcfg-test: vllm=0.33.0
# vcfg-expect: VC025 6:72
# vcfg-expect: VC025 6:104
# JSON values outside a field's choices (VC025): kv_role and kv_load_failure_policy.
vllm serve Qwen/Qwen3-8B --port 8100 \
  --kv-transfer-config '{"kv_connector":"LMCacheConnectorV1","kv_role":"both","kv_load_failure_policy":"retry"}'
