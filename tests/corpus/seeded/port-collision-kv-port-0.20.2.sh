# vcfg-test: vllm=0.20.2
# vcfg-expect: VC302 9:94
# P2pNcclConnector binds kv_port + rank for every worker: the TP 2 prefill takes
# 21001-21002, so the decode's kv_port 21002 collides (VC302, at the later kv_port value).
python3 disagg_proxy_p2p_nccl_xpyd.py &
CUDA_VISIBLE_DEVICES=0,1 vllm serve Qwen/Qwen3-8B --port 20001 -tp 2 \
  --kv-transfer-config '{"kv_connector":"P2pNcclConnector","kv_role":"kv_producer","kv_port":"21001","kv_connector_extra_config":{"proxy_ip":"127.0.0.1","proxy_port":"30001","http_port":"20001"}}' &
CUDA_VISIBLE_DEVICES=2,3 vllm serve Qwen/Qwen3-8B --port 20002 -tp 2 \
  --kv-transfer-config '{"kv_connector":"P2pNcclConnector","kv_role":"kv_consumer","kv_port":"21002","kv_connector_extra_config":{"proxy_ip":"127.0.0.1","proxy_port":"30001","http_port":"20002"}}' &
wait
