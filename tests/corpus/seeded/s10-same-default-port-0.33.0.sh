# vcfg-test: vllm=0.33.0
# vcfg-expect: VC302 7:29
# user-pain 5.7 / section 10 (their VC046): two servers without --port both take 8000
# (our VC302; nothing written, so at the later launch's
# `serve` word).
CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-8B &
CUDA_VISIBLE_DEVICES=1 vllm serve meta-llama/Llama-3.1-8B-Instruct &
wait
