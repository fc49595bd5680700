# vcfg-test: vllm=0.13.0
# 1P1D over the Mooncake transfer engine (TP 2 each, one 4-GPU host).  In this
# release every TP worker listens on VLLM_MOONCAKE_BOOTSTRAP_PORT + tp_rank, so the
# two instances get bases far apart.
MODEL=deepseek-ai/DeepSeek-V2-Lite-Chat
HOST_IP=$(hostname -I | awk '{print $1}')

CUDA_VISIBLE_DEVICES=0,1 VLLM_MOONCAKE_BOOTSTRAP_PORT=8998 \
  vllm serve $MODEL \
  --port 8010 \
  -tp 2 \
  --trust-remote-code \
  --max-model-len 8192 \
  --kv-transfer-config '{"kv_connector":"MooncakeConnector","kv_role":"kv_producer","kv_connector_extra_config":{"num_workers":8}}' &

CUDA_VISIBLE_DEVICES=2,3 VLLM_MOONCAKE_BOOTSTRAP_PORT=9010 \
  vllm serve $MODEL \
  --port 8020 \
  -tp 2 \
  --trust-remote-code \
  --max-model-len 8192 \
  --kv-transfer-config '{"kv_connector":"MooncakeConnector","kv_role":"kv_consumer"}' &

python3 toy_proxy_server.py --host 0.0.0.0 --port 8000 \
  --prefiller-host "$HOST_IP" --prefiller-port 8010 \
  --decoder-host "$HOST_IP" --decoder-port 8020 &
wait
