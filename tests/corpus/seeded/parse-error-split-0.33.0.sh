# vcfg-test: vllm=0.33.0
# vcfg-expect: VC000 7:3
# A missing backslash: bash ends the command after --port 8000 and runs the next
# line as a command of its own (VC000, at the first word of the split-off line).
vllm serve Qwen/Qwen3-8B \
  --port 8000
  --max-model-len 16384 \
  --enable-prefix-caching
