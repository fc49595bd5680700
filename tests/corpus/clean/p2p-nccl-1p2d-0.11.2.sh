# vcfg-test: vllm=0.11.2
# One prefill and two decode instances with P2pNcclConnector on one 4-GPU host
# (TP 1 everywhere: the connector needs the same TP on both sides).  Every value in
# kv_connector_extra_config is a JSON string, as the connector concatenates them.
MODEL=Qwen/Qwen3-8B
PROXY_IP=127.0.0.1
PROXY_ZMQ_PORT=30001

python3 disagg_proxy_p2p_nccl_xpyd.py &

export VLLM_HOST_IP=127.0.0.1

CUDA_VISIBLE_DEVICES=0 nohup vllm serve $MODEL \
  --port 20001 \
  --max-model-len 8192 \
  --max-num-batched-tokens 8192 \
  --gpu-memory-utilization 0.9 \
  --kv-transfer-config "{\"kv_connector\":\"P2pNcclConnector\",\"kv_role\":\"kv_producer\",\"kv_buffer_size\":1e1,\"kv_port\":21001,\"kv_connector_extra_config\":{\"proxy_ip\":\"$PROXY_IP\",\"proxy_port\":\"$PROXY_ZMQ_PORT\",\"http_port\":\"20001\",\"send_type\":\"PUT_ASYNC\",\"nccl_num_channels\":\"16\"}}" \
  > p0.log 2>&1 &

for i in 1 2; do
  CUDA_VISIBLE_DEVICES=$i nohup vllm serve $MODEL \
    --port $((20001 + i)) \
    --max-model-len 8192 \
    --max-num-batched-tokens 8192 \
    --gpu-memory-utilization 0.7 \
    --kv-transfer-config "{\"kv_connector\":\"P2pNcclConnector\",\"kv_role\":\"kv_consumer\",\"kv_buffer_size\":8e9,\"kv_port\":$((22001 + 1000 * i)),\"kv_connector_extra_config\":{\"proxy_ip\":\"$PROXY_IP\",\"proxy_port\":\"$PROXY_ZMQ_PORT\",\"http_port\":\"$((20001 + i))\",\"send_type\":\"PUT_ASYNC\",\"nccl_num_channels\":\"16\"}}" \
    > d$i.log 2>&1 &
done
wait
