# vcfg-test: vllm=0.23.0
# vcfg-expect: VC028 5:115
# An extra-config key MooncakeConnector never reads (VC028): "mooncake_protocl".
CUDA_VISIBLE_DEVICES=1 VLLM_MOONCAKE_BOOTSTRAP_PORT=9000 vllm serve Qwen/Qwen3-8B --port 8200 \
  --kv-transfer-config '{"kv_connector":"MooncakeConnector","kv_role":"kv_producer","kv_connector_extra_config":{"mooncake_protocl":"tcp"}}'
