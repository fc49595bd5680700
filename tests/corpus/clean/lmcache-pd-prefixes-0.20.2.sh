# vcfg-test: vllm=0.20.2
# LMCache-driven 1P1D: LMCache moves the KV (its own NIXL channel, configured in
# the two YAML files); vLLM sees LMCacheConnectorV1 on both sides.  One variable per
# continuation line before each command.  The extra-config keys are read by the
# lmcache package, which the connector hands the whole config to.
MODEL=${1:-meta-llama/Llama-3.1-8B-Instruct}
PREFILL_CONFIG=configs/lmcache-prefiller.yaml
DECODE_CONFIG=configs/lmcache-decoder.yaml

UCX_TLS=cuda_ipc,cuda_copy,tcp \
    LMCACHE_CONFIG_FILE=$PREFILL_CONFIG \
    VLLM_ENABLE_V1_MULTIPROCESSING=1 \
    VLLM_WORKER_MULTIPROC_METHOD=spawn \
    CUDA_VISIBLE_DEVICES=0 \
    vllm serve $MODEL \
    --port 7100 \
    --enforce-eager \
    --kv-transfer-config \
    '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_producer","kv_connector_extra_config":{"discard_partial_chunks":false,"lmcache_rpc_port":"producer1"}}' \
    > prefiller.log 2>&1 &

UCX_TLS=cuda_ipc,cuda_copy,tcp \
    LMCACHE_CONFIG_FILE=$DECODE_CONFIG \
    VLLM_ENABLE_V1_MULTIPROCESSING=1 \
    VLLM_WORKER_MULTIPROC_METHOD=spawn \
    CUDA_VISIBLE_DEVICES=1 \
    vllm serve $MODEL \
    --port 7200 \
    --enforce-eager \
    --kv-transfer-config \
    '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_consumer","kv_connector_extra_config":{"discard_partial_chunks":false,"lmcache_rpc_port":"consumer1"}}' \
    > decoder.log 2>&1 &

python3 disagg_proxy_server.py --host localhost --port 9000 \
    --prefiller-host localhost --prefiller-port 7100 \
    --decoder-host localhost --decoder-port 7200 &
wait
