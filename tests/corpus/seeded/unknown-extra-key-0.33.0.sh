# vcfg-test: vllm=0.33.0
# vcfg-expect: VC028 5:111
# An extra-config key the connector never reads (VC028): "backend" for "backends".
CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-8B --port 8100 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer","kv_connector_extra_config":{"backend":["UCX"]}}'
