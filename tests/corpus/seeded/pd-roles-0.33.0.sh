# vcfg-test: vllm=0.33.0
# vcfg-expect: VC301 6:67
# Both instances are consumers: nothing produces KV (VC301, at the role of the
# instance the proxy uses as prefiller).
CUDA_VISIBLE_DEVICES=0 VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve Qwen/Qwen3-8B --port 8100 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}' &
CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve Qwen/Qwen3-8B --port 8200 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}' &
python3 toy_proxy_server.py --port 8000 --prefiller-ports 8100 --decoder-ports 8200
