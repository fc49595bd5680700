# vcfg-test: vllm=0.33.0
# Mooncake 1P1D on two hosts, run from the prefill host: the decode instance is
# started over ssh.  Only the prefill instance runs a bootstrap server.
PREFILL_HOST=192.168.0.2
DECODE_HOST=192.168.0.3
MODEL=Qwen/Qwen2.5-7B-Instruct

export VLLM_MOONCAKE_BOOTSTRAP_PORT=8998

vllm serve $MODEL --port 8010 \
  --kv-transfer-config '{"kv_connector":"MooncakeConnector","kv_role":"kv_producer","kv_connector_extra_config":{"mooncake_protocol":"rdma","device_name":"mlx5_0"}}' \
  > prefill.log 2>&1 &

ssh $DECODE_HOST "vllm serve $MODEL --port 8020 --kv-transfer-config '{\"kv_connector\":\"MooncakeConnector\",\"kv_role\":\"kv_consumer\"}'" \
  > decode.log 2>&1 &

python3 mooncake_connector_proxy.py \
  --prefill http://$PREFILL_HOST:8010 8998 \
  --decode http://$DECODE_HOST:8020 \
  --host 0.0.0.0 --port 8000
