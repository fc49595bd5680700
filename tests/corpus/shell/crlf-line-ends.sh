#!/bin/bash
# written on Windows: every line of this script ends in CR LF
export VLLM_LOGGING_LEVEL=INFO
MODEL=Qwen/Qwen3-0.6B
vllm serve "$MODEL" --port 8000 --served-model-name ==
vllm serve $MODEL --port 8001 --enforce-eager
vllm serve Qwen/Qwen3-0.6B --port 8002 \
  --max-num-seqs 8
vllm serve Qwen/Qwen3-0.6B --port 8003 --served-model-name "qwen" 
