# vcfg-test: vllm=0.33.0
# vcfg-expect: VC004 7:28
# vcfg-expect: VC004 8:18
# Values argparse rejects for the option's type (VC004, at the value).
vllm serve Qwen/Qwen3-8B \
  --port 8000 \
  --gpu-memory-utilization 90% \
  --max-num-seqs 256.0 \
  --max-model-len 16384
