# vcfg-test: vllm=0.33.0
# vcfg-expect: VC023 6:82
# user-pain 3.3 / section 10 (their VC022): kv_buffer_size left KVTransferConfig in
# 0.32.0 (our VC023).
vllm serve Qwen/Qwen3-8B --port 8100 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer","kv_buffer_size":5e9}'
