#!/bin/bash
# JSON from $(cat <<EOF), a config file written by a heredoc, quote splicing.
KV_PORT=21001
HOST_IP=10.0.0.7
KV_CONFIG=$(cat <<JSON
{"kv_connector":"P2pNcclConnector","kv_role":"kv_producer","kv_port":"$KV_PORT","kv_connector_extra_config":{"proxy_ip":"$HOST_IP","http_port":"20001"}}
JSON
)
MAX_LEN=$((4096 * 2))
cat > serve.yaml <<YAML
model: Qwen/Qwen3-8B
max-model-len: $MAX_LEN
tensor-parallel-size: 2
YAML
vllm serve --config serve.yaml --port 8100 --kv-transfer-config "$KV_CONFIG" &
vllm serve Qwen/Qwen3-8B --port 8200 \
  --kv-transfer-config '{"kv_connector":"P2pNcclConnector","kv_role":"kv_consumer","kv_connector_extra_config":{"proxy_ip":"'"$HOST_IP"'"}}' &
vllm serve Qwen/Qwen3-8B --port 8300 --kv-transfer-config "{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\",\"kv_port\":\"$KV_PORT\"}" \
  --served-model-name "a b" "$HOST_IP $KV_PORT" $'tab\there' x'y'"z" &
wait
