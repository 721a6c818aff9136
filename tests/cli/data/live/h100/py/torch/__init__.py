# A stand-in for torch on an H100 80GB: torch 2.5.1+cu124 (the arch list of the cu12x wheels,
# pytorch/pytorch#182250). Only the calls gotcha's probe makes.
__version__ = "2.5.1+cu124"


class version:
    cuda = "12.4"


class cuda:
    @staticmethod
    def is_available():
        return True

    @staticmethod
    def device_count():
        return 1

    @staticmethod
    def get_device_capability(device=None):
        return (9, 0)

    @staticmethod
    def get_device_name(device=None):
        return "NVIDIA H100 80GB HBM3"

    @staticmethod
    def get_arch_list():
        return ["sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"]
