# vcfg-test: vllm=0.33.0
# vcfg-expect: VC208 5:32
# More pipeline stages than the 28 layers of the model.
# The model directory sits next to this script, so vcfg reads its config.json.
vllm serve ./models/qwen3-0.6b --pipeline-parallel-size 32
