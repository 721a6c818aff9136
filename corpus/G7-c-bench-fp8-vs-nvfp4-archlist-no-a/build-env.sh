# how the bench extension was built
export TORCH_CUDA_ARCH_LIST="12.1"
export CUDA_HOME=/usr/local/cuda
pip install -v --no-build-isolation ./fp4bench_ext
