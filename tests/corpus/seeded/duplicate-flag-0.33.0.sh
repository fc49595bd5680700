# vcfg-test: vllm=0.33.0
# vcfg-expect: VC007 10:3
# vcfg-expect: VC007 11:3
# The same option twice (VC007, at the later one, which wins); the underscore
# spelling is the same option.
vllm serve Qwen/Qwen3-8B \
  --port 8000 \
  --max-model-len 16384 \
  --max-num-seqs 128 \
  --port 8001 \
  --max_model_len 32768
