# vcfg-test: vllm=0.33.0
# vcfg-expect: VC308 10:35
# Three nodes of 8 ranks each; the third node repeats the second one's start rank.
common="--data-parallel-size 24 --data-parallel-size-local 8 --data-parallel-address 10.20.0.4 --data-parallel-rpc-port 13345"
case "$NODE" in
  0) vllm serve deepseek-ai/DeepSeek-V3 $common --enable-expert-parallel --port 8000 ;;
  1) vllm serve deepseek-ai/DeepSeek-V3 $common --enable-expert-parallel --headless \
       --data-parallel-start-rank 8 ;;
  2) vllm serve deepseek-ai/DeepSeek-V3 $common --enable-expert-parallel --headless \
       --data-parallel-start-rank 8 ;;
esac
