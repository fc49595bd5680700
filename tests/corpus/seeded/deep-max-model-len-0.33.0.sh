# vcfg-test: vllm=0.33.0
# vcfg-expect: VC205 5:30
# A context longer than the model's 40960 positions, without the override variable.
# The model directory sits next to this script, so vcfg reads its config.json.
vllm serve ./models/qwen3-8b --max-model-len 64k
