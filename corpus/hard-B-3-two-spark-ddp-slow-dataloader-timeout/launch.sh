# DDP (no tensor parallel) across two Sparks
torchrun --nnodes 2 --nproc_per_node 1 --node_rank $R --master_addr 169.254.77.10 --master_port 29500 train_ddp.py --data /mnt/nas/webdataset/shard-{0000..4095}.tar --workers 2
