# vcfg-test: vllm=0.33.0
# vcfg-expect: VC020 7:82
# vcfg-expect: VC020 8:44
# JSON that does not parse (VC020, at the character where parsing fails): a
# trailing comma, and an unquoted enum name.
vllm serve Qwen/Qwen3-8B --port 8100 \
  --kv-transfer-config '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both",}' \
  --compilation-config '{"cudagraph_mode": FULL_AND_PIECEWISE}'
