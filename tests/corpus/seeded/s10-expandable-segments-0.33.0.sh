# vcfg-test: vllm=0.33.0
# vcfg-expect: VC108 5:25
# user-pain 2.5 / section 10 (their VC105): expandable segments with a KV connector
# and no cumem allocator (our VC108, at the value).
PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True vllm serve Qwen/Qwen3-8B \
  --kv-transfer-config '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both"}'
