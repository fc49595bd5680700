# vcfg-test: vllm=0.33.0
# vcfg-expect: VC203 5:68
# user-pain 5.4 / section 10 (their VC043): TP 2 with one visible GPU (our VC203, at
# the parallel-size option).
CUDA_VISIBLE_DEVICES=0 vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 2
