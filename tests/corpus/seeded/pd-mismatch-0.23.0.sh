# vcfg-test: vllm=0.23.0
# vcfg-expect: VC303 8:85
# P2pNcclConnector needs the same TP on both sides (VC303, at the decode side's
# value).
python3 disagg_proxy_p2p_nccl_xpyd.py &
CUDA_VISIBLE_DEVICES=0,1 vllm serve Qwen/Qwen3-8B --port 20001 --tensor-parallel-size 2 \
  --kv-transfer-config '{"kv_connector":"P2pNcclConnector","kv_role":"kv_producer","kv_port":"21001","kv_connector_extra_config":{"proxy_ip":"127.0.0.1","proxy_port":"30001","http_port":"20001"}}' &
CUDA_VISIBLE_DEVICES=2 vllm serve Qwen/Qwen3-8B --port 20002 --tensor-parallel-size 1 \
  --kv-transfer-config '{"kv_connector":"P2pNcclConnector","kv_role":"kv_consumer","kv_port":"22001","kv_connector_extra_config":{"proxy_ip":"127.0.0.1","proxy_port":"30001","http_port":"20002"}}' &
wait
