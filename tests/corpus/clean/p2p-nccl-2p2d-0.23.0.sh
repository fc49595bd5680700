# vcfg-test: vllm=0.23.0
# xPyD with P2pNcclConnector (its last release): two prefill and two decode
# instances of TP 2 on one 8-GPU host.  Each worker binds kv_port + its rank, so the
# kv_port bases are spaced well apart and away from every HTTP port.
MODEL=${MODEL:-Qwen/Qwen3-14B}
PROXY_IP=127.0.0.1
NUM_PREFILL=2
NUM_DECODE=2

python3 disagg_proxy_p2p_nccl_xpyd.py > proxy.log 2>&1 &

for ((i = 0; i < NUM_PREFILL; i++)); do
  http_port=$((20001 + i))
  kv_port=$((21001 + 100 * i))
  CUDA_VISIBLE_DEVICES=$((2 * i)),$((2 * i + 1)) vllm serve $MODEL \
    --port $http_port \
    -tp 2 \
    --max-model-len 16384 \
    --gpu-memory-utilization 0.9 \
    --kv-transfer-config \
    "{\"kv_connector\":\"P2pNcclConnector\",\"kv_role\":\"kv_producer\",\"kv_buffer_size\":\"1e1\",\"kv_port\":\"$kv_port\",\"kv_connector_extra_config\":{\"proxy_ip\":\"$PROXY_IP\",\"proxy_port\":\"30001\",\"http_port\":\"$http_port\",\"send_type\":\"PUT_ASYNC\"}}" \
    > prefill_$i.log 2>&1 &
done

for ((i = 0; i < NUM_DECODE; i++)); do
  http_port=$((20101 + i))
  kv_port=$((22001 + 100 * i))
  CUDA_VISIBLE_DEVICES=$((4 + 2 * i)),$((5 + 2 * i)) vllm serve $MODEL \
    --port $http_port \
    -tp 2 \
    --max-model-len 16384 \
    --gpu-memory-utilization 0.7 \
    --kv-transfer-config \
    "{\"kv_connector\":\"P2pNcclConnector\",\"kv_role\":\"kv_consumer\",\"kv_buffer_size\":\"8e9\",\"kv_port\":\"$kv_port\",\"kv_connector_extra_config\":{\"proxy_ip\":\"$PROXY_IP\",\"proxy_port\":\"30001\",\"http_port\":\"$http_port\",\"send_type\":\"PUT_ASYNC\"}}" \
    > decode_$i.log 2>&1 &
done
wait
