# vcfg-test: vllm=0.33.0
# vcfg-expect: VC206 5:37
# Two 80 GiB GPUs (gpu-memory in .vcfg.toml) for a 70B model at its full length.
# The model directory sits next to this script, so vcfg reads its config.json.
vllm serve ./models/llama-70b -tp 2 --max-model-len 131072
