# vcfg-test: vllm=0.23.0
# Two Mooncake prefill instances and one decode instance on one host.  The
# bootstrap server is started by each prefill instance, on its own port.
MODEL=Qwen/Qwen3-8B
PREFILL_PORTS=(8010 8011)
BOOTSTRAP_PORTS=(8998 8999)

for i in 0 1; do
  CUDA_VISIBLE_DEVICES=$i \
  VLLM_MOONCAKE_BOOTSTRAP_PORT=${BOOTSTRAP_PORTS[$i]} \
  vllm serve $MODEL \
    --port ${PREFILL_PORTS[$i]} \
    --max-model-len 32768 \
    --kv-transfer-config '{"kv_connector":"MooncakeConnector","kv_role":"kv_producer","kv_connector_extra_config":{"mooncake_protocol":"rdma","num_workers":10}}' &
done

CUDA_VISIBLE_DEVICES=2 vllm serve $MODEL \
  --port 8020 \
  --max-model-len 32768 \
  --kv-transfer-config '{"kv_connector":"MooncakeConnector","kv_role":"kv_consumer","kv_connector_extra_config":{"mooncake_protocol":"rdma"}}' &

# --prefill takes the URL and that instance's bootstrap port; one --prefill each.
python3 mooncake_connector_proxy.py \
  --prefill http://127.0.0.1:8010 8998 \
  --prefill http://127.0.0.1:8011 8999 \
  --decode http://127.0.0.1:8020 \
  --port 8000 &
wait
