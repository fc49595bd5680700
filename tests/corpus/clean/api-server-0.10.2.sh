# vcfg-test: vllm=0.10.2
# Plain single-node serving through the OpenAI-compatible module entrypoint,
# which takes the model with --model.
export HF_HOME=/data/hf-cache
export VLLM_WORKER_MULTIPROC_METHOD=spawn
export VLLM_LOGGING_LEVEL=INFO
export CUDA_VISIBLE_DEVICES=0,1,2,3

python3 -m vllm.entrypoints.openai.api_server \
  --model mistralai/Mistral-7B-Instruct-v0.3 \
  --served-model-name mistral-7b mistral \
  --host 0.0.0.0 \
  --port 8000 \
  --tensor-parallel-size 4 \
  --dtype bfloat16 \
  --max-model-len 32768 \
  --max-num-seqs 128 \
  --max-num-batched-tokens 8192 \
  --gpu-memory-utilization 0.92 \
  --swap-space 8 \
  --enable-prefix-caching \
  --tokenizer-mode mistral \
  --enable-auto-tool-choice \
  --tool-call-parser mistral \
  --uvicorn-log-level warning \
  --disable-log-stats
