# vcfg-test: vllm=0.33.0
# vcfg-expect: VC217 5:56
# Four TP-2 replicas on a node that exposes four GPUs.
export CUDA_VISIBLE_DEVICES=0,1,2,3
vllm serve Qwen/Qwen3-30B-A3B --tensor-parallel-size 2 --data-parallel-size 4 \
  --enable-expert-parallel --port 8000
