"""Plan tensor/pipeline/data/expert parallel layouts and memory from a model's config.json.

Nothing here imports vLLM or torch, and nothing is downloaded: the model is a local
directory or a config.json file.
"""
