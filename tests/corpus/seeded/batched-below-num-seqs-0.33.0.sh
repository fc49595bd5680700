# vcfg-test: vllm=0.33.0
# vcfg-expect: VC202 5:90
# A step budget smaller than the number of sequences (VC202, at the operand
# written last, --max-num-seqs).
vllm serve Qwen/Qwen3-0.6B --port 8000 --max-model-len 4096 --max-num-batched-tokens 256 --max-num-seqs 512
