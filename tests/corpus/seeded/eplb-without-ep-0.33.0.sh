# vcfg-test: vllm=0.33.0
# vcfg-expect: VC220 4:3
CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 \
  --enable-eplb --port 8000
