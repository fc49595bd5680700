# vcfg-test: vllm=0.13.0
# vcfg-expect: VC022 6:78
# An unknown KVTransferConfig key before 0.16, which vLLM silently drops (VC022 as a
# warning): the extra config never reaches the connector.
vllm serve Qwen/Qwen3-8B --port 8100 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both","kv_extra_config":{"backends":["UCX"]}}'
