# vcfg-test: vllm=0.23.0
# NIXL 1P1D over two hosts; run with "prefill" on one and "decode" on the other.
# From this release NIXL wants the explicit roles (kv_both is deprecated for it).
# The handshake listener must be reachable from the other host, hence the host IP.
set -euo pipefail
ROLE=${1:?usage: $0 prefill|decode}
MODEL=meta-llama/Llama-3.1-70B-Instruct
NODE_IP=$(hostname -I | awk '{print $1}')

export VLLM_NIXL_SIDE_CHANNEL_HOST=$NODE_IP
export VLLM_NIXL_SIDE_CHANNEL_PORT=5600
export UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1
export UCX_TLS=rc,cuda_copy,cuda_ipc

case "$ROLE" in
  prefill)
    exec vllm serve $MODEL \
      --host 0.0.0.0 --port 8100 \
      --tensor-parallel-size 8 \
      --max-model-len 32768 \
      --block-size 64 \
      --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer","kv_connector_extra_config":{"kv_lease_duration":60}}'
    ;;
  decode)
    exec vllm serve $MODEL \
      --host 0.0.0.0 --port 8200 \
      --tensor-parallel-size 8 \
      --max-model-len 32768 \
      --block-size 64 \
      --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}'
    ;;
esac
