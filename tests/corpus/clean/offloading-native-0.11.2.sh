# vcfg-test: vllm=0.11.2
# Native CPU offloading: in this release the offloading settings take effect only
# when --kv-offloading-backend is given, together with the size in GiB.
MODEL=meta-llama/Llama-3.1-8B-Instruct

CUDA_VISIBLE_DEVICES=0,1 vllm serve ${MODEL} \
  --tensor-parallel-size 2 \
  --port 8010 \
  --max-model-len 65536 \
  --max-num-seqs 64 \
  --kv-offloading-backend native \
  --kv-offloading-size 64 \
  --enable-prefix-caching \
  --block-size 16 \
  --disable-log-stats
