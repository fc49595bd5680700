# vcfg-test: vllm=0.33.0
# vcfg-expect: VC021 6:26
# The same copy-paste damage inside the JSON: curly double quotes (our VC021),
# reported at the first one.
vllm serve Qwen/Qwen3-8B --port 8100 \
  --kv-transfer-config '{“kv_connector”:“NixlConnector”,“kv_role”:“kv_producer”}'
