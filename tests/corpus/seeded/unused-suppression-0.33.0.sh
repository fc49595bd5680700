# vcfg-test: vllm=0.33.0
# vcfg-expect: VC900 8:1
# vcfg-expect: VC900 10:66
# Suppressions: the first silences a real finding (the misspelt option) and is
# used; the other two silence nothing and are reported (VC900, at their '#').
# vcfg: disable=VC001
CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-8B --port 8000 --tensor-paralel-size 1 &
# vcfg: disable=VC002
CUDA_VISIBLE_DEVICES=1 vllm serve Qwen/Qwen3-0.6B --port 8001 &
CUDA_VISIBLE_DEVICES=2 vllm serve Qwen/Qwen3-1.7B --port 8002 &  # vcfg: disable=VC007
wait
