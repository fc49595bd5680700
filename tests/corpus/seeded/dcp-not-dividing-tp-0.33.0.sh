# vcfg-test: vllm=0.33.0
# vcfg-expect: VC226 4:73
# Decode context parallelism over a TP group it does not divide (VC226).
CUDA_VISIBLE_DEVICES=0,1 vllm serve deepseek-ai/DeepSeek-V2-Lite -dcp 4 -tp 2
