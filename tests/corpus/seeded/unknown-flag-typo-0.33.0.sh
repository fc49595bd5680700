# vcfg-test: vllm=0.33.0
# vcfg-expect: VC001 7:3
# A misspelt option (VC001, with a did-you-mean for --tensor-parallel-size).
export CUDA_VISIBLE_DEVICES=0,1
vllm serve Qwen/Qwen3-14B \
  --port 8000 \
  --tensor-paralel-size 2 \
  --max-model-len 16384
