# vcfg-test: vllm=0.33.0
# vcfg-expect: VC302 8:41
# user-pain 4.1 / section 10 (their VC030): two NIXL instances on one host, both on
# the default handshake port 5600 (our VC302, at the later launch's connector name).
CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-8B --port 8100 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}' &
CUDA_VISIBLE_DEVICES=1 vllm serve Qwen/Qwen3-8B --port 8200 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}' &
python3 toy_proxy_server.py --port 8000 --prefiller-ports 8100 --decoder-ports 8200
