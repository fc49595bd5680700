# vcfg-test: vllm=0.33.0
# vcfg-expect: VC245 6:53
# One data-parallel rank per process for a dense model (no experts in its config.json):
# vLLM runs external data parallelism only for mixture-of-experts models.
# The model directory sits next to this script, so vcfg reads its config.json.
vllm serve ./models/qwen3-8b --data-parallel-size 2 --data-parallel-rank 1 --port 8001
