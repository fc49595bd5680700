# vcfg-test: vllm=0.33.0
# vcfg-expect: VC024 7:91
# vcfg-expect: VC024 7:126
# JSON values of the wrong type (VC024, at the value): the extra config must be an
# object, kv_port an integer.
vllm serve Qwen/Qwen3-8B --port 8100 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer","kv_port":"auto","kv_connector_extra_config":"backends=UCX"}'
