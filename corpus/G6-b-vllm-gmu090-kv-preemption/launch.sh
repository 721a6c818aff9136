#!/bin/bash
# eval server for the in-loop judge; started next to the SFT job
export VLLM_USE_V1=0   # judge needs the V0 guided decoding path
python3 -m vllm.entrypoints.openai.api_server \
  --model Qwen/Qwen2.5-14B-Instruct \
  --gpu-memory-utilization 0.9 \
  --max-model-len 8192 --max-num-seqs 64 --port 8001 \
  > logs/judge-vllm.log 2>&1 &

accelerate launch train_sft_judge.py --config cfg/qwen7b-full.yaml > logs/train.log 2>&1
