# vcfg-test: vllm=0.20.2
# vcfg-expect: VC030 9:167
# vcfg-expect: VC030 9:205
# vcfg-expect: VC030 9:232
# Extra-config values that parse but fail later (VC030): proxy_port and
# nccl_num_channels must be JSON strings, send_type one of PUT, GET, PUT_ASYNC.
python3 disagg_proxy_p2p_nccl_xpyd.py &
CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-8B --port 20001 \
  --kv-transfer-config '{"kv_connector":"P2pNcclConnector","kv_role":"kv_producer","kv_port":"21001","kv_connector_extra_config":{"proxy_ip":"127.0.0.1","proxy_port":30001,"http_port":"20001","send_type":"PUSH","nccl_num_channels":16}}' &
CUDA_VISIBLE_DEVICES=1 vllm serve Qwen/Qwen3-8B --port 20002 \
  --kv-transfer-config '{"kv_connector":"P2pNcclConnector","kv_role":"kv_consumer","kv_port":"22001","kv_connector_extra_config":{"proxy_ip":"127.0.0.1","proxy_port":"30001","http_port":"20002"}}' &
wait
