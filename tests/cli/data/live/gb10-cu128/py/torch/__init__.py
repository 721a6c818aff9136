# A stand-in for a CUDA 12.8 torch (the PyPI default wheel) on a DGX Spark: the G1 mismatch. It
# still reports (12, 1) on GB10; cu128 wheels target up to sm_120 (pytorch/pytorch#182250).
# Only the calls gotcha's probe makes.
__version__ = "2.9.0+cu128"


class version:
    cuda = "12.8"


class cuda:
    @staticmethod
    def is_available():
        return True

    @staticmethod
    def device_count():
        return 1

    @staticmethod
    def get_device_capability(device=None):
        return (12, 1)

    @staticmethod
    def get_device_name(device=None):
        return "NVIDIA GB10"

    @staticmethod
    def get_arch_list():
        return ["sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"]
