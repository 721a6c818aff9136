#!/bin/bash
#SBATCH --job-name=sft-llama
#SBATCH --partition=short
#SBATCH --gres=gpu:1
srun python train.py --config sft.yaml
