#!/bin/bash
# Values vcfg cannot know (command output), which the stubs make empty.
NODE_IP=$(hostname -I | awk '{print $1}')
NGPU=$(nvidia-smi --list-gpus | wc -l)
vllm serve Qwen/Qwen3-8B --host "$NODE_IP" --port 8100 --tensor-parallel-size "${NGPU:-1}" &
vllm serve Qwen/Qwen3-8B --port 8200 --served-model-name "m-$(date +%s)" &
wait
