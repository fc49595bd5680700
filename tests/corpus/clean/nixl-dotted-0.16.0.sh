# vcfg-test: vllm=0.16.0
# 1P1D over NIXL, the KV transfer config given one key at a time in the dotted
# form; vLLM merges the pieces into one JSON object before parsing.
MODEL=Qwen/Qwen3-4B
export VLLM_WORKER_MULTIPROC_METHOD=spawn

CUDA_VISIBLE_DEVICES=0 VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve $MODEL \
  --port 8100 \
  --max-model-len 16k \
  --kv-transfer-config.kv_connector NixlConnector \
  --kv-transfer-config.kv_role kv_producer &

CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve $MODEL \
  --port 8200 \
  --max-model-len 16k \
  --kv-transfer-config.kv_connector NixlConnector \
  --kv-transfer-config.kv_role kv_consumer &

python toy_proxy_server.py --port 8000 \
  --prefiller-hosts 127.0.0.1 --prefiller-ports 8100 \
  --decoder-hosts 127.0.0.1 --decoder-ports 8200
