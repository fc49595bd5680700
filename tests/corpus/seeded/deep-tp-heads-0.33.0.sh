# vcfg-test: vllm=0.33.0
# vcfg-expect: VC204 5:31
# Tensor parallel size 6 for a model with 64 attention heads (models/llama-70b).
# The model directory sits next to this script, so vcfg reads its config.json.
vllm serve ./models/llama-70b -tp 6 --max-model-len 32768
