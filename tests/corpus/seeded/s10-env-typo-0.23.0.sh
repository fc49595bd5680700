# vcfg-test: vllm=0.23.0
# vcfg-expect: VC101 5:8
# user-pain 2.1 / section 10 (their VC100): a misspelt variable (our VC101).  Aimed at
# 0.23.0: the intended VLLM_FLASHINFER_MOE_BACKEND is gone from 0.24.0 (see README).
export VLLM_FLASHINFER_MOE_BACKEN=throughput
vllm serve Qwen/Qwen3-30B-A3B --tensor-parallel-size 2 --enable-expert-parallel
