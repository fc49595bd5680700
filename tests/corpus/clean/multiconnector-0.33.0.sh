# vcfg-test: vllm=0.33.0
# MultiConnector on a 1P1D pair: NIXL for the prefill->decode transfer and LMCache
# as a shared CPU tier.  The JSON is spread over several lines inside the quotes.
MODEL=meta-llama/Llama-3.1-8B-Instruct
export LMCACHE_CHUNK_SIZE=256
export LMCACHE_LOCAL_CPU=True
export LMCACHE_MAX_LOCAL_CPU_SIZE=30

CUDA_VISIBLE_DEVICES=0 VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve $MODEL \
  --port 8100 \
  --kv-transfer-config '{
    "kv_connector": "MultiConnector",
    "kv_role": "kv_producer",
    "kv_connector_extra_config": {"connectors": [
      {"kv_connector": "NixlConnector", "kv_role": "kv_producer"},
      {"kv_connector": "LMCacheConnectorV1", "kv_role": "kv_producer"}
    ]}
  }' &

CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve $MODEL \
  --port 8200 \
  --kv-transfer-config '{
    "kv_connector": "MultiConnector",
    "kv_role": "kv_consumer",
    "kv_connector_extra_config": {"connectors": [
      {"kv_connector": "NixlConnector", "kv_role": "kv_consumer"},
      {"kv_connector": "LMCacheConnectorV1", "kv_role": "kv_consumer"}
    ]}
  }' &

python3 toy_proxy_server.py --port 8000 --prefiller-ports 8100 --decoder-ports 8200 &
wait
