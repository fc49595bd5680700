# vcfg-test: vllm=0.33.0
# vcfg-expect: VC101 5:8
# vcfg-expect: VC101 6:1
# VLLM_* variables this release does not define (VC101, with did-you-mean).
export VLLM_NIXL_SIDE_CHANEL_PORT=5601
VLLM_LOGGING_LVL=DEBUG vllm serve Qwen/Qwen3-8B --port 8100 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}'
