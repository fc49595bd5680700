#!/bin/bash
# break / continue / return in branches whose test vcfg cannot decide (a command's
# status or output, a file): each path's launches and values as bash runs them.

# a port that answers already is skipped (curl's status)
for i in 0 1 2; do
  port=$((8100 + i))
  if curl -sf "http://localhost:$port/health" > /dev/null; then
    continue
  fi
  vllm serve Qwen/Qwen3-0.6B --port "$port" &
done

# the first idle GPU: the loop breaks at the first one nvidia-smi shows no process on
GPU=none
for g in 0 1 2 3; do
  if [ -z "$(nvidia-smi -i "$g" --query-compute-apps=pid --format=csv,noheader)" ]; then
    GPU=$g
    break
  fi
done
CUDA_VISIBLE_DEVICES=$GPU vllm serve Qwen/Qwen3-0.6B --port 8200 &

# a marker file chooses the GPU: the loop breaks at its second run
touch ./gpu1.free
PICK=0
for g in 0 1 2 3; do
  if [ -e "./gpu$g.free" ]; then
    PICK=$g
    break
  fi
done
CUDA_VISIBLE_DEVICES=$PICK vllm serve Qwen/Qwen3-0.6B --port $((8210 + PICK)) &

# the port moves on while the server does not answer: bash stops at its first run
PORT=8900
for i in 1 2 3; do
  if curl -sf "http://localhost:$PORT/health" > /dev/null; then
    break
  fi
  PORT=$((8900 + i))
done
vllm serve Qwen/Qwen3-0.6B --port "$PORT" &

# roles skipped on a host whose name says it runs the other one
for role in prefill decode; do
  if [ -n "$(hostname)" ] && [ "$(hostname)" != "node-$role" ]; then
    continue
  fi
  if [ "$role" = prefill ]; then port=8300; else port=8301; fi
  vllm serve Qwen/Qwen3-0.6B --port "$port" \
    --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}' &
done

# `&& continue` on a list of busy GPUs that may not exist
for i in 0 1; do
  grep -qs "^gpu$i\$" ./busy-gpus.txt && continue
  CUDA_VISIBLE_DEVICES=$i vllm serve Qwen/Qwen3-0.6B --port $((8400 + i)) &
done

# a skipped run moves the next ones' ports (a value `continue` carries on)
BASE=8800
for i in 0 1 2; do
  if grep -qs "skip $i" ./skip.txt; then
    BASE=$((BASE + 10))
    continue
  fi
  vllm serve Qwen/Qwen3-0.6B --port $((BASE + i)) &
done

# a function that returns early when its server is up already
start_server() {
  local port=$1
  if curl -sf "http://localhost:$port/health" > /dev/null; then
    echo "already up on $port"
    return 0
  fi
  vllm serve Qwen/Qwen3-0.6B --port "$port" &
}
start_server 8500

# a function that returns with a value set on the path that returned
pick_port() {
  PORT=8600
  if [ -n "$(ss -ltn 'sport = :8600')" ]; then
    PORT=8601
    return
  fi
}
pick_port
vllm serve Qwen/Qwen3-0.6B --port "$PORT" &

# two loops left at once (`break 2`) when a device is missing
for node in 0 1; do
  for gpu in 0 1; do
    if [ -e "/dev/nvidia-missing$node$gpu" ]; then
      break 2
    fi
    CUDA_VISIBLE_DEVICES=$gpu vllm serve Qwen/Qwen3-0.6B --port $((8700 + node * 2 + gpu)) &
  done
done

# a readiness loop that breaks when the server answers; the benchmark runs after it
while true; do
  if curl -sf http://localhost:8600/v1/models > /dev/null; then
    break
  fi
  sleep 1
done
vllm bench serve --model Qwen/Qwen3-0.6B --port 8600 --num-prompts 10
wait
