# vcfg-test: vllm=0.13.0
# MultiConnector: NIXL moves KV from prefill to decode, LMCache keeps a CPU copy.
# Each child is a full KVTransferConfig with its own connector and role.
set -e
MODEL="meta-llama/Llama-3.1-8B-Instruct"
KV_CONFIG='{
  "kv_connector": "MultiConnector",
  "kv_role": "kv_both",
  "kv_connector_extra_config": {
    "connectors": [
      {"kv_connector": "NixlConnector", "kv_role": "kv_both"},
      {"kv_connector": "LMCacheConnectorV1", "kv_role": "kv_both"}
    ]
  }
}'

export LMCACHE_CHUNK_SIZE=256
export LMCACHE_LOCAL_CPU=True
export LMCACHE_MAX_LOCAL_CPU_SIZE=20

CUDA_VISIBLE_DEVICES=0 VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve "$MODEL" \
  --port 8100 \
  --gpu-memory-utilization 0.8 \
  --kv-transfer-config "$KV_CONFIG" > prefill.log 2>&1 &

CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve "$MODEL" \
  --port 8200 \
  --gpu-memory-utilization 0.8 \
  --kv-transfer-config "$KV_CONFIG" > decode.log 2>&1 &

python3 toy_proxy_server.py --port 9000 --prefiller-ports 8100 --decoder-ports 8200 &
wait
