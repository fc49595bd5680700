# vcfg-test: vllm=0.20.2
# vcfg-expect: VC304 9:187
# http_port must be the instance's own --port: the proxy sends requests there
# (VC304, at the value).
python3 disagg_proxy_p2p_nccl_xpyd.py &
CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-8B --port 20001 \
  --kv-transfer-config '{"kv_connector":"P2pNcclConnector","kv_role":"kv_producer","kv_port":"21001","kv_connector_extra_config":{"proxy_ip":"127.0.0.1","proxy_port":"30001","http_port":"20001"}}' &
CUDA_VISIBLE_DEVICES=1 vllm serve Qwen/Qwen3-8B --port 20002 \
  --kv-transfer-config '{"kv_connector":"P2pNcclConnector","kv_role":"kv_consumer","kv_port":"22001","kv_connector_extra_config":{"proxy_ip":"127.0.0.1","proxy_port":"30001","http_port":"20003"}}' &
wait
