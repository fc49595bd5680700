# vcfg-test: vllm=0.33.0
# CPU offloading through --kv-offloading-size (GiB; vLLM builds the
# OffloadingConnector itself), then a fixed-concurrency benchmark.
MODEL=openai/gpt-oss-20b
PORT=8400

CUDA_VISIBLE_DEVICES=0 vllm serve $MODEL \
  --port $PORT \
  --kv-offloading-size 48 \
  --kv-offloading-backend native \
  --max-model-len 65536 \
  --max-num-seqs 128 \
  --max-num-batched-tokens 16384 \
  --async-scheduling \
  --reasoning-parser openai_gptoss \
  --tool-call-parser openai \
  --enable-auto-tool-choice &

timeout 900 bash -c "until curl -s localhost:${PORT}/v1/models > /dev/null; do sleep 3; done"

vllm bench serve \
  --model $MODEL \
  --port $PORT \
  --dataset-name random \
  --random-input-len 8000 \
  --random-output-len 500 \
  --max-concurrency 16 \
  --num-prompts 320 \
  --num-warmups 8 \
  --save-result
