# vcfg-test: vllm=0.33.0
# vcfg-expect: VC014 5:71
# vcfg-expect: VC014 5:94
# Names vLLM looks up after argparse (VC014): a tool-call parser and a quantization method.
vllm serve Qwen/Qwen3-8B --enable-auto-tool-choice --tool-call-parser hermess --quantization gptq4
