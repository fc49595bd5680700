# vcfg-test: vllm=0.33.0
# vcfg-expect: VC301 10:9
# user-pain 4.2 / section 10 (their VC031): NIXL behind a proxy that does not pass
# kv_transfer_params, so decode recomputes every prefill (our VC301, proxy wiring,
# at the proxy script).
CUDA_VISIBLE_DEVICES=0 VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve Qwen/Qwen3-8B --port 8100 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}' &
CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve Qwen/Qwen3-8B --port 8200 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}' &
python3 disagg_proxy_demo.py --model Qwen/Qwen3-8B --prefill localhost:8100 --decode localhost:8200 --port 8000
