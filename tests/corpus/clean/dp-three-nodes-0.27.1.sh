# vcfg-test: vllm=0.27.1
# Three nodes of 8 ranks each: the head serves HTTP, the others run headless.
common="--data-parallel-size 24 --data-parallel-size-local 8 --data-parallel-address 10.20.0.4 --data-parallel-rpc-port 13345"
case "$NODE" in
  0) vllm serve deepseek-ai/DeepSeek-V3 $common --enable-expert-parallel --port 8000 --api-server-count 4 ;;
  1) vllm serve deepseek-ai/DeepSeek-V3 $common --enable-expert-parallel --headless --data-parallel-start-rank 8 ;;
  2) vllm serve deepseek-ai/DeepSeek-V3 $common --enable-expert-parallel --headless --data-parallel-start-rank 16 ;;
esac
