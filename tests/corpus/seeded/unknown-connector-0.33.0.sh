# vcfg-test: vllm=0.33.0
# vcfg-expect: VC027 7:41
# vcfg-expect: VC027 9:41
# Connectors 0.33.0 does not register (VC027): a misspelling, and the pre-0.13 name
# of ExampleConnector.
CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-8B --port 8100 \
  --kv-transfer-config '{"kv_connector":"NixlConector","kv_role":"kv_producer"}' &
CUDA_VISIBLE_DEVICES=1 vllm serve Qwen/Qwen3-8B --port 8200 \
  --kv-transfer-config '{"kv_connector":"SharedStorageConnector","kv_role":"kv_both","kv_connector_extra_config":{"shared_storage_path":"/tmp/kv"}}' &
wait
