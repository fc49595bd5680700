# vcfg-test: vllm=0.20.2
# Start a server, wait until it answers, then benchmark it with random prompts.
MODEL=Qwen/Qwen2.5-7B-Instruct
PORT=8011
RESULTS=${RESULTS:-./results}

CUDA_VISIBLE_DEVICES=3 vllm serve $MODEL \
  --port $PORT \
  --served-model-name qwen2.5-7b \
  --max-model-len 8192 \
  --max-num-seqs 256 \
  --max-num-batched-tokens 8192 \
  --no-enable-prefix-caching \
  --disable-log-stats > server.log 2>&1 &
SERVER_PID=$!

until curl -sf "http://127.0.0.1:${PORT}/health" > /dev/null; do sleep 5; done

mkdir -p "$RESULTS"
for rate in 1 4 16; do
  vllm bench serve \
    --backend vllm \
    --model $MODEL \
    --served-model-name qwen2.5-7b \
    --port $PORT \
    --dataset-name random \
    --random-input-len 1024 \
    --random-output-len 256 \
    --num-prompts 500 \
    --request-rate $rate \
    --ignore-eos \
    --percentile-metrics ttft,tpot,itl \
    --metric-percentiles 50,90,99 \
    --save-result \
    --result-dir "$RESULTS"
done

kill $SERVER_PID
