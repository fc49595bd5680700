# vcfg-test: vllm=0.33.0
# vcfg-expect: VC027 6:41
# user-pain 3.4 / section 10 (their VC023): P2pNcclConnector is not registered from
# 0.24.0 (our VC027).
vllm serve Qwen/Qwen3-8B --port 20001 \
  --kv-transfer-config '{"kv_connector":"P2pNcclConnector","kv_role":"kv_producer"}'
