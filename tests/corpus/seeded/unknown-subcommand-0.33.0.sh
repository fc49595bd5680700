# vcfg-test: vllm=0.33.0
# vcfg-expect: VC013 7:6
# vcfg-expect: VC013 9:12
# A misspelt subcommand and one glued to the flag after it (VC013): neither the
# server nor the benchmark starts.
MODEL=Qwen/Qwen3-8B
vllm serv $MODEL --port 8100 &
sleep 600
vllm bench serve--save-result --model $MODEL --port 8100 --num-prompts 200
