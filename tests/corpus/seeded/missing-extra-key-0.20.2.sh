# vcfg-test: vllm=0.20.2
# vcfg-expect: VC029 5:103
# From 0.11.2 http_port is needed once a proxy is configured (VC029).
CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-8B --port 20001 \
  --kv-transfer-config '{"kv_connector":"P2pNcclConnector","kv_role":"kv_producer","kv_port":"21001","kv_connector_extra_config":{"proxy_ip":"10.0.0.5","proxy_port":"30001","send_type":"PUT_ASYNC"}}'
