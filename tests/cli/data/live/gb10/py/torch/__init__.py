# A stand-in for torch on a DGX Spark: what torch 2.9.0+cu130 answers on a GB10 (capability
# (12, 1) and "True 13.0" as in the skill's spark-environment-setup; the arch list has sm_121
# without the "a" target, pytorch/pytorch#188191). Only the calls gotcha's probe makes.
__version__ = "2.9.0+cu130"


class version:
    cuda = "13.0"


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
        return ["sm_80", "sm_86", "sm_90", "sm_100", "sm_110", "sm_120", "sm_121"]
