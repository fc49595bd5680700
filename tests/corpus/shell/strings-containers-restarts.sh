#!/bin/bash
# Strings extended by several ifs and eval'd, launches in containers (an entrypoint,
# a shell string that exports), a case item started in the background, and a server
# restarted by a helper that main calls twice.
MODEL=${1:-facebook/opt-125m}
CMD="vllm serve $MODEL --port 8100"
if [ -n "$TP" ]; then
  CMD="$CMD --tensor-parallel-size $TP"
fi
if [ -z "$EAGER" ]; then
  CMD="$CMD --enforce-eager"
fi
eval "$CMD --kv-transfer-config '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\",\"kv_port\":${KV_PORT:-5600}}'" &

docker run -d --rm $DOCKER_ARGS -e HF_HOME=/data vllm/vllm-openai:v0.13.0 "$MODEL" --port 8200
docker run --entrypoint vllm vllm/vllm-openai:v0.13.0 serve "$MODEL" --port 8201
docker run --rm vllm-cpu:latest /bin/bash -c "export VLLM_CPU_KVCACHE_SPACE=8 && \
  python3 -m vllm.entrypoints.openai.api_server --model $MODEL --port 8300"

case "${ROLE:-prefill}" in
  prefill) vllm serve "$MODEL" --port 8400 --max-num-seqs 4 & ;;
  *) echo "unknown role"; exit 1 ;;
esac

serve_one() {
  pkill -f "vllm serve" || true
  vllm serve "$MODEL" --port 8500 --max-num-seqs "$1" &
  sleep 5
}
main() {
  serve_one 8
  serve_one 16
}
main "$@"
wait
