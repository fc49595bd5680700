# vcfg-test: vllm=0.33.0
# vcfg-expect: VC026 8:27
# vcfg-expect: VC022 8:58
# user-pain 3.1 / section 10 (their VC020): "kv_producer" written as a key instead of
# kv_role: an unknown key (our VC022, an error from 0.16) and a connector without a
# role (our VC026, reported on the kv_connector key).
vllm serve Qwen/Qwen3-8B --port 8100 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_producer":"kv_consumer"}'
