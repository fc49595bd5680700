# vcfg-test: vllm=0.33.0
# vcfg-expect: VC218 4:62
# A rank of a group whose size was forgotten.
CUDA_VISIBLE_DEVICES=0,1 vllm serve Qwen/Qwen3-30B-A3B -tp 2 --data-parallel-rank 0 --port 8000
