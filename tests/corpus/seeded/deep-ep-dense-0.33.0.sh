# vcfg-test: vllm=0.33.0
# vcfg-expect: VC207 5:36
# Expert parallelism asked for a dense model (no experts in its config.json).
# The model directory sits next to this script, so vcfg reads its config.json.
vllm serve ./models/qwen3-8b -tp 4 --enable-expert-parallel
