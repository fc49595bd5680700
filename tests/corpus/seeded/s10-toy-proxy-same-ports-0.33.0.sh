# vcfg-test: vllm=0.33.0
# vcfg-expect: VC301 10:67
# vcfg-expect: VC305 12:45
# user-pain 4.3 / section 10 (their VC032): both proxy endpoints on 20002.  The
# proxy sends prefills to the kv_consumer (our VC301, at that instance's kv_role),
# and its decoder upstream repeats a prefiller upstream (our VC305, at the later one).
CUDA_VISIBLE_DEVICES=0 VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve Qwen/Qwen3-8B --port 20001 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}' &
CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve Qwen/Qwen3-8B --port 20002 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}' &
python3 toy_proxy_server.py --port 8000 --prefiller-hosts 127.0.0.1 --prefiller-ports 20002 \
  --decoder-hosts 127.0.0.1 --decoder-ports 20002
