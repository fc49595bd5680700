# vcfg-test: vllm=0.23.0
# vcfg-expect: VC002 8:3
# vcfg-expect: VC002 9:3
# Options an earlier release had (VC002): --swap-space went in 0.18.1,
# --max-seq-len-to-capture in 0.11.2.
vllm serve Qwen/Qwen3-8B \
  --port 8000 \
  --swap-space 16 \
  --max-seq-len-to-capture 8192 \
  --max-model-len 16384
