# vcfg-test: vllm=0.20.2
# 1P1D with P2pNcclConnector across two hosts; this script starts one side, chosen
# by its first argument.  The proxy address is spliced into the JSON between quotes.
ROLE=$1
PROXY_IP=${PROXY_IP:-10.254.11.128}
MODEL=/models/Qwen3-30B-A3B

export VLLM_HOST_IP=$(hostname -I | awk '{print $1}')

if [[ $ROLE == "prefill" ]]; then
  vllm serve $MODEL \
    --host 0.0.0.0 \
    --port 20001 \
    --tensor-parallel-size 4 \
    --max-model-len 16384 \
    --max-num-batched-tokens 16384 \
    --enable-expert-parallel \
    --kv-transfer-config \
    '{"kv_connector":"P2pNcclConnector","kv_role":"kv_producer","kv_buffer_size":"1e1","kv_port":"21001","kv_connector_extra_config":{"proxy_ip":"'"$PROXY_IP"'","proxy_port":"30001","http_port":"20001","send_type":"PUT_ASYNC"}}' \
    > prefill.log 2>&1 &
elif [[ $ROLE == "decode" ]]; then
  vllm serve $MODEL \
    --host 0.0.0.0 \
    --port 20002 \
    --tensor-parallel-size 4 \
    --max-model-len 16384 \
    --max-num-batched-tokens 16384 \
    --enable-expert-parallel \
    --kv-transfer-config \
    '{"kv_connector":"P2pNcclConnector","kv_role":"kv_consumer","kv_buffer_size":"8e9","kv_port":"22001","kv_connector_extra_config":{"proxy_ip":"'"$PROXY_IP"'","proxy_port":"30001","http_port":"20002","send_type":"PUT_ASYNC"}}' \
    > decode.log 2>&1 &
else
  echo "usage: $0 prefill|decode" >&2
  exit 1
fi
