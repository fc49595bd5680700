# Sourced by the other scripts of this folder: shared settings and helpers.
MODEL=${MODEL:-Qwen/Qwen3-8B}
BASE_PORT=8100
export VLLM_LOGGING_LEVEL=INFO

start_instance() {
  local gpu=$1 port=$2
  shift 2
  CUDA_VISIBLE_DEVICES=$gpu nohup vllm serve "$MODEL" --port "$port" "$@" > "log_${port}.txt" 2>&1 &
}

stop_all() {
  pkill -f "vllm serve" || true
}
