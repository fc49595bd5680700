# vcfg-test: vllm=0.10.2
# vcfg-expect: VC029 6:103
# P2pNcclConnector of 0.10.x reads http_port unconditionally: without it the worker
# dies with a KeyError (VC029, at the extra-config key).
CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen2.5-7B-Instruct --port 20002 \
  --kv-transfer-config '{"kv_connector":"P2pNcclConnector","kv_role":"kv_consumer","kv_port":"22001","kv_connector_extra_config":{"proxy_ip":"10.0.0.5","proxy_port":"30001"}}'
